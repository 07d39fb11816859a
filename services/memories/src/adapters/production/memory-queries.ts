import { type FilterExpr, filterToMongo, matchesFilter } from "@engram/filters";
import type { MemoryHit, MemoryListQuery, MemoryRecord, MemorySearchQuery } from "@engram/memory-model";
import { createHash } from "node:crypto";
import type { AnyBulkWriteOperation, Document, IndexSpec } from "@engram/storage/mongo";
import type { DocumentGeneration, MemoryWrite } from "../../app/ports";
import type { MemoryDoc } from "./memory-doc";
import type { MemorySearchHit } from "./memory-search.qdrant";

/**
 * The MongoDB queries of the production memory store, as plain objects (no
 * driver call), and the pure decisions of its search and reconciler paths.
 * The store runs them; the unit tests evaluate them with mingo (a JavaScript
 * implementation of MongoDB's query language) against the embedded store's
 * answers, and the contract suite runs them on a real server.
 */

/** A find: filter, order, and paging when the path pages. */
export interface FindSpec {
  filter: Document;
  sort?: Record<string, 1 | -1>;
  skip?: number;
  limit?: number;
}

/**
 * The indexes of the `memories` collection, one per query path
 * (docs/deployment.md, "Production memory store", lists them). By-id reads (findById, getMany, the
 * search's record load, the id side of `chains`, optimistic checks) use the
 * `_id` index: an id is unique across tenants, and the tenant is a filter on
 * the one document found, so a `{tenantId, _id}` index would only double the
 * writes.
 */
export const MEMORY_INDEXES: IndexSpec[] = [
  // findByContentKey: one namespace's memories with that normalised content, latest first, then most recently changed.
  { name: "scope_content", key: { tenantId: 1, namespace: 1, contentKey: 1, isLatest: -1, updatedAt: -1, _id: -1 } },
  // findByDocument: every version that lists the document among its sources (multikey on the array).
  { name: "tenant_source_documents", key: { tenantId: 1, sourceDocumentIds: 1, createdAt: 1, _id: 1 } },
  // chains: every later version of the given roots, oldest first.
  { name: "tenant_chain", key: { tenantId: 1, rootMemoryId: 1, version: 1 } },
  // findExpired (the expiry sweep, every tenant): only not-yet-forgotten memories with a forgetAfter are in it.
  {
    name: "expiring",
    key: { forgetAfter: 1, _id: 1 },
    partialFilterExpression: { isForgotten: false, forgetAfter: { $exists: true } },
  },
  // list of one or more namespaces by creation or update time (either order); namespaces(tenant) (distinct scan).
  { name: "scope_created", key: { tenantId: 1, namespace: 1, createdAt: 1, _id: 1 } },
  { name: "scope_updated", key: { tenantId: 1, namespace: 1, updatedAt: 1, _id: 1 } },
  // list of the whole tenant (no namespaces given).
  { name: "tenant_created", key: { tenantId: 1, createdAt: 1, _id: 1 } },
  { name: "tenant_updated", key: { tenantId: 1, updatedAt: 1, _id: 1 } },
  // changesSince (batched memory formation after a refused write): the namespace's memories written after a version.
  { name: "scope_ns_version", key: { tenantId: 1, namespace: 1, nsVersion: 1 }, partialFilterExpression: { nsVersion: { $exists: true } } },
  // The reconciler: records Qdrant may not hold yet (a handful; none after a clean run).
  { name: "unindexed", key: { updatedAt: 1, _id: 1 }, partialFilterExpression: { indexed: false } },
  // Metadata filters (`filterToMongo`: one `$elemMatch` on `meta` per condition): multikey on the entries, so a
  // condition's key and value (or number) bound one index scan instead of reading every memory of the tenant.
  // ignoreCase and substring conditions use the key prefix.
  { name: "tenant_meta_value", key: { tenantId: 1, "meta.k": 1, "meta.v": 1 } },
  { name: "tenant_meta_number", key: { tenantId: 1, "meta.k": 1, "meta.n": 1 } },
];

