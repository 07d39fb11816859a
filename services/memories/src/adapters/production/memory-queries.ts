import { type FilterExpr, filterToMongo, matchesFilter } from "@engram/filters";
import type { MemoryHit, MemoryListQuery, MemoryRecord, MemorySearchQuery } from "@engram/memory-model";
import type { Document, IndexSpec } from "@engram/storage/mongo";
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
  // The reconciler: records Qdrant may not hold yet (a handful; none after a clean run).
  { name: "unindexed", key: { updatedAt: 1, _id: 1 }, partialFilterExpression: { indexed: false } },
];

/** The `memory_formations` collection: one document per formed (tenant, document, generation). */
export const FORMATION_INDEXES: IndexSpec[] = [{ name: "formation_unique", key: { tenantId: 1, documentId: 1, generation: 1 }, unique: true }];

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
