import { env, loadConfig, z, type Env } from "@engram/config";
import { embedderConfigSchema } from "@engram/index";

export const recallConfigSchema = z
  .object({
    ENGRAM_DATA_DIR: env.string("./.data"),
    RECALL_GRPC_ADDRESS: env.string("0.0.0.0:50054"),
  })
  // Must match the pipeline-worker's embedder: query and chunk vectors share one space.
  .and(embedderConfigSchema);

export type RecallConfig = z.infer<typeof recallConfigSchema>;

export function loadRecallConfig(e: Env = process.env): RecallConfig {
  return loadConfig("recall", recallConfigSchema, e);
}
