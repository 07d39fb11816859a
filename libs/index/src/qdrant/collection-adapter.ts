import type { QdrantClient } from "@qdrant/js-client-rest";
import { type QdrantFusion, QdrantHybridSearch } from "./hybrid";
import type { SparseBm25Params } from "./sparse";

/** What an adapter over one of Engram's Qdrant collections is built from. */
export interface QdrantCollectionOptions {
  client: QdrantClient;
  /** The collection (`<prefix>_chunks` or `<prefix>_memories`), prepared by `ensureQdrantCollections` or the adapter's `open`. */
  collection: string;
  /** Size of the collection's dense vectors (the embedder's dimensions). */
  dimensions: number;
  /** Fusion of the keyword and dense rankings (default `weighted`, the engine's rule). */
  fusion?: QdrantFusion;
  /** BM25 parameters of the stored sparse vectors (fixed per collection; each kind has its default). */
  sparse?: SparseBm25Params;
  /** Points per upsert request (default 256). */
  upsertBatch?: number;
}

/** The parts the chunk index and the memory search share: client, collection, vector settings, batching, hybrid search. */
export abstract class QdrantCollectionAdapter {
  protected readonly client: QdrantClient;
  readonly collection: string;
  protected readonly dimensions: number;
  protected readonly sparse: SparseBm25Params;
  protected readonly upsertBatch: number;
  protected readonly hybrid: QdrantHybridSearch;

  protected constructor(o: QdrantCollectionOptions, defaultSparse: SparseBm25Params) {
    this.client = o.client;
    this.collection = o.collection;
    this.dimensions = o.dimensions;
    this.sparse = o.sparse ?? defaultSparse;
    this.upsertBatch = Math.max(1, o.upsertBatch ?? 256);
    this.hybrid = new QdrantHybridSearch(o.client, o.collection, o.dimensions, o.fusion ?? "weighted");
  }
}
