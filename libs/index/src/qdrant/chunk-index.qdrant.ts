import type { JsonObject } from "@engram/kernel";
import type { QdrantClient, Schemas } from "@qdrant/js-client-rest";
import type { ChunkHit, ChunkIndex, ChunkSearchQuery, IndexedChunk, ListChunksQuery } from "../chunk-index";
import { parseStoredTerms } from "../engine/analysis";
import { analyze } from "../text";
import { chunkCollectionSpec, collectionName, DENSE_VECTOR, ensureCollection, epochMs, pointId, SPARSE_VECTOR } from "./collections";
import { FILTER_PAYLOAD_KEY, metadataFilterPayload, type QdrantFilter, toQdrantFilter, translateFilter } from "./filter";
import { type QdrantCollectionOptions, QdrantCollectionAdapter } from "./collection-adapter";
import { selectHits } from "./ranking";
import { CHUNK_SPARSE_PARAMS, documentSparseVector, type SparseBm25Params } from "./sparse";

/** Payload fields of a chunk as the port returns it (every `IndexedChunk` field but the vector). */
const CHUNK_FIELDS = [
  "id",
  "tenantId",
  "namespace",
  "documentId",
  "position",
  "content",
  "startOffset",
  "endOffset",
  "tokenCount",
  "model",
  "document",
  "createdAt",
] as const;

/** Fields a list reads to order and page chunks before reading the page in full. */
const ORDER_FIELDS = ["createdAtMs", "documentId", "position"];

type Chunk = Omit<IndexedChunk, "vector">;

/** The chunk a stored payload describes (`model` only when one was given; `document.metadata` only when set). */
export function chunkFromPayload(p: Record<string, unknown>): Chunk {
  const doc = { ...(p.document as IndexedChunk["document"]) };
  if (doc.metadata === null || doc.metadata === undefined) delete doc.metadata;
  const chunk: Chunk = {
    id: p.id as string,
    tenantId: p.tenantId as string,
    namespace: p.namespace as string,
    documentId: p.documentId as string,
    position: p.position as number,
    content: p.content as string,
    startOffset: p.startOffset as number,
    endOffset: p.endOffset as number,
    tokenCount: p.tokenCount as number,
    document: doc,
    createdAt: p.createdAt as string,
  };
  if (typeof p.model === "string" && p.model !== "") chunk.model = p.model;
  return chunk;
}

/**
 * A chunk as a Qdrant point: payload = every `IndexedChunk` field but the
 * vector (`model` "" when none), plus `createdAtMs` (list order), `terms` (the
 * distinct stems, for the similarity calibration) and the filter copies of the
 * document metadata (`_filter`); vectors `dense` (left out when it is zero or
 * empty) and `text` (BM25 term weights of the stems; left out without stems).
 */
export function chunkPoint(c: IndexedChunk, dimensions: number, sparseParams: SparseBm25Params = CHUNK_SPARSE_PARAMS): Schemas["PointStruct"] {
  const terms = c.analyzed !== undefined ? parseStoredTerms(c.analyzed) : analyze(c.content);
  const vector: Record<string, Schemas["Vector"]> = {};
  if (c.vector.length > 0 && c.vector.some((x) => x !== 0)) {
    if (c.vector.length !== dimensions)
      throw new Error(`chunk ${c.id} has a ${c.vector.length}-dimension vector; the Qdrant collection stores ${dimensions} dimensions`);
    vector[DENSE_VECTOR] = Array.from(c.vector);
  }
  if (terms.length > 0) vector[SPARSE_VECTOR] = documentSparseVector(terms, sparseParams);
  return {
    id: pointId(c.tenantId, c.id),
    vector,
    payload: {
      id: c.id,
      tenantId: c.tenantId,
      namespace: c.namespace,
      documentId: c.documentId,
      position: c.position,
      content: c.content,
      startOffset: c.startOffset,
      endOffset: c.endOffset,
      tokenCount: c.tokenCount,
      model: c.model ?? "",
      document: c.document,
      createdAt: c.createdAt,
      createdAtMs: epochMs(c.createdAt),
      terms: [...new Set(terms)],
      [FILTER_PAYLOAD_KEY]: metadataFilterPayload(c.document.metadata),
    },
  };
}

export type QdrantChunkIndexOptions = QdrantCollectionOptions;

/**
 * The `ChunkIndex` port on Qdrant: one point per chunk in `<prefix>_chunks`
 * (point id derived from the chunk id), hybrid search through the Query API
 * (see `QdrantHybridSearch`), filters translated to Qdrant filters, deletion
 * and metadata refreshes by filter. Every read is scoped by tenant (and
 * namespace where the port names one) in the Qdrant filter itself.
 */
