import { createMemoryEmbedder, createQdrantClient, type EmbedderConfig, type QdrantConfig, type QdrantFusion } from "@engram/index";
import type { Logger } from "@engram/observability";
import { connectMongo, type Db, DEFAULT_MONGO_DB, type MongoClient } from "@engram/storage/mongo";
import type { QdrantClient } from "@qdrant/js-client-rest";
import { DEFAULT_RECONCILE_INTERVAL_MS, type MemoryReadOnlyStore, MongoQdrantMemoryStore } from "./adapters/production/memory.mongo-qdrant";
import { QdrantMemorySearch } from "./adapters/production/memory-search.qdrant";

export type { MemoryReadOnlyStore, MongoQdrantMemoryStore };

/**
 * The production memory store (records in MongoDB, search in Qdrant), for
 * the composition root: the package's `@engram/memories/production` entry,
 * apart from module.ts so that the embedded stack never loads the MongoDB
 * driver.
 */
export interface ProductionMemoryStoreOptions {
  /** A connection the caller owns (kept open by `close`), or MONGO_URL and MONGO_DB to connect (closed by `close`). */
  mongo: { client: MongoClient; db: Db } | { url: string; dbName?: string };
  qdrant: QdrantClient;
  /** QDRANT_COLLECTION_PREFIX: the search collection is `<prefix>_memories`. */
  prefix: string;
  /** Dimensions of the embedder's vectors (EMBEDDING_DIMENSIONS; the embedder's `dimensions`). */
  dimensions: number;
  /** QDRANT_INDEXED_METADATA_KEYS: metadata keys that get payload indexes. */
  indexedMetadataKeys?: readonly string[];
  /** QDRANT_FUSION (default weighted). */
  fusion?: QdrantFusion;
  logger: Logger;
  /** Pause between reconciler passes (default 30 s); 0 = only the pass at start-up. */
  reconcileIntervalMs?: number;
  /** Keep embeddings for the dense side of search (default true; the embedder's `semantic`, as the embedded store decides). */
  vectors?: boolean;
  /** MongoDB collection names; defaults `memories`, `memory_formations` and `memory_guards`. */
  collections?: { memories?: string; formations?: string; guards?: string };
}

/**
 * Opens the production memory store: connects to MongoDB when given a URL,
 * prepares the Qdrant collection and the MongoDB collections and indexes,
 * mirrors whatever a crash left unmirrored, and starts the reconciler. Close
 * it with `store.close()` (after the services using it stopped).
 */
