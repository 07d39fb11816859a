/**
 * The connections service's public entry: the module, its configuration and
 * its embedded settings store. The MongoDB store is `@engram/connections/mongo`
 * (loaded only when chosen). Callers never import deeper than these.
 */
export {
  type BoundConnectionRepository,
  type BoundSettingsRepository,
  type ConnectionsDeps,
  createConnectionsModule,
  embeddedConnectionRepository,
  embeddedSettingsRepository,
} from "./module";
export { type ConnectionsConfig, connectionsConfigSchema, loadConnectionsConfig } from "./config";
