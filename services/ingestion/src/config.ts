import { env, loadConfig, z, type Env } from "@engram/config";

export const ingestionConfigSchema = z.object({
  ENGRAM_DATA_DIR: env.string("./.data"),
  INGESTION_GRPC_ADDRESS: env.string("0.0.0.0:50051"),
  /** A document without progress for this long is queued again (safety net). */
  INGESTION_STALE_AFTER_MS: env.int(15 * 60_000, { min: 10_000 }),
  INGESTION_STALE_SWEEP_MS: env.int(60_000, { min: 1000 }),
});

export type IngestionConfig = z.infer<typeof ingestionConfigSchema>;

export function loadIngestionConfig(e: Env = process.env): IngestionConfig {
  return loadConfig("ingestion", ingestionConfigSchema, e);
}
