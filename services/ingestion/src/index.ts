/**
 * The ingestion service's public entry: the module, its configuration and
 * its embedded stores. The MongoDB stores are `@engram/ingestion/mongo`
 * (loaded only when chosen). Callers never import deeper than these.
 */
export {
  createIngestionModule,
  embeddedIngestionStorage,
  INGESTION_CONSUMER_GROUP,
  type IngestionDeps,
  type IngestionStorage,
  type OutboxPublisher,
} from "./module";
export { type IngestionConfig, ingestionConfigSchema, loadIngestionConfig } from "./config";