export class QdrantChunkIndex extends QdrantCollectionAdapter implements ChunkIndex {
  constructor(o: QdrantChunkIndexOptions) {
    super(o, CHUNK_SPARSE_PARAMS);
  }

  /**
   * Prepares `<prefix>_chunks` (creation or migration, see `ensureCollection`)
   * and returns the index on it.
   */
  static async open(
    client: QdrantClient,
    o: { prefix: string; dimensions: number; indexedMetadataKeys?: readonly string[] } & Omit<QdrantChunkIndexOptions, "client" | "collection" | "dimensions">,
  ): Promise<QdrantChunkIndex> {
    const collection = collectionName(o.prefix, "chunks");
    await ensureCollection(client, collection, chunkCollectionSpec(o.dimensions, o.indexedMetadataKeys ?? []));
    return new QdrantChunkIndex({ ...o, client, collection });
  }

  private async count(filter: QdrantFilter): Promise<number> {
    return (await this.client.count(this.collection, { filter, exact: true })).count;
  }

  async replaceDocumentChunks(tenantId: string, namespace: string, documentId: string, chunks: IndexedChunk[]): Promise<void> {
    for (const c of chunks)
      if (c.tenantId !== tenantId || c.namespace !== namespace || c.documentId !== documentId) throw new Error("chunk scope does not match its document");
    const points = chunks.map((c) => chunkPoint(c, this.dimensions, this.sparse));
    // Every namespace of the tenant: a document re-indexed elsewhere leaves nothing behind.
    const gone: Schemas["UpdateOperation"] = { delete: { filter: toQdrantFilter({ tenantId, documentId }) } };
    const batches: Schemas["PointStruct"][][] = [];
    for (let i = 0; i < points.length; i += this.upsertBatch) batches.push(points.slice(i, i + this.upsertBatch));
    const first = batches.shift();
    await this.client.batchUpdate(this.collection, { operations: first ? [gone, { upsert: { points: first } }] : [gone], wait: true });
    for (const batch of batches) await this.client.upsert(this.collection, { points: batch, wait: true });
  }

  async deleteDocument(tenantId: string, namespace: string, documentId: string): Promise<number> {
    const filter = toQdrantFilter({ tenantId, namespaces: [namespace], documentId });
    const n = await this.count(filter);
    if (n > 0) await this.client.delete(this.collection, { filter, wait: true });
    return n;
  }

  async updateDocumentMetadata(tenantId: string, documentId: string, metadata: JsonObject | undefined, updatedAt: string): Promise<number> {
    const filter = toQdrantFilter({ tenantId, documentId });
    const n = await this.count(filter);
    if (n === 0) return 0;
    await this.client.batchUpdate(this.collection, {
      operations: [
        // Inside `document`: metadata replaced (null removes it), updatedAt set; the other document fields stay.
        { set_payload: { key: "document", payload: { metadata: metadata ?? null, updatedAt }, filter } },
        { set_payload: { payload: { [FILTER_PAYLOAD_KEY]: metadataFilterPayload(metadata) }, filter } },
      ],
      wait: true,
    });
    return n;
  }

  async search(q: ChunkSearchQuery): Promise<ChunkHit[]> {
    const scope = { tenantId: q.tenantId, namespaces: q.namespaces, documentId: q.documentId };
    const candidates = await this.hybrid.search({
      scope,
      conditions: q.filter ? [translateFilter(q.filter)] : [],
      text: q.text,
      vector: q.vector,
      model: q.model ?? "",
      denseWeight: q.denseWeight ?? 0.5,
      limit: q.limit,
      payload: q.group || q.minSimilarity !== undefined ? ["documentId"] : [...CHUNK_FIELDS],
    });
    const kept = selectHits(
      candidates,
      (c) => c.similarity,
      (c) => String(c.payload.documentId),
      q.minSimilarity,
      q.group,
    );
    // Grouped or thresholded: only the kept chunks are read in full.
    let full = new Map(kept.map((c) => [c.pointId, c.payload]));
    if (q.group || q.minSimilarity !== undefined) {
      full = new Map();
      if (kept.length) {
        const records = await this.client.retrieve(this.collection, { ids: kept.map((c) => c.pointId), with_payload: [...CHUNK_FIELDS], with_vector: false });
        for (const r of records) full.set(String(r.id), (r.payload ?? {}) as Record<string, unknown>);
      }
    }
    return kept.flatMap((c) => {
      const p = full.get(c.pointId);
      if (!p) return [];
      return [{ chunk: chunkFromPayload(p), score: c.score, similarity: c.similarity, keywordScore: c.keywordScore, vectorScore: c.vectorScore }];
    });
  }

