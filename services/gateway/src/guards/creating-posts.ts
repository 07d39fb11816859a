import type { QuotaKind } from "./quota";

/**
 * Which requests the gateway's guards act on, by method and path only: the
 * creating POSTs that honour `Idempotency-Key` and the ones a tenant's quota
 * counts (docs/api-decisions.md sections 16 and 17). Pure and free of side
 * effects, so both the guards (http/guards.ts) and the OpenAPI description
 * (openapi/registry.ts) read the one list.
 */

/** The creating POSTs that honour Idempotency-Key (elsewhere the header is ignored). */
const CREATING: readonly RegExp[] = [
  /^\/v3\/documents(\/batch|\/file)?$/,
  /^\/ns\/[^/]+\/document(\/batch|\/file)?$/,
  /^\/v4\/memories$/,
  /^\/v4\/conversations$/,
  /^\/v3\/connections\/(?!list$|webhooks$)[^/]+$/,
  /^\/v3\/keys$/,
];

const DOCUMENTS_BATCH = /^\/(v3\/documents|ns\/[^/]+\/document)\/batch$/;
const DOCUMENT = /^\/(v3\/documents|ns\/[^/]+\/document)(\/file)?$/;

export function isCreatingPost(method: string, path: string): boolean {
  return method.toUpperCase() === "POST" && CREATING.some((r) => r.test(path));
}

/**
 * The quota a creating POST counts against, and whether it adds one item or
 * one per element of a body array (`memories`, `documents`); undefined when no quota applies.
 */
export function quotaRouteOf(method: string, path: string): { kind: QuotaKind; perItemOf?: "memories" | "documents" } | undefined {
  if (method.toUpperCase() !== "POST") return undefined;
  if (path === "/v4/memories") return { kind: "memories", perItemOf: "memories" };
  if (DOCUMENTS_BATCH.test(path)) return { kind: "documents", perItemOf: "documents" };
  if (DOCUMENT.test(path) || path === "/v4/conversations") return { kind: "documents" };
  return undefined;
}
