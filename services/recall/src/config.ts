import { env, loadConfig, z, type Env } from "@engram/config";

export const recallConfigSchema = z.object({
  ENGRAM_DATA_DIR: env.string("./.data"),
  RECALL_GRPC_ADDRESS: env.string("0.0.0.0:50054"),
  /** Must match the pipeline-worker's embedder: query and chunk vectors share one space. */
  EMBEDDER: z.enum(["hashing"], { message: "must be hashing" }).default("hashing"),
  EMBEDDING_DIMENSIONS: env.int(384, { min: 16, max: 4096 }),
});

export type RecallConfig = z.infer<typeof recallConfigSchema>;

export function loadRecallConfig(e: Env = process.env): RecallConfig {
  return loadConfig("recall", recallConfigSchema, e);
}
