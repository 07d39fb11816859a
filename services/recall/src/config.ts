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
