import type { UsageCounts } from "../guards/quota";
import type { Backends } from "./backends";

/** A tenant's document and memory counts, from the services that own them (for the quotas). */
export function usageFromBackends(b: Backends): UsageCounts {
  const context = (tenantId: string) => ({ tenantId, requestId: "" });
  return {
    async documents(tenantId) {
      const out = await b.ingestion.ListDocuments({ context: context(tenantId), containerTags: [], page: { page: 1, limit: 1 } });
      return out.pagination?.totalItems ?? 0;
    },
    async memories(tenantId) {
      const out = await b.memories.CountNamespaceMemories({ context: context(tenantId), namespaces: [] });
      return out.counts.reduce((n, c) => n + (c.memoryCount ?? 0), 0);
    },
  };
}