/**
 * The guard of versions across replicas (issue #31): a chain (its root and
 * every version naming it as root) has exactly one latest version, forgotten
 * or not (forgetting keeps a version latest; only the latest gets a next
 * version). The normalised content is deliberately not unique: instant
 * formation keeps each document's facts on their own, an update may word a
 * memory like another, an expired memory stays latest until the sweep; its
 * deduplication is `expectNoDuplicate`, serialised by a content guard. A write
 * this index refuses (E11000) is a conflict: the writer reads again. Documents
 * without `chainRoot` (written by a replica of an earlier version during a
 * rolling upgrade) are outside it until rewritten; the embedded store's
 * partial unique index is the same rule.
 */
export const ONE_LATEST_PER_CHAIN: IndexSpec = {
  name: "one_latest_per_chain",
  key: { tenantId: 1, chainRoot: 1 },
  unique: true,
  partialFilterExpression: { isLatest: true, chainRoot: { $exists: true } },
};

/** The `memory_formations` collection: one document per formed (tenant, document, generation). */
export const FORMATION_INDEXES: IndexSpec[] = [{ name: "formation_unique", key: { tenantId: 1, documentId: 1, generation: 1 }, unique: true }];

/**
 * The `memory_guards` collection (a document per source document or content
 * key that writes met on; see GuardDoc): pruned by the time of its last write.
 */
export const GUARD_INDEXES: IndexSpec[] = [{ name: "touched", key: { touchedAt: 1 } }];

/** Reads never need the embedding (only the mirror to Qdrant does). */
export const WITHOUT_VECTOR = { vector: 0 } as const;

export const memoryQueries = {
  byId(tenantId: string, id: string): FindSpec {
    return { filter: { _id: id, tenantId } };
  },

  /** Latest versions first, then the most recently changed (the embedded store's order; ties by id, newest first). */
  byContentKey(tenantId: string, namespace: string, key: string): FindSpec {
    return { filter: { tenantId, namespace, contentKey: key }, sort: { isLatest: -1, updatedAt: -1, _id: -1 } };
  },

  /** The namespace's memories written after its change counter was at `version`. */
  changedSince(tenantId: string, namespace: string, version: number): FindSpec {
    return { filter: { tenantId, namespace, nsVersion: { $gt: version } }, sort: { nsVersion: 1, _id: 1 } };
  },

  /** Every version listing the document among its sources, in creation order. */
  byDocument(tenantId: string, documentId: string): FindSpec {
    return { filter: { tenantId, sourceDocumentIds: documentId }, sort: { createdAt: 1, _id: 1 } };
  },

  /** Not-yet-forgotten memories of every tenant whose forgetAfter is at or before `now`, soonest first. */
  expired(now: string, limit: number): FindSpec {
    return {
      filter: { isForgotten: false, forgetAfter: { $exists: true, $lte: now } },
      sort: { forgetAfter: 1, _id: 1 },
      limit,
    };
  },

  /** Memories by id within the tenant (and namespace); the caller puts them in request order. */
  many(tenantId: string, ids: string[], namespace?: string): FindSpec {
    return { filter: { tenantId, _id: { $in: ids }, ...(namespace !== undefined ? { namespace } : {}) } };
  },

  /** Every version of the chains of the given roots (the roots themselves and every version naming them as root), oldest first. */
  chains(tenantId: string, rootIds: string[]): FindSpec {
    return {
      filter: { tenantId, $or: [{ _id: { $in: rootIds } }, { rootMemoryId: { $in: rootIds } }] },
      sort: { version: 1, createdAt: 1, _id: 1 },
    };
  },

  /** The tenant filter of `namespaces` (distinct namespace values). */
  namespaces(tenantId: string): Document {
    return { tenantId };
  },

  /**
   * A listing: the selection (`acceptsMemory` as a query), ordered by the
   * sort field then id in the requested direction, one page of it.
   */
  list(q: MemoryListQuery): FindSpec {
    const dir: 1 | -1 = q.order === "asc" ? 1 : -1;
    return {
      filter: selection(q),
      sort: q.sort === "updatedAt" ? { updatedAt: dir, _id: dir } : { createdAt: dir, _id: dir },
      skip: q.offset,
      limit: q.limit,
    };
  },
};

