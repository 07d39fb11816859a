import { env, z } from "@engram/config";
import { QdrantClient } from "@qdrant/js-client-rest";

/**
 * Qdrant settings, for every service that reads or writes the chunk index or
 * the memory search in distributed mode (spread into the service's schema with
 * `checkQdrantConfig` in its `superRefine`).
 */
export const qdrantConfigShape = {
  /** Which chunk index / memory search the service uses. */
  INDEX: z.enum(["embedded", "qdrant"], { message: "must be embedded or qdrant" }).default("embedded"),
  QDRANT_URL: z.string().url("must be a URL such as http://localhost:6333").optional(),
  QDRANT_API_KEY: z.string().min(1).optional(),
  QDRANT_COLLECTION_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, "must be letters, digits, _ or - (collections are <prefix>_chunks and <prefix>_memories)")
    .default("engram"),
  /** Metadata keys filters use often: each gets payload indexes (comma-separated). */
  QDRANT_INDEXED_METADATA_KEYS: env.list([]),
  /**
   * How the keyword and dense rankings are fused: `weighted` (default: the
   * embedded engine's agreement-calibrated weighted RRF, computed on the two
   * rankings one Query API batch returns, so both adapters rank alike), or
   * Qdrant's own server-side fusion of prefetches, `rrf` or `dbsf` (equal
   * weights; `keywordScore` is then not reported).
   */
  QDRANT_FUSION: z.enum(["weighted", "rrf", "dbsf"], { message: "must be weighted, rrf or dbsf" }).default("weighted"),
  /** Per-request timeout of the Qdrant client. */
  QDRANT_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
};

/** The cross-field rule of the Qdrant settings: a URL is needed once Qdrant is selected. */
export function checkQdrantConfig(c: { INDEX: string; QDRANT_URL?: string }, ctx: z.RefinementCtx): void {
  if (c.INDEX === "qdrant" && !c.QDRANT_URL) ctx.addIssue({ code: "custom", path: ["QDRANT_URL"], message: "is required when INDEX=qdrant" });
}

export const qdrantConfigSchema = z.object(qdrantConfigShape).superRefine(checkQdrantConfig);

export type QdrantConfig = z.infer<typeof qdrantConfigSchema>;

/**
 * The Qdrant REST client for these settings. The server's version is not
 * checked against the client's (`checkCompatibility: false`): Engram uses only
 * requests that Qdrant ≥ 1.11 answers, and the check logs a warning per client.
 */
export function createQdrantClient(c: Pick<QdrantConfig, "QDRANT_URL" | "QDRANT_API_KEY"> & { QDRANT_TIMEOUT_MS?: number }): QdrantClient {
  if (!c.QDRANT_URL) throw new Error("QDRANT_URL is required to reach Qdrant");
  return new QdrantClient({
    url: c.QDRANT_URL,
    ...(c.QDRANT_API_KEY ? { apiKey: c.QDRANT_API_KEY } : {}),
    ...(c.QDRANT_TIMEOUT_MS !== undefined ? { timeout: c.QDRANT_TIMEOUT_MS } : {}),
    checkCompatibility: false,
  });
}
