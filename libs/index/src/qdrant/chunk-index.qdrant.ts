import { randomUUID } from "node:crypto";
import { type JsonObject, raiseUnavailable } from "@engram/kernel";
import { ListingCursors, listingKey } from "@engram/storage";
import type { QdrantClient, Schemas } from "@qdrant/js-client-rest";
import {
  assertGeneration,
  type ChunkHit,
  type ChunkIndex,
  type ChunkSearchQuery,
  type IndexedChunk,
  type ListChunksQuery,
  type ReplaceOutcome,
} from "../chunk-index";
import { parseStoredTerms } from "../engine/analysis";
import { analyze } from "../text";
import {
  assertQdrantVersion,
  checkCollection,
  chunkCollectionSpec,
  collectionName,
  DENSE_VECTOR,
  ensureCollection,
  epochMs,
  pointId,
  QDRANT_MIN_VERSION,
  SPARSE_VECTOR,
} from "./collections";
import {
  FILEPATH_UNKNOWN,
  filepathCondition,
  filepathPayload,
  FILTER_PAYLOAD_KEY,
  metadataFilterPayload,
  type QdrantCondition,
  type QdrantFilter,
  toQdrantFilter,
  translateFilter,
} from "./filter";
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
  "filepath",
] as const;

/** Fields a list reads to order and page chunks before reading the page in full (and to see which write made them). */
const ORDER_FIELDS = ["createdAtMs", "documentId", "position", "writeId"];

/**
 * One write of a document's chunks: the document's processing generation, a
 * stamp ordering writes of the same generation (the later one wins), and an id
 * naming the write's points.
 */
export interface ChunkWrite {
  generation: number;
  stamp: number;
  writeId: string;
}

/** Points a list reads per request while ordering (a bound: ties on one instant are read by id in pages of it too). */
const ORDER_PAGE = 512;

/** A chunk's place in list order (creation time, document id, position). */
interface OrderKey {
  ms: number;
  documentId: string;
  position: number;
}

/** What ordering a list needs of a point. */
interface OrderRow extends OrderKey {
  id: string;
  writeId: unknown;
}

function orderRow(r: Schemas["Record"]): OrderRow {
  const p = (r.payload ?? {}) as Record<string, unknown>;
  return {
    id: String(r.id),
    ms: typeof p.createdAtMs === "number" ? p.createdAtMs : 0,
    documentId: String(p.documentId),
    position: Number(p.position),
    writeId: p[WRITE_ID],
  };
}

/** Reads of a document's chunks while writes of it keep finishing, before the last one's answer is taken as it is. */
const LIST_ATTEMPTS = 5;

/**
 * A delete moves the marker to this write: no point carries its id, so readers show none of the document, and a
 * later write of the generation it covers (or an older one) is refused. Its stamp orders it after every write of
 * that generation.
 */
const DELETED_WRITE = "deleted";
const DELETED_STAMP = Number.MAX_SAFE_INTEGER;

/** Whether the marker refuses a write of `generation`: a newer generation, or a delete that covers it. */
function refuses(m: ChunkWrite | undefined, generation: number): boolean {
  return m !== undefined && (m.generation > generation || (m.writeId === DELETED_WRITE && m.generation >= generation));
}

/** Payload keys of a chunk point naming its write, and of a document's generation marker. */
const GENERATION = "generation";
const STAMP = "stamp";
const WRITE_ID = "writeId";

/**
 * Id of a document's generation marker: one point per (tenant, document), with
 * no vectors and no `tenantId` payload key (its tenant is `markerTenantId`), so
 * no chunk query (every one filters by `tenantId`) can ever match it.
 */
export function generationMarkerId(tenantId: string, documentId: string): string {
  return pointId(tenantId, `\u0000generation\u0000${documentId}`);
}