export async function createProductionMemoryStore(o: ProductionMemoryStoreOptions): Promise<MongoQdrantMemoryStore> {
  const owned = "url" in o.mongo ? await connectMongo({ url: o.mongo.url, dbName: o.mongo.dbName ?? DEFAULT_MONGO_DB }) : undefined;
  const db = owned ? owned.db : (o.mongo as { db: Db }).db;
  try {
    const search = await QdrantMemorySearch.open(o.qdrant, {
      prefix: o.prefix,
      dimensions: o.dimensions,
      indexedMetadataKeys: o.indexedMetadataKeys ?? [],
      ...(o.fusion ? { fusion: o.fusion } : {}),
    });
    return await MongoQdrantMemoryStore.open({
      db,
      search,
      dimensions: o.dimensions,
      vectors: o.vectors ?? true,
      ...(o.collections ? { collections: o.collections } : {}),
      logger: o.logger,
      reconcileIntervalMs: o.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS,
      ...(owned ? { onClose: () => owned.close() } : {}),
    });
  } catch (err) {
    await owned?.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Opens the production memory store's read side for a process that only reads it (recall): no MongoDB collection
 * or index and no Qdrant collection or payload index is created, no reconcile pass runs, and only search, getMany,
 * chains and list are exposed. The memories service owns the schema and the reconciler. An existing Qdrant
 * collection is still checked against the embedder's size.
 */
export async function createProductionMemoryReader(
  o: Omit<ProductionMemoryStoreOptions, "reconcileIntervalMs" | "indexedMetadataKeys">,
): Promise<MemoryReadOnlyStore> {
  const owned = "url" in o.mongo ? await connectMongo({ url: o.mongo.url, dbName: o.mongo.dbName ?? DEFAULT_MONGO_DB }) : undefined;
  const db = owned ? owned.db : (o.mongo as { db: Db }).db;
  try {
    const search = await QdrantMemorySearch.openReadOnly(o.qdrant, { prefix: o.prefix, dimensions: o.dimensions, ...(o.fusion ? { fusion: o.fusion } : {}) });
    return MongoQdrantMemoryStore.openReadOnly({
      db,
      search,
      dimensions: o.dimensions,
      vectors: o.vectors ?? true,
      ...(o.collections ? { collections: o.collections } : {}),
      logger: o.logger,
      ...(owned ? { onClose: () => owned.close() } : {}),
    });
  } catch (err) {
    await owned?.close().catch(() => undefined);
    throw err;
  }
}

/** The settings the production memory store reads: MONGO_URL/MONGO_DB (mongoConfigShape), the QDRANT_* settings and the embedder's. */
export type ProductionMemoryStoreConfig = { MONGO_URL?: string; MONGO_DB: string } & Pick<
  QdrantConfig,
  "QDRANT_URL" | "QDRANT_API_KEY" | "QDRANT_TIMEOUT_MS" | "QDRANT_COLLECTION_PREFIX" | "QDRANT_INDEXED_METADATA_KEYS" | "QDRANT_FUSION"
> &
  EmbedderConfig;

/**
 * The production memory store from configuration: MONGO_URL and MONGO_DB, the
 * QDRANT_* settings, and the embedder settings (dimensions, and whether
 * vectors are kept: only for an embedder with semantics, like the embedded
 * store).
 */
export async function createProductionMemoryStoreFromConfig(
  c: ProductionMemoryStoreConfig,
  logger: Logger,
  /** `mongo`: a connection to share (the process's other MongoDB adapters' one) instead of connecting to MONGO_URL. */
  extra: Partial<Pick<ProductionMemoryStoreOptions, "reconcileIntervalMs" | "mongo">> = {},
): Promise<MongoQdrantMemoryStore> {
  return createProductionMemoryStore({
    ...optionsFromConfig(c, logger, extra.mongo),
    ...(extra.reconcileIntervalMs !== undefined ? { reconcileIntervalMs: extra.reconcileIntervalMs } : {}),
  });
}

/** The production memory store's read side from configuration (see `createProductionMemoryReader`): what recall opens. */
export async function createProductionMemoryReaderFromConfig(
  c: ProductionMemoryStoreConfig,
  logger: Logger,
  extra: Partial<Pick<ProductionMemoryStoreOptions, "mongo">> = {},
): Promise<MemoryReadOnlyStore> {
  return createProductionMemoryReader(optionsFromConfig(c, logger, extra.mongo));
}

function optionsFromConfig(
  c: ProductionMemoryStoreConfig,
  logger: Logger,
  shared: ProductionMemoryStoreOptions["mongo"] | undefined,
): ProductionMemoryStoreOptions {
  const mongo = shared ?? (c.MONGO_URL ? { url: c.MONGO_URL, dbName: c.MONGO_DB } : undefined);
  if (!mongo) throw new Error("MONGO_URL is required for the production memory store");
  const embedder = createMemoryEmbedder(c);
  if (embedder.dimensions <= 0) throw new Error("EMBEDDING_DIMENSIONS is required for the production memory store (the size of its Qdrant vectors)");
  return {
    mongo,
    qdrant: createQdrantClient(c),
    prefix: c.QDRANT_COLLECTION_PREFIX,
    dimensions: embedder.dimensions,
    indexedMetadataKeys: c.QDRANT_INDEXED_METADATA_KEYS,
    fusion: c.QDRANT_FUSION,
    logger,
    vectors: embedder.semantic,
  };
}
