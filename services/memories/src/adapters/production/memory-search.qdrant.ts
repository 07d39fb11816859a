import {
  analyze,
  checkCollection,
  collectionName,
  DENSE_VECTOR,
  documentSparseVector,
  ensureCollection,
  epochMs,
  FILTER_PAYLOAD_KEY,
  MEMORY_SPARSE_PARAMS,
  memoryCollectionSpec,
  metadataFilterPayload,
  pointId,
  type QdrantCollectionOptions,
  QdrantCollectionAdapter,
  type QdrantCondition,
  SPARSE_VECTOR,
  type SparseBm25Params,
  toQdrantFilter,
  translateFilter,
} from "@engram/index";
import type { MemoryRecord, MemorySearchQuery } from "@engram/memory-model";
import type { QdrantClient, Schemas } from "@qdrant/js-client-rest";

/** What the memory search keeps of a memory: the fields searches filter on, its text and its vector. */
export type MemorySearchRecord = Pick<
  MemoryRecord,
  "id" | "tenantId" | "namespace" | "content" | "metadata" | "isStatic" | "isForgotten" | "forgetAfter" | "isLatest" | "createdAt" | "updatedAt"
> & {
  /** Embedding of the content, with the id of the embedder that made it. */
  vector?: Float32Array;
  model?: string;
};