function markerPoint(tenantId: string, documentId: string, w: ChunkWrite): Schemas["PointStruct"] {
  return {
    id: generationMarkerId(tenantId, documentId),
    vector: {},
    payload: { markerTenantId: tenantId, markerDocumentId: documentId, [GENERATION]: w.generation, [STAMP]: w.stamp, [WRITE_ID]: w.writeId },
  };
}

function markerFromPayload(p: Record<string, unknown> | null | undefined): ChunkWrite | undefined {
  if (!p || typeof p[GENERATION] !== "number" || typeof p[STAMP] !== "number" || typeof p[WRITE_ID] !== "string") return undefined;
  return { generation: p[GENERATION], stamp: p[STAMP], writeId: p[WRITE_ID] };
}

const equals = (key: string, n: number): QdrantCondition => ({ key, range: { gte: n, lte: n } });

/** Points (or a marker) of a write ordered after `w`: a newer generation, or the same one with a later stamp. */
function after(w: Pick<ChunkWrite, "generation" | "stamp">): QdrantCondition {
  return { should: [{ key: GENERATION, range: { gt: w.generation } }, { must: [equals(GENERATION, w.generation), { key: STAMP, range: { gt: w.stamp } }] }] };
}

/** A marker that `w` may replace: one of an older generation, or of the same one with an earlier stamp. */
function before(w: Pick<ChunkWrite, "generation" | "stamp">): QdrantFilter {
  return { should: [{ key: GENERATION, range: { lt: w.generation } }, { must: [equals(GENERATION, w.generation), { key: STAMP, range: { lt: w.stamp } }] }] };
}

/** A stamp above `Date.now()`-based stamps of the same instant (random low digits) and above the stored one of the same generation. */
function nextStamp(current: ChunkWrite | undefined, generation: number): number {
  const now = Date.now() * 1000 + Math.floor(Math.random() * 1000);
  return current && current.generation === generation ? Math.max(now, current.stamp + 1) : now;
}

type Chunk = Omit<IndexedChunk, "vector">;

