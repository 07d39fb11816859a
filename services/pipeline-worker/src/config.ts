import { env, loadConfig, z, type Env } from "@engram/config";

export const workerConfigSchema = z.object({
  ENGRAM_DATA_DIR: env.string("./.data"),
  INGESTION_ADDRESS: env.string("127.0.0.1:50051"),
  PIPELINE_WORKER_GRPC_ADDRESS: env.string("0.0.0.0:50052"),
  CHUNK_MAX_TOKENS: env.int(512, { min: 32, max: 8192 }),
  CHUNK_OVERLAP_TOKENS: env.int(64, { min: 0, max: 1024 }),
  EMBEDDER: z.enum(["hashing"], { message: "must be hashing" }).default("hashing"),
  EMBEDDING_DIMENSIONS: env.int(384, { min: 16, max: 4096 }),
  EMBED_BATCH_SIZE: env.int(64, { min: 1, max: 2048 }),
  /** Delivery attempts of one event before the document fails (the bus retries with backoff). */
  BUS_MAX_ATTEMPTS: env.int(5, { min: 1, max: 100 }),
});

export type WorkerConfig = z.infer<typeof workerConfigSchema>;

export function loadWorkerConfig(e: Env = process.env): WorkerConfig {
  const c = loadConfig("pipeline-worker", workerConfigSchema, e);
  return c;
}