/** What search and list select, as a MongoDB query: tenant, namespaces, versions, forgotten/expired, static, metadata filter. */
export function selection(q: {
  tenantId: string;
  namespaces?: string[];
  allVersions?: boolean;
  includeForgotten?: boolean;
  isStatic?: boolean;
  filter?: FilterExpr;
  now: string;
}): Document {
  const filter: Document = { tenantId: q.tenantId };
  if (q.namespaces) filter.namespace = { $in: q.namespaces };
  if (!q.allVersions) filter.isLatest = true;
  if (!q.includeForgotten) {
    filter.isForgotten = false;
    filter.$or = [{ forgetAfter: { $exists: false } }, { forgetAfter: { $gt: q.now } }];
  }
  if (q.isStatic !== undefined) filter.isStatic = q.isStatic;
  if (q.filter) filter.$and = [filterToMongo(q.filter, "meta")];
  return filter;
}

/**
 * Whether a memory qualifies for a search or listing: the embedded store's
 * rule (latest version unless all versions are asked for, not forgotten and
 * not expired at `now` unless asked, static/dynamic, metadata filter), plus
 * the tenant and namespaces (the embedded store selects those by partition).
 */
export function acceptsMemory(
  m: MemoryRecord,
  q: { tenantId: string; namespaces?: string[]; includeForgotten?: boolean; isStatic?: boolean; filter?: FilterExpr; allVersions?: boolean; now: string },
): boolean {
  if (m.tenantId !== q.tenantId) return false;
  if (q.namespaces && !q.namespaces.includes(m.namespace)) return false;
  if (!q.allVersions && !m.isLatest) return false;
  if (!q.includeForgotten && (m.isForgotten || (m.forgetAfter !== undefined && m.forgetAfter <= q.now))) return false;
  if (q.isStatic !== undefined && m.isStatic !== q.isStatic) return false;
  return !q.filter || matchesFilter(q.filter, m.metadata);
}

/**
 * How many candidates to ask Qdrant for: a few more than the limit, so that
 * the hits MongoDB no longer confirms (the index lags a change) can be
 * dropped without coming back short.
 */
export function searchFetchSize(limit: number): number {
  const n = Math.max(0, Math.floor(limit));
  return n === 0 ? 0 : n + Math.max(5, Math.ceil(n / 4));
}

/**
 * The search's answer: Qdrant's hits in Qdrant's order, each with the record
 * MongoDB holds now, leaving out hits whose record is gone or no longer
 * qualifies (Qdrant lags a change, see the reconciler), at most `limit`.
 */
export function mergeSearchHits(hits: MemorySearchHit[], records: Map<string, MemoryRecord>, q: MemorySearchQuery): MemoryHit[] {
  const out: MemoryHit[] = [];
  const seen = new Set<string>();
  for (const h of hits) {
    if (out.length >= q.limit) break;
    const memory = records.get(h.id);
    if (!memory || seen.has(h.id) || !acceptsMemory(memory, q)) continue;
    seen.add(h.id);
    out.push({ memory, similarity: h.similarity, ownSimilarity: h.ownSimilarity, score: h.score });
  }
  return out;
}

// --- the reconciler ---

/** The position of the last document a reconciler pass handled (it goes on after it, even when that one failed). */
export interface ReconcileCursor {
  updatedAt: string;
  id: string;
}

/**
 * One page of the records Qdrant may not hold (`indexed: false`), in the
 * order of the `unindexed` index, after `after`. A pass walks these pages
 * once, so a record that cannot be mirrored does not hold up the others.
 */
