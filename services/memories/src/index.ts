/**
 * The memories service's public entry: the module, its configuration, its
 * ports and the embedded memory store. The production store (records in
 * MongoDB, search in Qdrant) is `@engram/memories/production` (loaded only
 * when chosen, so the embedded stack never loads the MongoDB driver).
 * Callers never import deeper than these.
 */
export { createEmbeddedMemoryStore, createMemoriesModule, MEMORIES_CONSUMER_GROUP, type MemoriesDeps } from "./module";
export { loadMemoriesConfig, type MemoriesConfig, memoriesConfigSchema } from "./config";
export type { DocumentChunks, MemoryRepository } from "./app/ports";
export { createMemory, type NewMemory } from "./domain/memory";
export type { MemoryStoreOptions, SqliteMemoryStore } from "./adapters/embedded/memory.sqlite";
