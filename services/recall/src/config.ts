import { env, loadConfig, z, type Env } from "@engram/config";
import { embedderConfigSchema } from "@engram/index";
import { nlpConfigSchema } from "@engram/nlp";

export const recallConfigSchema = z
  .object({
    ENGRAM_DATA_DIR: env.string("./.data"),
    RECALL_GRPC_ADDRESS: env.string("0.0.0.0:50054"),
    /** Documents (full content, caller ids) are read from ingestion. */
    INGESTION_ADDRESS: env.string("127.0.0.1:50051"),
    /** Profile buckets come from the settings in the connections service. */
    CONNECTIONS_ADDRESS: env.string("127.0.0.1:50055"),
    /** Profile sizes: most static facts, most recent dynamic facts, most memories per bucket. */
    /**
     * Most content bytes (UTF-8) one POST /v3/search with includeFullDocs carries; results past it come
     * without their content, marked. At most 48 MiB: the chunks must still fit in one 64 MiB gRPC message.
     */
    RECALL_SEARCH_MAX_CONTENT_BYTES: env.int(32 * 1024 * 1024, { min: 0, max: 48 * 1024 * 1024 }),
    PROFILE_STATIC_MAX: env.int(100, { min: 1, max: 10_000 }),
    PROFILE_DYNAMIC_MAX: env.int(50, { min: 1, max: 10_000 }),
    PROFILE_BUCKET_MAX: env.int(50, { min: 1, max: 10_000 }),
  })
  // Must match the pipeline-worker's and memories' embedder: query, chunk and memory vectors share one space.
  .and(embedderConfigSchema)
  // Reranker, query rewriter, aggregator and bucket classifier: offline (default) or an OpenAI-compatible chat model.
  .and(nlpConfigSchema);

export type RecallConfig = z.infer<typeof recallConfigSchema>;

export function loadRecallConfig(e: Env = process.env): RecallConfig {
  return loadConfig("recall", recallConfigSchema, e);
}