export function unindexedPage(limit: number, after?: ReconcileCursor): FindSpec {
  const filter: Document = { indexed: false };
  if (after) filter.$or = [{ updatedAt: { $gt: after.updatedAt } }, { updatedAt: after.updatedAt, _id: { $gt: after.id } }];
  return { filter, sort: { updatedAt: 1, _id: 1 }, limit };
}

/**
 * Marks a mirrored record indexed, only while it is still the version that
 * was mirrored (same `rev`): a write that landed meanwhile stays unindexed.
 */
export function markIndexed(d: Pick<MemoryDoc, "_id" | "rev">, at: string): { filter: Document; update: Document } {
  return { filter: { _id: d._id, rev: d.rev }, update: { $set: { indexed: true, indexedAt: at } } };
}

/**
 * A namespace move (a container-tag merge) of the tenant's memories: every
 * version in the source namespaces goes to the target, with a fresh `rev` and
 * `indexed: false`, so the reconciler re-mirrors each moved record and Qdrant's
 * namespace follows even when the move's own payload update never reaches it
 * (Qdrant unreachable, the process dying in between); a mirror of an older
 * version in flight cannot mark a moved record (its `rev` no longer matches).
 */
export function moveNamespacesUpdate(tenantId: string, sources: string[], target: string, rev: string): { filter: Document; update: Document } {
  return { filter: { tenantId, namespace: { $in: sources } }, update: { $set: { namespace: target, rev, indexed: false } } };
}

/**
 * Gives memories back to the reconciler when a mirror gives up on them (they
 * kept changing under it): a fresh `rev` and `indexed: false`. Whatever
 * Qdrant got last, nobody can mark it indexed any more (every mirror in
 * flight marks an older `rev`, fails and mirrors the current document again),
 * and the reconciler picks the memories up.
 */
export function handBack(ids: string[], rev: string): { filter: Document; update: Document } {
  return { filter: { _id: { $in: ids } }, update: { $set: { rev, indexed: false } } };
}

/**
 * After a mirror and its marks: the ids whose stored version is no longer the
 * one mirrored. Qdrant may now hold an older version than MongoDB (a later
 * write's own mirror can land before this one), so these are mirrored again
 * from their current documents. A record gone from MongoDB needs nothing.
 */
export function changedSinceMirror(mirrored: Pick<MemoryDoc, "_id" | "rev">[], current: Pick<MemoryDoc, "_id" | "rev">[]): string[] {
  const now = new Map(current.map((d) => [d._id, d.rev]));
  return mirrored.filter((d) => now.has(d._id) && now.get(d._id) !== d.rev).map((d) => d._id);
}

// --- conditional writes (issue #31: replicas on one store) ---

/**
 * A document of `memory_guards`: where writes that must not interleave
 * meet. Snapshot isolation makes two transactions conflict only when they
 * write the same document; a check of an absence (no tombstone, no memory
 * citing a document, no active memory of a content) is not such a write. So
 * every writer whose decision rests on one of those absences writes the guard
 * of what it checked, in its transaction: of two concurrent ones, the second
 * to write it gets a write conflict, the driver runs its transaction again,
 * and it sees what the first one committed.
 *
 * - A source document's guard (`sourceGuardId`) carries the document's
 *   tombstone (`deletedGeneration`, `deletedAt`): written by a retire, and
 *   touched by every formation write of the document.
 * - A content key's guard (`contentGuardId`) is touched by every write that
 *   expects no duplicate of that content in its namespace.
 * - A namespace's guard (`namespaceGuardId`) carries its change counter
 *   (`version`): every write that stores a memory of the namespace increments
 *   it (and stamps the memories with the new value, `nsVersion`), and a write
 *   that expects a version (`MemoryWrite.expectNamespace`) reads and writes
 *   it. `floor`: changes at or below it are not all stamped (memories moved
 *   in from another namespace); `changesSince` cannot tell them. Never pruned
 *   (a counter that started again could repeat a version a reader holds).
 *
 * `touchedAt`: the latest write that met here, by which guards are pruned.
 */