/** The fields of a memory its search keeps (the record store holds the rest). */
export function searchFieldsOf(m: MemoryRecord | MemorySearchRecord): Omit<MemorySearchRecord, "vector" | "model"> {
  return {
    id: m.id,
    tenantId: m.tenantId,
    namespace: m.namespace,
    content: m.content,
    ...(m.metadata !== undefined ? { metadata: m.metadata } : {}),
    isStatic: m.isStatic,
    isForgotten: m.isForgotten,
    isLatest: m.isLatest,
    ...(m.forgetAfter !== undefined ? { forgetAfter: m.forgetAfter } : {}),
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

export interface MemorySearchHit {
  /** The memory's id (its record lives in the memory store). */
  id: string;
  namespace: string;
  /** Ranking score (higher is better; comparable within one query). */
  score: number;
  /** Calibrated relevance in [0, 1] (the embedded store's scale). */
  similarity: number;
  /** Without what it shares from better-ranked results (EngineHit.ownSimilarity). */
  ownSimilarity: number;
  keywordScore: number;
  vectorScore: number;
}

export function memoryPoint(m: MemorySearchRecord, dimensions: number, sparseParams: SparseBm25Params = MEMORY_SPARSE_PARAMS): Schemas["PointStruct"] {
  const terms = analyze(m.content);
  const vector: Record<string, Schemas["Vector"]> = {};
  if (m.vector && m.vector.length > 0 && m.vector.some((x) => x !== 0)) {
    if (m.vector.length !== dimensions)
      throw new Error(`memory ${m.id} has a ${m.vector.length}-dimension vector; the Qdrant collection stores ${dimensions} dimensions`);
    vector[DENSE_VECTOR] = Array.from(m.vector);
  }
  if (terms.length > 0) vector[SPARSE_VECTOR] = documentSparseVector(terms, sparseParams);
  const forgetAfterMs = m.forgetAfter === undefined ? undefined : Date.parse(m.forgetAfter);
  return {
    id: pointId(m.tenantId, m.id),
    vector,
    payload: {
      ...searchFieldsOf(m),
      // A date that does not parse never expires the memory here (the record store still holds it).
      ...(forgetAfterMs !== undefined && Number.isFinite(forgetAfterMs) ? { forgetAfterMs } : {}),
      createdAtMs: epochMs(m.createdAt),
      model: m.model ?? "",
      terms: [...new Set(terms)],
      [FILTER_PAYLOAD_KEY]: metadataFilterPayload(m.metadata),
    },
  };
}

export type QdrantMemorySearchOptions = QdrantCollectionOptions;

/**
 * The search side of the memory store on Qdrant (`<prefix>_memories`): the
 * memories service writes every version it stores here too (`upsert`, again
 * whenever its flags change) and reads records by id from its own store; the
 * answer of `search` is ids with scores and the calibrated similarity.
 * Latest versions only; forgotten and expired ones unless asked; the same
 * fusion and similarity as the chunk index.
 */
export class QdrantMemorySearch extends QdrantCollectionAdapter {
  constructor(o: QdrantMemorySearchOptions) {
    super(o, MEMORY_SPARSE_PARAMS);
  }

  static async open(
    client: QdrantClient,
    o: { prefix: string; dimensions: number; indexedMetadataKeys?: readonly string[] } & Omit<
      QdrantMemorySearchOptions,
      "client" | "collection" | "dimensions"
    >,
  ): Promise<QdrantMemorySearch> {
    const collection = collectionName(o.prefix, "memories");
    await ensureCollection(client, collection, memoryCollectionSpec(o.dimensions, o.indexedMetadataKeys ?? []));
    return new QdrantMemorySearch({ ...o, client, collection });
  }

  /**
   * The search side for a process that only reads (recall): no collection or payload index is created. An existing
   * collection is still checked (its vectors must fit the embedder); a missing one is left to the memories service,
   * which creates it (searches fail until then).
   */
  static async openReadOnly(
    client: QdrantClient,
    o: { prefix: string; dimensions: number } & Omit<QdrantMemorySearchOptions, "client" | "collection" | "dimensions">,
  ): Promise<QdrantMemorySearch> {
    const collection = collectionName(o.prefix, "memories");
    await checkCollection(client, collection, memoryCollectionSpec(o.dimensions));
    return new QdrantMemorySearch({ ...o, client, collection });
  }

  /** Adds or replaces memories (a new version, changed flags, a new vector: the whole point is rewritten). */
  async upsert(records: MemorySearchRecord[]): Promise<void> {
    const points = records.map((m) => memoryPoint(m, this.dimensions, this.sparse));
    for (let i = 0; i < points.length; i += this.upsertBatch)
      await this.client.upsert(this.collection, { points: points.slice(i, i + this.upsertBatch), wait: true });
  }

  /** Removes memories of a tenant by id (unknown ids are ignored). */
  async delete(tenantId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.client.delete(this.collection, { points: ids.map((id) => pointId(tenantId, id)), wait: true });
  }

  /** Moves the tenant's memory points of the source namespaces into the target (a container-tag merge). */
  async moveNamespaces(tenantId: string, sources: string[], target: string): Promise<void> {
    if (sources.length === 0) return;
    await this.client.setPayload(this.collection, { payload: { namespace: target }, filter: toQdrantFilter({ tenantId, namespaces: sources }), wait: true });
  }

  /** Removes every memory point of the tenant (the organisation reset). */
  async deleteTenant(tenantId: string): Promise<void> {
    await this.client.delete(this.collection, { filter: toQdrantFilter({ tenantId }), wait: true });
  }

  async search(q: MemorySearchQuery): Promise<MemorySearchHit[]> {
    if (!q.text.trim()) return [];
    const conditions: QdrantCondition[] = [{ key: "isLatest", match: { value: true } }];
    if (!q.includeForgotten) {
      conditions.push({ key: "isForgotten", match: { value: false } });
      conditions.push({ should: [{ is_empty: { key: "forgetAfterMs" } }, { key: "forgetAfterMs", range: { gt: epochMs(q.now) } }] });
    }
    if (q.isStatic !== undefined) conditions.push({ key: "isStatic", match: { value: q.isStatic } });
    if (q.filter) conditions.push(translateFilter(q.filter));
    const candidates = await this.hybrid.search({
      scope: { tenantId: q.tenantId, namespaces: q.namespaces },
      conditions,
      text: q.text,
      vector: q.vector,
      model: q.model ?? "",
      denseWeight: q.denseWeight ?? 0,
      limit: q.limit,
      payload: ["id", "namespace"],
    });
    return candidates.map((c) => ({
      id: String(c.payload.id),
      namespace: String(c.payload.namespace),
      score: c.score,
      similarity: c.similarity,
      ownSimilarity: c.ownSimilarity,
      keywordScore: c.keywordScore,
      vectorScore: c.vectorScore,
    }));
  }

  /** Number of memories of a tenant the collection holds (every version; diagnostics and tests). */
  async count(tenantId: string): Promise<number> {
    return (await this.client.count(this.collection, { filter: toQdrantFilter({ tenantId }), exact: true })).count;
  }
}
