import { env, loadConfig, z, type Env } from "@engram/config";
import { checkEmbedderConfig, embedderConfigShape } from "@engram/index";
import { checkNlpConfig, nlpConfigShape } from "@engram/nlp";

export const memoriesConfigSchema = z
  .object({
    ENGRAM_DATA_DIR: env.string("./.data"),
    MEMORIES_GRPC_ADDRESS: env.string("0.0.0.0:50053"),
    /** Where source documents are read during memory formation. */
    INGESTION_ADDRESS: env.string("127.0.0.1:50051"),
    /** Settings (profile buckets) live in the connections service. */
    CONNECTIONS_ADDRESS: env.string("127.0.0.1:50055"),
    /** Delivery attempts of one event before its document fails (the bus retries with backoff). */
    BUS_MAX_ATTEMPTS: env.int(5, { min: 1, max: 100 }),
    /** How often memories past their forgetAfter are forgotten. */
    MEMORY_EXPIRY_SWEEP_MS: env.int(60_000, { min: 100, max: 86_400_000 }),
    /** Memories must be embedded like the queries recall embeds: the same embedder settings. */
    ...embedderConfigShape,
    /** Fact extraction, relating and bucket classification: offline (default) or an OpenAI-compatible chat model. */
    ...nlpConfigShape,
  })
  .superRefine((c, ctx) => {
    checkNlpConfig(c, ctx);
    checkEmbedderConfig(c, ctx);
  });

export type MemoriesConfig = z.infer<typeof memoriesConfigSchema>;

export function loadMemoriesConfig(e: Env = process.env): MemoriesConfig {
  return loadConfig("memories", memoriesConfigSchema, e);
}
