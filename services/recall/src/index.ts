/**
 * The recall service's public entry: the module, its configuration and the
 * ports it reads through (the chunk index from `@engram/index`; the memory
 * read model, which the memories service's stores implement). Recall owns no
 * store of its own. Callers never import deeper than this.
 */
export { createRecallModule, type RecallDeps } from "./module";
export { loadRecallConfig, type RecallConfig, recallConfigSchema } from "./config";
export type { MemoryReadModel } from "./app/ports";
