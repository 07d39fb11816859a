import { env, loadConfig, z, type Env } from "@engram/config";

export const connectionsConfigSchema = z.object({
  ENGRAM_DATA_DIR: env.string("./.data"),
  CONNECTIONS_GRPC_ADDRESS: env.string("0.0.0.0:50055"),
});

export type ConnectionsConfig = z.infer<typeof connectionsConfigSchema>;

export function loadConnectionsConfig(e: Env = process.env): ConnectionsConfig {
  return loadConfig("connections", connectionsConfigSchema, e);
}