  /** Every point of a filter (scroll in pages), with the payload fields asked for. */
  private async scrollAll(filter: QdrantFilter, fields: readonly string[]): Promise<Schemas["Record"][]> {
    const out: Schemas["Record"][] = [];
    let offset: Schemas["ExtendedPointId"] | undefined;
    for (;;) {
      const page = await this.client.scroll(this.collection, {
        filter,
        limit: 512,
        with_payload: [...fields],
        with_vector: false,
        ...(offset !== undefined ? { offset } : {}),
      });
      out.push(...page.points);
      const next = page.next_page_offset;
      if (next === null || next === undefined || typeof next === "object") return out;
      offset = next;
    }
  }

  async listDocumentChunks(tenantId: string, namespace: string, documentId: string): Promise<Chunk[]> {
    const records = await this.scrollAll(toQdrantFilter({ tenantId, namespaces: [namespace], documentId }), CHUNK_FIELDS);
    return records.map((r) => chunkFromPayload((r.payload ?? {}) as Record<string, unknown>)).sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
  }

  async listChunks(q: ListChunksQuery): Promise<{ items: Chunk[]; total: number }> {
    const filter = toQdrantFilter({ tenantId: q.tenantId, namespaces: [q.namespace] }, q.filter);
    const offset = Math.max(0, Math.floor(q.offset));
    const limit = Math.max(0, Math.floor(q.limit));
    const [total, ordered] = await Promise.all([this.count(filter), limit > 0 ? this.firstInOrder(filter, q.order, offset + limit) : Promise.resolve([])]);
    const page = ordered.slice(offset, offset + limit);
    if (page.length === 0) return { items: [], total };
    const records = await this.client.retrieve(this.collection, { ids: page.map((p) => p.id), with_payload: [...CHUNK_FIELDS], with_vector: false });
    const byId = new Map(records.map((r) => [String(r.id), r]));
    const items = page.flatMap((p) => {
      const r = byId.get(p.id);
      return r ? [chunkFromPayload((r.payload ?? {}) as Record<string, unknown>)] : [];
    });
    return { items, total };
  }

  /**
   * The first `need` points of a filter in list order (creation time, then
   * document id, then position; all reversed for `desc`): Qdrant orders a
   * scroll by one field (`createdAtMs`, integer index), so the points are read
   * in that order until `need` are in hand and the creation time has moved past
   * the last one needed (ties are then ordered here). `start_from` is
   * inclusive: points already seen are skipped, and a page holding nothing new
   * (one instant shared by more points than a page) doubles the page.
   */
  private async firstInOrder(
    filter: QdrantFilter,
    order: "asc" | "desc",
    need: number,
  ): Promise<{ id: string; ms: number; documentId: string; position: number }[]> {
    const seen = new Map<string, { id: string; ms: number; documentId: string; position: number }>();
    const inOrder: number[] = [];
    let startFrom: number | undefined;
    let pageSize = Math.min(Math.max(need, 64), 1024);
    for (;;) {
      const res = await this.client.scroll(this.collection, {
        filter,
        limit: pageSize,
        with_payload: ORDER_FIELDS,
        with_vector: false,
        order_by: { key: "createdAtMs", direction: order, ...(startFrom !== undefined ? { start_from: startFrom } : {}) },
      });
      let fresh = 0;
      for (const r of res.points) {
        const id = String(r.id);
        if (seen.has(id)) continue;
        const p = (r.payload ?? {}) as Record<string, unknown>;
        const ms = typeof p.createdAtMs === "number" ? p.createdAtMs : 0;
        seen.set(id, { id, ms, documentId: String(p.documentId), position: Number(p.position) });
        inOrder.push(ms);
        fresh++;
      }
      const exhausted = res.points.length < pageSize;
      const last = res.points.length ? ((res.points[res.points.length - 1]!.payload ?? {}) as Record<string, unknown>).createdAtMs : undefined;
      const lastMs = typeof last === "number" ? last : 0;
      // Enough once the creation time read last differs from the one of the last point needed.
      if (exhausted || (seen.size >= need && lastMs !== inOrder[need - 1])) break;
      if (fresh === 0) pageSize *= 2;
      startFrom = lastMs;
    }
    const dir = order === "desc" ? -1 : 1;
    return [...seen.values()].sort(
      (a, b) => dir * (a.ms - b.ms || (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : 0) || a.position - b.position),
    );
  }

  async close(): Promise<void> {
    // The client belongs to the caller (it may serve the memory search too); nothing to release here.
  }
}
