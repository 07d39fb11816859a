/** The pipeline worker's public entry: the module and its configuration. Callers never import deeper than this. */
export { createWorkerModule, WORKER_CONSUMER_GROUP, type WorkerDeps } from "./module";
export { loadWorkerConfig, type WorkerConfig, workerConfigSchema } from "./config";
