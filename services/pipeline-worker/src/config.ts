import { env, loadConfig, z, type Env } from "@engram/config";
import { checkEmbedderConfig, embedderConfigShape } from "@engram/index";

export const workerConfigSchema = z
  .object({
    ENGRAM_DATA_DIR: env.string("./.data"),
    INGESTION_ADDRESS: env.string("127.0.0.1:50051"),
    /** Organisation settings (the chunk size) come from the connections service. */
    CONNECTIONS_ADDRESS: env.string("127.0.0.1:50055"),
    PIPELINE_WORKER_GRPC_ADDRESS: env.string("0.0.0.0:50052"),
    CHUNK_MAX_TOKENS: env.int(512, { min: 32, max: 8192 }),
    CHUNK_OVERLAP_TOKENS: env.int(64, { min: 0, max: 1024 }),
    ...embedderConfigShape,
    /** Delivery attempts of one event before the document fails (the bus retries with backoff). */
    BUS_MAX_ATTEMPTS: env.int(5, { min: 1, max: 100 }),
    /** Worker threads for extraction (CPU-heavy parsing stays off the event loop). */
    /** Minimum time between published intermediate states of one document (0: publish every state). */
    PIPELINE_PROGRESS_INTERVAL_MS: env.int(50, { min: 0, max: 60_000 }),
    EXTRACT_THREADS: env.int(2, { min: 1, max: 32 }),
    EXTRACT_TIMEOUT_MS: env.int(120_000, { min: 1000 }),
    /** URL documents: allow private, loopback and link-local addresses (off: they are refused). */
    ENGRAM_ALLOW_PRIVATE_URLS: env.bool(false),
    FETCH_MAX_BYTES: env.int(50 * 1024 * 1024, { min: 1024 }),
    FETCH_TIMEOUT_MS: env.int(30_000, { min: 1000 }),
    FETCH_MAX_REDIRECTS: env.int(5, { min: 0, max: 20 }),
  })
  .superRefine((c, ctx) => {
    if (c.CHUNK_OVERLAP_TOKENS >= c.CHUNK_MAX_TOKENS)
      ctx.addIssue({ code: "custom", path: ["CHUNK_OVERLAP_TOKENS"], message: "must be smaller than CHUNK_MAX_TOKENS" });
    checkEmbedderConfig(c, ctx);
  });

export type WorkerConfig = z.infer<typeof workerConfigSchema>;

export function loadWorkerConfig(e: Env = process.env): WorkerConfig {
  return loadConfig("pipeline-worker", workerConfigSchema, e);
}
