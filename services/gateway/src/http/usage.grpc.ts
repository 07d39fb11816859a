import type { CountOptions, UsageCounts } from "../guards/quota";
import type { Backends } from "./backends";

/**
 * A tenant's document and memory counts, from the services that own them (for
 * the quotas), within the deadline of the request they are part of (the
 * gateway's default when it names none).
 */
export function usageFromBackends(b: Backends): UsageCounts {
  const context = (tenantId: string, o?: CountOptions) => ({ tenantId, requestId: o?.requestId ?? "" });
  return {
    async documents(tenantId, o) {
      const out = await b.ingestion.ListDocuments({ context: context(tenantId, o), containerTags: [], page: { page: 1, limit: 1 } }, o);
      return out.pagination?.totalItems ?? 0;
    },
    async memories(tenantId, o) {
      const out = await b.memories.CountNamespaceMemories({ context: context(tenantId, o), namespaces: [] }, o);
      return out.counts.reduce((n, c) => n + (c.memoryCount ?? 0), 0);
    },
  };
}