/** The chunk a stored payload describes (`model` only when one was given; `document.metadata` only when set). */
export function chunkFromPayload(p: Record<string, unknown>): Chunk {
  const doc = { ...(p.document as IndexedChunk["document"]) };
  if (doc.metadata === null || doc.metadata === undefined) delete doc.metadata;
  // The filepath lives in a payload field of its own (`filepathPayload`), which filters read.
  delete doc.filepath;
  if (typeof p.filepath === "string" && p.filepath !== "") doc.filepath = p.filepath;
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

function withoutFilepath(document: IndexedChunk["document"]): Omit<IndexedChunk["document"], "filepath"> {
  const { filepath: _filepath, ...rest } = document;
  return rest;
}

/**
 * A chunk as a Qdrant point: payload = every `IndexedChunk` field but the
 * vector (`model` "" when none), plus `createdAtMs` (list order), `terms` (the
 * distinct stems, for the similarity calibration) and the filter copies of the
 * document metadata (`_filter`) and of the filepath (`filepathPayload`); vectors `dense` (left out when it is zero or
 * empty) and `text` (BM25 term weights of the stems; left out without stems).
 * With `write`, the point belongs to that write: `generation`, `stamp`,
 * `writeId` in the payload, and an id of its own for each write.
 */
export function chunkPoint(
  c: IndexedChunk,
  dimensions: number,
  sparseParams: SparseBm25Params = CHUNK_SPARSE_PARAMS,
  write?: ChunkWrite,
): Schemas["PointStruct"] {
  const terms = c.analyzed !== undefined ? parseStoredTerms(c.analyzed) : analyze(c.content);
  const vector: Record<string, Schemas["Vector"]> = {};
  if (c.vector.length > 0 && c.vector.some((x) => x !== 0)) {
    if (c.vector.length !== dimensions)
      throw new Error(`chunk ${c.id} has a ${c.vector.length}-dimension vector; the Qdrant collection stores ${dimensions} dimensions`);
    vector[DENSE_VECTOR] = Array.from(c.vector);
  }
  if (terms.length > 0) vector[SPARSE_VECTOR] = documentSparseVector(terms, sparseParams);
  return {
    // A write's points are its own (the chunk id and the write's id), so a later write never overwrites the points
    // readers are shown until its marker is set.
    id: pointId(c.tenantId, write ? `${c.id}\u0000${write.writeId}` : c.id),
    vector,
    payload: {
      ...(write ? { [GENERATION]: write.generation, [STAMP]: write.stamp, [WRITE_ID]: write.writeId } : {}),
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
      document: withoutFilepath(c.document),
      createdAt: c.createdAt,
      createdAtMs: epochMs(c.createdAt),
      terms: [...new Set(terms)],
      [FILTER_PAYLOAD_KEY]: metadataFilterPayload(c.document.metadata),
      ...filepathPayload(c.document.filepath),
    },
  };
}

export type QdrantChunkIndexOptions = QdrantCollectionOptions & {
  /** Refuse every write (a reading process: see `QdrantChunkIndex.openReadOnly`). */
  readOnly?: boolean;
};

/**
 * The `ChunkIndex` port on Qdrant: one point per chunk in `<prefix>_chunks`
 * (point id derived from the chunk id), hybrid search through the Query API
 * (see `QdrantHybridSearch`), filters translated to Qdrant filters, deletion
 * and metadata refreshes by filter. Every read is scoped by tenant (and
 * namespace where the port names one) in the Qdrant filter itself.
 */
export class QdrantChunkIndex extends QdrantCollectionAdapter implements ChunkIndex {
  private readonly readOnly: boolean;
  /** Where recent `listChunks` pages ended, and their counts (keyset paging behind the port's offsets). */
  private readonly cursors = new ListingCursors<OrderKey>();

  constructor(o: QdrantChunkIndexOptions) {
    super(o, CHUNK_SPARSE_PARAMS);
    this.readOnly = o.readOnly ?? false;
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
    // Generations rely on conditional updates (`update_filter`, Qdrant 1.16): an older server would ignore them.
    await assertQdrantVersion(client, QDRANT_MIN_VERSION);
    await ensureCollection(client, collection, chunkCollectionSpec(o.dimensions, o.indexedMetadataKeys ?? []));
    // Outages of Qdrant (refused connections, timeouts, 502-504) reach callers as UnavailableError (503).
    return raiseUnavailable(new QdrantChunkIndex({ ...o, client, collection }), "Qdrant");
  }

  /**
   * The index for a process that only reads it (recall): no collection or payload index is created (an existing
   * collection is checked against the embedder's size) and every write is refused, so the process changes nothing
   * in Qdrant; the pipeline worker owns the collection.
   */
  static async openReadOnly(
    client: QdrantClient,
    o: { prefix: string; dimensions: number } & Omit<QdrantChunkIndexOptions, "client" | "collection" | "dimensions">,
  ): Promise<QdrantChunkIndex> {
    const collection = collectionName(o.prefix, "chunks");
    await checkCollection(client, collection, chunkCollectionSpec(o.dimensions));
    return raiseUnavailable(new QdrantChunkIndex({ ...o, client, collection, readOnly: true }), "Qdrant");
  }

  private refuseWrite(what: string): void {
    if (this.readOnly) throw new Error(`the chunk index was opened read-only: ${what} is not allowed here`);
  }

  private async count(filter: QdrantFilter): Promise<number> {
    return (await this.client.count(this.collection, { filter, exact: true })).count;
  }

  /** The document's generation marker (undefined: none yet, or chunks written before generations). */
  private async marker(tenantId: string, documentId: string): Promise<ChunkWrite | undefined> {
    const [r] = await this.client.retrieve(this.collection, { ids: [generationMarkerId(tenantId, documentId)], with_payload: true, with_vector: false });
    return markerFromPayload(r?.payload as Record<string, unknown> | undefined);
  }

  /** The markers of documents of a tenant (documents without one are left out). */
  private async markers(tenantId: string, documentIds: Iterable<string>): Promise<Map<string, ChunkWrite>> {
    const ids = [...new Set(documentIds)];
    const out = new Map<string, ChunkWrite>();
    if (ids.length === 0) return out;
    const records = await this.client.retrieve(this.collection, {
      ids: ids.map((d) => generationMarkerId(tenantId, d)),
      with_payload: true,
      with_vector: false,
    });
    for (const r of records) {
      const p = (r.payload ?? {}) as Record<string, unknown>;
      const m = markerFromPayload(p);
      if (m && p.markerTenantId === tenantId && typeof p.markerDocumentId === "string") out.set(p.markerDocumentId, m);
    }
    return out;
  }

  /**
   * Whether readers are shown a chunk point: the one write its document's marker names (a document without a marker
   * was written before generations: all its points). Points of an older write awaiting deletion, of a newer write
   * still in progress, or left by a writer that died are not shown.
   */
  private static visible(payload: Record<string, unknown>, markers: Map<string, ChunkWrite>): boolean {
    const m = markers.get(String(payload.documentId));
    return m === undefined || payload[WRITE_ID] === m.writeId;
  }

  /**
   * Qdrant has no transactions, so a replace is ordered so that every step is safe on its own:
   * 1. the marker is read; a write of an older generation stops here (`stale`);
   * 2. the new points are upserted under ids of their own, tagged with the write (readers do not show them yet);
   * 3. the marker is moved to this write by a conditional upsert (`update_filter`: only over a marker of an older
   *    generation, or of the same generation with an earlier stamp), the one step readers switch on: from here on
   *    they show this write's points (complete since step 2);
   * 4. the marker is read again, and every point of the document that is neither of the marker's write nor of a
   *    newer one is deleted (older generations; this write's points too when a newer write won meanwhile).
   * Two writers race safely: the marker only moves forward in (generation, stamp) order, and a point is deleted only
   * when a marker at or after it names another write. What Qdrant cannot make atomic: a writer dying between 2 and 4
   * leaves points readers never show (cleaned by the document's next write), and `listChunks` counts them meanwhile.
   */
  async replaceDocumentChunks(tenantId: string, namespace: string, documentId: string, chunks: IndexedChunk[], generation: number): Promise<ReplaceOutcome> {
    this.refuseWrite("replaceDocumentChunks");
    assertGeneration(generation);
    for (const c of chunks)
      if (c.tenantId !== tenantId || c.namespace !== namespace || c.documentId !== documentId) throw new Error("chunk scope does not match its document");
    const current = await this.marker(tenantId, documentId);
    if (refuses(current, generation)) return "stale";
    const write: ChunkWrite = { generation, stamp: nextStamp(current, generation), writeId: randomUUID() };
    const points = chunks.map((c) => chunkPoint(c, this.dimensions, this.sparse, write));
    for (let i = 0; i < points.length; i += this.upsertBatch)
      await this.client.upsert(this.collection, { points: points.slice(i, i + this.upsertBatch), wait: true });
    await this.client.upsert(this.collection, { points: [markerPoint(tenantId, documentId, write)], update_filter: before(write), wait: true });
    const winner = (await this.marker(tenantId, documentId)) ?? write;
    // Every namespace of the tenant: a document re-indexed elsewhere leaves nothing behind.
    const obsolete: QdrantFilter = {
      must: [...(toQdrantFilter({ tenantId, documentId }).must as QdrantCondition[])],
      must_not: [{ key: WRITE_ID, match: { value: winner.writeId } }, after(winner)],
    };
    await this.client.delete(this.collection, { filter: obsolete, wait: true });
    return winner.writeId === write.writeId || (winner.generation === generation && winner.writeId !== DELETED_WRITE) ? "written" : "stale";
  }

  /**
   * The delete, ordered like a replace: the marker moves to a deletion write (conditional upsert: not over a newer
   * generation), from which point readers show nothing of the document and a late write it covers is refused; then
   * the points that are not of a newer write are deleted.
   */
  async deleteDocument(tenantId: string, namespace: string, documentId: string, generation?: number): Promise<number> {
    this.refuseWrite("deleteDocument");
    const filter = toQdrantFilter({ tenantId, namespaces: [namespace], documentId });
    const n = await this.count(filter);
    // Not this namespace's document (it lives elsewhere in the tenant): nothing to delete, nothing to refuse.
    if (n === 0 && (await this.count(toQdrantFilter({ tenantId, documentId }))) > 0) return 0;
    const deletion: ChunkWrite = {
      generation: generation && generation > 0 ? generation : Number.MAX_SAFE_INTEGER,
      stamp: DELETED_STAMP,
      writeId: DELETED_WRITE,
    };
    await this.client.upsert(this.collection, { points: [markerPoint(tenantId, documentId, deletion)], update_filter: before(deletion), wait: true });
    const winner = (await this.marker(tenantId, documentId)) ?? deletion;
    const obsolete: QdrantFilter = {
      must: [...(filter.must as QdrantCondition[])],
      must_not: [{ key: WRITE_ID, match: { value: winner.writeId } }, after(winner)],
    };
    const gone = await this.count(obsolete);
    if (gone > 0) await this.client.delete(this.collection, { filter: obsolete, wait: true });
    return gone;
  }

  async updateDocumentMetadata(
    tenantId: string,
    documentId: string,
    metadata: JsonObject | undefined,
    updatedAt: string,
    fields?: { filepath: string | undefined },
  ): Promise<number> {
    this.refuseWrite("updateDocumentMetadata");
    const filter = toQdrantFilter({ tenantId, documentId });
    const n = await this.count(filter);
    if (n === 0) return 0;
    await this.client.batchUpdate(this.collection, {
      operations: [
        // Inside `document`: metadata replaced (null removes it), updatedAt set; the other document fields stay.
        { set_payload: { key: "document", payload: { metadata: metadata ?? null, updatedAt }, filter } },
        {
          set_payload: {
            payload: { [FILTER_PAYLOAD_KEY]: metadataFilterPayload(metadata), ...(fields ? filepathPayload(fields.filepath) : {}) },
            filter,
          },
        },
      ],
      wait: true,
    });
    return n;
  }

  /** Chunk points (never markers: they have no `tenantId`) whose filepath is not known yet. */
  private static readonly WITHOUT_FILEPATH: QdrantFilter = { must: [FILEPATH_UNKNOWN], must_not: [{ is_empty: { key: "tenantId" } }] };

  async documentsWithoutFilepath(limit: number): Promise<{ tenantId: string; documentId: string }[]> {
    const n = Math.max(0, Math.floor(limit));
    const out = new Map<string, { tenantId: string; documentId: string }>();
    let offset: Schemas["ExtendedPointId"] | undefined;
    while (out.size < n) {
      const page = await this.client.scroll(this.collection, {
        filter: QdrantChunkIndex.WITHOUT_FILEPATH,
        limit: 256,
        with_payload: ["tenantId", "documentId"],
        with_vector: false,
        ...(offset !== undefined ? { offset } : {}),
      });
      for (const r of page.points) {
        const p = (r.payload ?? {}) as Record<string, unknown>;
        const key = `${String(p.tenantId)}\u0000${String(p.documentId)}`;
        if (out.size < n && !out.has(key)) out.set(key, { tenantId: String(p.tenantId), documentId: String(p.documentId) });
      }
      const next = page.next_page_offset;
      if (next === null || next === undefined || typeof next === "object") break;
      offset = next;
    }
    return [...out.values()];
  }

  /**
   * One conditional update: Qdrant applies the filter (filepath not known) when it writes, so points that a write or
   * an update gave a filepath meanwhile keep theirs.
   */
  async backfillFilepath(tenantId: string, documentId: string, filepath: string | undefined): Promise<number> {
    this.refuseWrite("backfillFilepath");
    const filter = toQdrantFilter({ tenantId, documentId }, undefined, [FILEPATH_UNKNOWN]);
    const n = await this.count(filter);
    if (n === 0) return 0;
    await this.client.batchUpdate(this.collection, {
      operations: [
        // One operation: the filepath fields and the mark that they are known, together.
        { set_payload: { payload: filepathPayload(filepath), filter } },
      ],
      wait: true,
    });
    return n;
  }

  async search(q: ChunkSearchQuery): Promise<ChunkHit[]> {
    const scope = { tenantId: q.tenantId, namespaces: q.namespaces, documentId: q.documentId };
    const candidates = await this.hybrid.search({
      scope,
      // Inside the search, ahead of top-k: a filtered page is as full as an unfiltered one.
      conditions: [...(q.filter ? [translateFilter(q.filter)] : []), ...(q.filepath ? [filepathCondition(q.filepath)] : [])],
      text: q.text,
      vector: q.vector,
      model: q.model ?? "",
      denseWeight: q.denseWeight ?? 0.5,
      limit: q.limit,
      payload: q.group || q.minSimilarity !== undefined ? ["documentId", WRITE_ID] : [...CHUNK_FIELDS, WRITE_ID],
    });
    // Each document's points of one write only (see `visible`): one request for the markers of the documents ranked.
    const markers = await this.markers(
      q.tenantId,
      candidates.map((c) => String(c.payload.documentId)),
    );
    const kept = selectHits(
      candidates.filter((c) => QdrantChunkIndex.visible(c.payload, markers)),
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

  /**
   * The document's points of the write its marker names. A scroll is not a snapshot, so the marker is read before
   * and after it: when both name the same write, no delete of that write's points can have started (one starts only
   * once the marker moved past it) and the scroll saw all of them (they were complete before the marker named them).
   * Otherwise a write finished meanwhile: read again.
   */
  async listDocumentChunks(tenantId: string, namespace: string, documentId: string): Promise<Chunk[]> {
    const filter = toQdrantFilter({ tenantId, namespaces: [namespace], documentId });
    let before = await this.markers(tenantId, [documentId]);
    for (let attempt = 1; ; attempt++) {
      const records = await this.scrollAll(filter, [...CHUNK_FIELDS, WRITE_ID]);
      const after = await this.markers(tenantId, [documentId]);
      if (before.get(documentId)?.writeId === after.get(documentId)?.writeId || attempt === LIST_ATTEMPTS)
        return records
          .map((r) => (r.payload ?? {}) as Record<string, unknown>)
          .filter((p) => QdrantChunkIndex.visible(p, after))
          .map(chunkFromPayload)
          .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
      before = after;
    }
  }

  async listChunks(q: ListChunksQuery): Promise<{ items: Chunk[]; total: number }> {
    const filter = toQdrantFilter({ tenantId: q.tenantId, namespaces: [q.namespace] }, q.filter);
    const offset = Math.max(0, Math.floor(q.offset));
    const limit = Math.max(0, Math.floor(q.limit));
    // Keyset paging (see ListingCursors): a page that follows one read recently starts after that page's last chunk,
    // and reports the count its listing's first page took; any other page counts, and reads from the start.
    const listing = listingKey([q.tenantId, q.namespace, q.filter ?? null, q.order, limit]);
    const from = this.cursors.position(listing, offset);
    const skip = from ? 0 : offset;
    const cached = this.cursors.total(listing, offset);
    const [total, ordered] = await Promise.all([
      cached ?? this.count(filter),
      limit > 0 ? this.firstInOrder(filter, q.order, skip + limit, from) : Promise.resolve([]),
    ]);
    if (cached === undefined) this.cursors.rememberTotal(listing, total);
    // Points of writes readers are not shown (see `visible`) leave the page; `total` still counts them while they last.
    const markers = await this.markers(
      q.tenantId,
      ordered.map((p) => p.documentId),
    );
    const page = ordered.filter((p) => QdrantChunkIndex.visible({ documentId: p.documentId, [WRITE_ID]: p.writeId }, markers)).slice(skip, skip + limit);
    if (page.length === limit && limit > 0) {
      const last = page[page.length - 1]!;
      this.cursors.rememberPosition(listing, offset + limit, { ms: last.ms, documentId: last.documentId, position: last.position });
    }
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
   * document id, then position; all reversed for `desc`). Qdrant orders a
   * scroll by one field (`createdAtMs`, integer index), so the points are read
   * in pages of at most `ORDER_PAGE` in that order, each page starting strictly
   * after the creation time the previous one ended on (a range condition: no
   * point is read twice). The points sharing that last creation time (a tie the
   * page may have cut) are read whole first, by an id-ordered scroll of that
   * instant in pages of the same bound, and ordered here by document and
   * position: ties cost pages of a fixed size, never a growing one. With
   * `from`, the walk starts at its instant and keeps only what comes after it.
   */
  private async firstInOrder(filter: QdrantFilter, order: "asc" | "desc", need: number, from?: OrderKey): Promise<OrderRow[]> {
    const out: OrderRow[] = [];
    const dir = order === "desc" ? -1 : 1;
    const byTie = (a: OrderKey, b: OrderKey) => dir * ((a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : 0) || a.position - b.position);
    const keep = from ? (r: OrderRow) => dir * (r.ms - from.ms) > 0 || (r.ms === from.ms && byTie(r, from) > 0) : () => true;
    let after: number | undefined;
    while (out.length < need) {
      const range =
        after !== undefined
          ? [{ key: "createdAtMs", range: order === "desc" ? { lt: after } : { gt: after } }]
          : from
            ? [{ key: "createdAtMs", range: order === "desc" ? { lte: from.ms } : { gte: from.ms } }]
            : [];
      const res = await this.client.scroll(this.collection, {
        filter: { must: [filter, ...range] },
        limit: ORDER_PAGE,
        with_payload: ORDER_FIELDS,
        with_vector: false,
        order_by: { key: "createdAtMs", direction: order },
      });
      const rows = res.points.map(orderRow);
      if (rows.length === 0) break;
      const lastMs = rows[rows.length - 1]!.ms;
      // Every instant before the last one is complete in this page; the last one is read whole.
      const complete = rows.filter((r) => r.ms !== lastMs);
      const tie = rows.length < ORDER_PAGE ? rows.filter((r) => r.ms === lastMs) : await this.instant(filter, lastMs);
      let run: OrderRow[] = [];
      for (const r of [...complete, ...tie]) {
        if (run.length && run[0]!.ms !== r.ms) {
          out.push(...run.sort(byTie).filter(keep));
          run = [];
        }
        run.push(r);
      }
      out.push(...run.sort(byTie).filter(keep));
      if (rows.length < ORDER_PAGE) break;
      after = lastMs;
    }
    return out;
  }

  /** Every point of a filter created at one instant (id order, pages of `ORDER_PAGE`). */
  private async instant(filter: QdrantFilter, ms: number): Promise<OrderRow[]> {
    const out: OrderRow[] = [];
    let offset: Schemas["ExtendedPointId"] | undefined;
    for (;;) {
      const page = await this.client.scroll(this.collection, {
        filter: { must: [filter, { key: "createdAtMs", range: { gte: ms, lte: ms } }] },
        limit: ORDER_PAGE,
        with_payload: ORDER_FIELDS,
        with_vector: false,
        ...(offset !== undefined ? { offset } : {}),
      });
      out.push(...page.points.map(orderRow));
      const next = page.next_page_offset;
      if (next === null || next === undefined || typeof next === "object") return out;
      offset = next;
    }
  }

  async close(): Promise<void> {
    // The client belongs to the caller (it may serve the memory search too); nothing to release here.
  }
}
