import type { Logger } from "@engram/observability";
import type { ServiceModule } from "@engram/runtime";
import type { ConnectionsConfig } from "./config";

export interface ConnectionsDeps {
  config: ConnectionsConfig;
  logger: Logger;
}

/**
 * The connections service (connectors, OAuth, settings). Its contracts
 * (ConnectionsService, SettingsService) are complete; connectors arrive in a
 * later release, until then every RPC answers UNIMPLEMENTED (HTTP 501).
 */
export function createConnectionsModule(_deps: ConnectionsDeps): ServiceModule {
  return {
    name: "connections",
    grpcServices: { "engram.connections.v1.ConnectionsService": {}, "engram.connections.v1.SettingsService": {} },
  };
}
