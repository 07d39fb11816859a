import { type MetadataEntry, metadataEntries, metadataFromEntries } from "@engram/filters";
import { Binary } from "@engram/storage/mongo";
import { contentKey, type MemoryRecord, type MemoryRelationKind } from "../../domain/memory";
import { type MemorySearchRecord, searchFieldsOf } from "./memory-search.qdrant";

/**
 * A memory version as stored in the `memories` collection of the production
 * memory store (one document per version; `_id` is the memory id). Field
 * names follow the record. What is added:
 *
 * - `contentKey`: the normalised content (`contentKey` of the domain), for
 *   exact-content lookups;
 * - `meta`: the metadata as entries (`metadataEntries` of @engram/filters),
 *   the form `filterToMongo` queries; any key is safe there;
 * - `relations` as an array of `{ id, kind }` (memory ids are never used as
 *   field names) and `sourceDocumentIds`, the distinct document ids of
 *   `sources` (multikey index for `findByDocument`);
 * - `vector` (BSON Binary, float32 vector subtype) and `model`: the
 *   embedding, so the Qdrant collection can always be rebuilt from MongoDB;
 * - `chainRoot`: the id of the version chain's root (`rootMemoryId`, or the
 *   memory's own id for a first version), the key of the unique index of one
 *   latest version per chain;
 * - `rev`: the id of the write that stored this version of the document,
 *   `indexed`: whether Qdrant holds this `rev` (set false by every write, set
 *   true only by a mirror of the same `rev`), `indexedAt`: when it was
 *   mirrored; `lockRev`: the last write that only checked this memory
 *   (`MemoryWrite.expect`) without rewriting it;
 * - `nsVersion`: the namespace's change counter this version was written at
 *   (its guard's `version`; `changesSince` reads the memories above one).
 *
 * Times are the record's ISO-8601 strings: they sort in time order, exactly
 * as the embedded store compares them.
 */
export type MemoryDoc = Omit<MemoryRecord, "id" | "metadata" | "relations"> & {
  _id: string;
  contentKey: string;
  meta?: MetadataEntry[];
  relations: { id: string; kind: MemoryRelationKind }[];
  sourceDocumentIds: string[];
  /** Absent only on documents written before it existed (backfilled at start-up; see MongoQdrantMemoryStore.open). */
  chainRoot?: string;
  vector?: Binary;
  model?: string;
  rev: string;
  indexed: boolean;
  indexedAt?: string;
  lockRev?: string;
  /** Absent on documents written before it existed and on documents moved from another namespace. */
  nsVersion?: number;
};

/** Drops undefined fields, so nothing depends on the client's ignoreUndefined setting. */
function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/** A float32 embedding as BSON Binary (vector subtype 9, float32 elements, little-endian). */
export function encodeVector(v: Float32Array): Binary {
  return Binary.fromFloat32Array(v);
}

export function decodeVector(b: Binary): Float32Array {
  return b.toFloat32Array();
}

/** The stored embedding of a memory, as written by `toMemoryDoc`. */
export interface StoredVector {
  vector: Binary;
  model: string;
}

/**
 * The document of a record as written by one write (`rev`), not yet mirrored
 * to Qdrant (`indexed: false`), with its embedding when it has one.
 */
export function toMemoryDoc(m: MemoryRecord, rev: string, vector?: StoredVector): MemoryDoc {
  return compact<MemoryDoc>({
    _id: m.id,
    tenantId: m.tenantId,
    namespace: m.namespace,
    content: m.content,
    contentKey: contentKey(m.content),
    meta: m.metadata === undefined ? undefined : metadataEntries(m.metadata),
    isStatic: m.isStatic,
    isForgotten: m.isForgotten,
    forgottenAt: m.forgottenAt,
    forgetAfter: m.forgetAfter,
    forgetReason: m.forgetReason,
    forgetBatchId: m.forgetBatchId,
    temporalContext: m.temporalContext ? compact({ ...m.temporalContext }) : undefined,
    version: m.version,
    isLatest: m.isLatest,
    parentMemoryId: m.parentMemoryId,
    rootMemoryId: m.rootMemoryId,
    relation: m.relation,
    relations: Object.entries(m.relations).map(([id, kind]) => ({ id, kind })),
    sources: m.sources.map((s) => ({ documentId: s.documentId, chunkPositions: [...s.chunkPositions] })),
    sourceDocumentIds: [...new Set(m.sources.map((s) => s.documentId))],
    chainRoot: m.rootMemoryId ?? m.id,
    isInference: m.isInference,
    bucketKeys: [...m.bucketKeys],
    filepath: m.filepath,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    vector: vector?.vector,
    model: vector?.model,
    rev,
    indexed: false,
  });
}

export function fromMemoryDoc(d: MemoryDoc): MemoryRecord {
  const metadata = d.meta ? metadataFromEntries(d.meta) : undefined;
  const t = opt(d.temporalContext);
  return {
    id: d._id,
    tenantId: d.tenantId,
    namespace: d.namespace,
    content: d.content,
    ...(metadata !== undefined ? { metadata } : {}),
    isStatic: d.isStatic,
    isForgotten: d.isForgotten,
    ...(opt(d.forgottenAt) !== undefined ? { forgottenAt: d.forgottenAt } : {}),
    ...(opt(d.forgetAfter) !== undefined ? { forgetAfter: d.forgetAfter } : {}),
    ...(opt(d.forgetReason) !== undefined ? { forgetReason: d.forgetReason } : {}),
    ...(opt(d.forgetBatchId) !== undefined ? { forgetBatchId: d.forgetBatchId } : {}),
    ...(t
      ? {
          temporalContext: {
            ...(opt(t.documentDate) !== undefined ? { documentDate: t.documentDate } : {}),
            ...(opt(t.eventDates) !== undefined ? { eventDates: [...t.eventDates!] } : {}),
          },
        }
      : {}),
    version: Number(d.version),
    isLatest: d.isLatest,
    ...(opt(d.parentMemoryId) !== undefined ? { parentMemoryId: d.parentMemoryId } : {}),
    ...(opt(d.rootMemoryId) !== undefined ? { rootMemoryId: d.rootMemoryId } : {}),
    ...(opt(d.relation) !== undefined ? { relation: d.relation } : {}),
    relations: Object.fromEntries((d.relations ?? []).map((r) => [r.id, r.kind])),
    sources: (d.sources ?? []).map((s) => ({ documentId: s.documentId, chunkPositions: s.chunkPositions.map(Number) })),
    ...(opt(d.isInference) !== undefined ? { isInference: d.isInference } : {}),
    bucketKeys: [...(d.bucketKeys ?? [])],
    ...(opt(d.filepath) !== undefined ? { filepath: d.filepath } : {}),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

/**
 * What Qdrant keeps of a stored memory: the searched fields, and the stored
 * embedding when it has the collection's size (a vector of another size, left
 * by an earlier embedder, is left out: the memory stays searchable by its
 * words until it is embedded again).
 */
export function searchRecordOf(d: MemoryDoc, dimensions: number): MemorySearchRecord {
  const vector = d.vector && d.model ? decodeVector(d.vector) : undefined;
  return { ...searchFieldsOf(fromMemoryDoc(d)), ...(vector && vector.length === dimensions ? { vector, model: d.model } : {}) };
}
