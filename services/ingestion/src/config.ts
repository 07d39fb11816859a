import { env, loadConfig, z, type Env } from "@engram/config";

export const ingestionConfigSchema = z.object({
  ENGRAM_DATA_DIR: env.string("./.data"),
  INGESTION_GRPC_ADDRESS: env.string("0.0.0.0:50051"),
  /** A document without progress for this long is queued again (safety net). */
  INGESTION_STALE_AFTER_MS: env.int(15 * 60_000, { min: 10_000 }),
  INGESTION_STALE_SWEEP_MS: env.int(60_000, { min: 1000 }),
  /** Re-queues of one generation by the stale sweep before the document is failed. */
  INGESTION_STALE_MAX_REQUEUES: env.int(3, { min: 1, max: 100 }),
  /** Largest file accepted by a file add (bytes). */
  INGESTION_MAX_FILE_BYTES: env.int(50 * 1024 * 1024, { min: 1024 }),
  /**
   * Most content bytes (UTF-8) one document listing with content carries
   * (POST /ns/{ns}/list/documents, POST /v3/documents/list with includeContent);
   * documents past it are listed without their content, marked. At most 48 MiB:
   * the rest of a page must still fit in one 64 MiB gRPC message.
   */
  INGESTION_LIST_MAX_CONTENT_BYTES: env.int(32 * 1024 * 1024, { min: 0, max: 48 * 1024 * 1024 }),
  /** Key that signs expiring file links (at least 32 characters). Default: generated once and kept in the data directory. */
  ENGRAM_FILE_URL_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
});

export type IngestionConfig = z.infer<typeof ingestionConfigSchema>;

export function loadIngestionConfig(e: Env = process.env): IngestionConfig {
  return loadConfig("ingestion", ingestionConfigSchema, e);
}
