import { env, loadConfig, z, type Env } from "@engram/config";

export const memoriesConfigSchema = z.object({
  ENGRAM_DATA_DIR: env.string("./.data"),
  MEMORIES_GRPC_ADDRESS: env.string("0.0.0.0:50053"),
});

export type MemoriesConfig = z.infer<typeof memoriesConfigSchema>;

export function loadMemoriesConfig(e: Env = process.env): MemoriesConfig {
  return loadConfig("memories", memoriesConfigSchema, e);
}