export interface GuardDoc {
  _id: string;
  tenantId: string;
  documentId?: string;
  namespace?: string;
  version?: number;
  floor?: number;
  deletedGeneration?: number;
  deletedAt?: string;
  touchedAt: string;
}

/** The guard of a source document of a tenant (its tombstone lives there). */
export function sourceGuardId(tenantId: string, documentId: string): string {
  return `doc\u0000${tenantId}\u0000${documentId}`;
}

/** The guard of a normalised content in a namespace (hashed: a content key may be 10,000 characters long). */
export function contentGuardId(d: { tenantId: string; namespace: string; contentKey: string }): string {
  return `key\u0000${createHash("sha256").update(`${d.tenantId}\u0000${d.namespace}\u0000${d.contentKey}`).digest("hex")}`;
}

/** The guard of a namespace of a tenant (its change counter lives there; hashed like a content key's). */
export function namespaceGuardId(tenantId: string, namespace: string): string {
  return `ns\u0000${createHash("sha256").update(`${tenantId}\u0000${namespace}`).digest("hex")}`;
}

/** Why a formation write of this generation is refused by the document's guard: its tombstone covers the generation. */
export function formationRefusal(guard: Pick<GuardDoc, "deletedGeneration"> | null | undefined, generation: number): "source-deleted" | undefined {
  return guard?.deletedGeneration !== undefined && guard.deletedGeneration >= generation ? "source-deleted" : undefined;
}

export const guardWrites = {
  /** Touches a guard (upsert): the write that conflicts with any concurrent one on the same guard. */
  touch(tenantId: string, at: string, documentId?: string): Document {
    return { $max: { touchedAt: at }, $setOnInsert: { tenantId, ...(documentId !== undefined ? { documentId } : {}) } };
  },

  /** Records a document's tombstone on its guard (upsert); a later or higher one wins, so a delete never lowers it. */
  tombstone(r: DocumentGeneration & { at: string }): Document {
    return { $max: { deletedGeneration: r.generation, deletedAt: r.at, touchedAt: r.at }, $setOnInsert: { tenantId: r.tenantId, documentId: r.documentId } };
  },

  /** Tombstones last written before `before` (pruneTombstones counts these). */
  prunedTombstones(before: string): Document {
    return { deletedGeneration: { $exists: true }, touchedAt: { $lt: before } };
  },

  /** Moves a namespace's change counter by one (upsert); `floor` also to the new version when the changes are not stamped. */
  bumpNamespace(tenantId: string, namespace: string, at: string): Document {
    return { $inc: { version: 1 }, $max: { touchedAt: at }, $setOnInsert: { tenantId, namespace } };
  },

  /** Other guards last written before `before` (no information in them: pruned with the tombstones); namespace counters stay. */
  prunedGuards(before: string): Document {
    return { deletedGeneration: { $exists: false }, version: { $exists: false }, touchedAt: { $lt: before } };
  },
};

/** A formation marker of a newer generation of the document (a write of an older one is stale). */
export function newerFormation(s: DocumentGeneration): Document {
  return { tenantId: s.tenantId, documentId: s.documentId, generation: { $gt: s.generation } };
}

/**
 * Active memories of the content in the namespace (latest, not forgotten, not
 * expired at `now`) other than the given ids: what `expectNoDuplicate` must not
 * find once the write is applied.
 */
export function activeCopies(d: NonNullable<MemoryWrite["expectNoDuplicate"]>[number], except: string[]): Document {
  return {
    tenantId: d.tenantId,
    namespace: d.namespace,
    contentKey: d.contentKey,
    isLatest: true,
    isForgotten: false,
    $or: [{ forgetAfter: { $exists: false } }, { forgetAfter: { $gt: d.now } }],
    _id: { $nin: except },
  };
}

/** Fields a memory document may lack: a conditional update unsets each one the new version does not have (as a replace would). */
const OPTIONAL_FIELDS = [
  "meta",
  "forgottenAt",
  "forgetAfter",
  "forgetReason",
  "forgetBatchId",
  "temporalContext",
  "parentMemoryId",
  "rootMemoryId",
  "relation",
  "isInference",
  "filepath",
  "indexedAt",
  "lockRev",
] as const satisfies readonly (keyof MemoryDoc)[];

/**
 * The write of one memory document: an insert for a memory not stored yet
 * (an id already stored refuses it: E11000, a conflict), or an update
 * conditional on the version the writer read: same id, tenant, namespace and
 * `updatedAt`, else it matches nothing (a conflict). The update sets the whole
 * version (and unsets what it lacks); the stored embedding stays unless the
 * write brings a new one (`newVector`: the document's vector is new).
 */
export function memoryWriteOp(doc: MemoryDoc, expectedUpdatedAt: string | undefined, newVector = false): AnyBulkWriteOperation<MemoryDoc> {
  if (expectedUpdatedAt === undefined) return { insertOne: { document: doc } };
  const { _id, vector, model, ...rest } = doc;
  const fields = newVector && vector && model ? { ...rest, vector, model } : rest;
  const $unset: Record<string, ""> = Object.fromEntries(OPTIONAL_FIELDS.filter((f) => !(f in fields)).map((f) => [f, ""] as const));
  return {
    updateOne: {
      filter: { _id, tenantId: doc.tenantId, namespace: doc.namespace, updatedAt: expectedUpdatedAt },
      update: { $set: fields, ...(Object.keys($unset).length ? { $unset } : {}) },
    },
  };
}

/**
 * Every operation of a write on `memories`, and how many of them must match
 * a document (the conditional ones): updates of expected memories first, so a
 * version is demoted before its successor is inserted (the unique index of one
 * latest version per chain checks each operation), then inserts; an expected
 * memory the write does not rewrite is still written to (`lockRev`), so a
 * concurrent change of it conflicts with this transaction.
 */
export function memoryWriteOps(
  docs: MemoryDoc[],
  expect: { id: string; updatedAt: string }[],
  rev: string,
  newVectors: ReadonlySet<string> = new Set(),
): { ops: AnyBulkWriteOperation<MemoryDoc>[]; conditional: number } {
  const expected = new Map(expect.map((e) => [e.id, e.updatedAt]));
  const rewritten = new Set(docs.map((d) => d._id));
  const updates = docs.filter((d) => expected.has(d._id)).map((d) => memoryWriteOp(d, expected.get(d._id), newVectors.has(d._id)));
  const locks: AnyBulkWriteOperation<MemoryDoc>[] = [...expected]
    .filter(([id]) => !rewritten.has(id))
    .map(([id, updatedAt]) => ({ updateOne: { filter: { _id: id, updatedAt }, update: { $set: { lockRev: rev } } } }));
  const inserts = docs.filter((d) => !expected.has(d._id)).map((d) => memoryWriteOp(d, undefined));
  return { ops: [...updates, ...locks, ...inserts], conditional: updates.length + locks.length };
}

/** Gives documents written before `chainRoot` existed their chain root (an update pipeline). */
export const CHAIN_ROOT_BACKFILL = {
  filter: { chainRoot: { $exists: false } } as Document,
  update: [{ $set: { chainRoot: { $ifNull: ["$rootMemoryId", "$_id"] } } }] as Document[],
};

/**
 * Chains a race left with two or more latest versions (before the unique
 * index existed): per chain, the versions to demote, keeping the highest
 * version latest (then the most recently changed, then the greatest id), as
 * the embedded store's upgrade does.
 */
export function latestDuplicatesPipeline(): Document[] {
  return [
    { $match: { isLatest: true } },
    { $sort: { version: -1, updatedAt: -1, _id: -1 } },
    { $group: { _id: { tenantId: "$tenantId", chain: { $ifNull: ["$chainRoot", { $ifNull: ["$rootMemoryId", "$_id"] }] } }, ids: { $push: "$_id" } } },
    { $match: { "ids.1": { $exists: true } } },
    { $project: { _id: 0, demote: { $slice: ["$ids", 1, { $size: "$ids" }] } } },
  ];
}
