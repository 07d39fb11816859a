import { UnavailableError } from "@engram/kernel";
import type { MemoryHit, MemoryListQuery, MemoryRecord, MemorySearchQuery } from "@engram/memory-model";
import type { Logger } from "@engram/observability";
import {
  type ClientSession,
  type Collection,
  type Db,
  ensureIndexes,
  type Filter,
  isDuplicateKeyError,
  ListingCursors,
  listingKey,
  type MongoClient,
  mongoKeysetAfter,
  ObjectId,
  withTransaction,
} from "@engram/storage/mongo";
import type { MemoryRepository, MemoryWrite, NamespaceChanges, WriteOutcome } from "../../app/ports";
import { encodeVector, fromMemoryDoc, type MemoryDoc, type StoredVector, searchRecordOf } from "./memory-doc";
import {
  CHAIN_ROOT_BACKFILL,
  changedSinceMirror,
  FORMATION_INDEXES,
  GUARD_INDEXES,
  type GuardDoc,
  guardWrites,
  latestDuplicatesPipeline,
  ONE_LATEST_PER_CHAIN,
  type FindSpec,
  handBack,
  markIndexed,
  MEMORY_INDEXES,
  memoryQueries,
  mergeSearchHits,
  moveNamespacesUpdate,
  namespaceGuardId,
  type ReconcileCursor,
  searchFetchSize,
  unindexedPage,
  WITHOUT_VECTOR,
} from "./memory-queries";
import type { QdrantMemorySearch } from "./memory-search.qdrant";
import { outcomeOf, writeTransaction, type WriteTxSteps } from "./memory-write";

/** The read side of the store, for a process that must not write (recall): see `MongoQdrantMemoryStore.openReadOnly`. */
export type MemoryReadOnlyStore = Pick<MemoryRepository, "search" | "getMany" | "chains" | "list" | "close">;

/** A document of `memory_formations`: one formed document generation. */
export interface FormationDoc {
  tenantId: string;
  documentId: string;
  generation: number;
  formedAt: string;
}

export const MEMORIES_COLLECTION = "memories";
export const FORMATIONS_COLLECTION = "memory_formations";
export const GUARDS_COLLECTION = "memory_guards";

/** Default pause between two reconciler passes. */
export const DEFAULT_RECONCILE_INTERVAL_MS = 30_000;

/** Rounds of "mirror, mark, re-read what changed meanwhile" before a mirror gives up (only concurrent writes to the same memories need more than one). */
const MIRROR_ROUNDS = 5;

export interface MongoQdrantMemoryStoreOptions {
  /** The database of the `memories`, `memory_formations` and `memory_guards` collections (a replica set: writes are transactions). */
  db: Db;
  /** The search side, opened on its Qdrant collection (`QdrantMemorySearch.open`). */
  search: QdrantMemorySearch;
  /** Dimensions of the Qdrant collection's dense vectors (the embedder's). */
  dimensions: number;
  /** Keep embeddings (the dense side of search); false for an embedder without semantics, like the embedded store. Default true. */
  vectors?: boolean;
  /** Collection names (tests use their own); defaults `memories`, `memory_formations` and `memory_guards`. */
  collections?: { memories?: string; formations?: string; guards?: string };
  logger: Logger;
  /** Pause between reconciler passes; 0 = only the pass at start-up. Default 30 s. */
  reconcileIntervalMs?: number;
  /** Records per reconciler page (one Qdrant upsert each). Default 256. */
  reconcileBatch?: number;
  /** Runs after `close` stopped the reconciler (the factory closes a connection it opened). */
  onClose?: () => Promise<void>;
}

/**
 * The production memory store: records in MongoDB, search in Qdrant.
 *
 * MongoDB holds every version of every memory (`memories`, one document per
 * version with its embedding), the formation markers (`memory_formations`)
 * and the guards with the deleted documents' tombstones (`memory_guards`); it
 * is the source of truth and answers every read
 * except `search`. Qdrant (`<prefix>_memories`, through QdrantMemorySearch)
 * holds what search ranks and filters on.
 *
 * Write path: one transaction (writeTransaction) checks the formation source
 * against the document's tombstone, writes every record conditionally (an
 * insert of a new id, or an update of the version the writer read: no blind
 * replace; a record without a new vector keeps its stored one), checks the
 * absence of duplicates and of memories citing a retired document, marks the
 * formation and records tombstones (`memory_guards`); a failed check or the
 * unique index of one latest version per chain makes it a conflict, nothing
 * written. Each written document carries the write's `rev` and
 * `indexed: false`. After the commit the written versions are mirrored into
 * Qdrant and marked `indexed` (only while their `rev` is unchanged; a version
 * changed meanwhile is mirrored again from its current document), so in
 * normal operation a write is searchable when `write` resolves. When the
 * mirror fails, `write` rejects with UnavailableError although the records
 * are stored; when the process dies between commit and mirror, nothing
 * rejects at all. Either way the records stay `indexed: false`, and the
 * reconciler (a pass at `open`, before the store serves, then every
 * `reconcileIntervalMs`) mirrors them: search is eventually consistent only
 * after such a failure.
 *
 * Search path: Qdrant ranks and filters (tenant, namespaces, latest, not
 * forgotten or expired, static, metadata), a few more candidates than asked;
 * the records are then read from MongoDB, and a hit whose record no longer
 * qualifies (Qdrant lags a change) is dropped, Qdrant's order kept.
 *
 * Every query filters by tenant (and namespace where one is given).
 */
export class MongoQdrantMemoryStore implements MemoryRepository {
  readonly memories: Collection<MemoryDoc>;
  readonly formations: Collection<FormationDoc>;
  readonly guards: Collection<GuardDoc>;
  private readonly client: MongoClient;
  private readonly log: Logger;
  private readonly intervalMs: number;
  private readonly batch: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private closed = false;
  /** Where recent listing pages ended, and their counts (keyset paging behind the API's pages). */
  private readonly cursors = new ListingCursors<{ value: string; id: string }>();

  private constructor(private readonly o: MongoQdrantMemoryStoreOptions) {
    this.memories = o.db.collection<MemoryDoc>(o.collections?.memories ?? MEMORIES_COLLECTION);
    this.formations = o.db.collection<FormationDoc>(o.collections?.formations ?? FORMATIONS_COLLECTION);
    this.guards = o.db.collection<GuardDoc>(o.collections?.guards ?? GUARDS_COLLECTION);
    this.client = o.db.client;
    this.log = o.logger.child({ component: "memory-store" });
    this.intervalMs = o.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS;
    this.batch = Math.max(1, o.reconcileBatch ?? 256);
  }

  /**
   * Creates the collections and indexes (idempotent), mirrors every record
   * Qdrant may lack (so a crash before this start loses no search), then
   * starts the periodic reconciler.
   */
  static async open(o: MongoQdrantMemoryStoreOptions): Promise<MongoQdrantMemoryStore> {
    const store = new MongoQdrantMemoryStore(o);
    await ensureIndexes(o.db, store.memories.collectionName, MEMORY_INDEXES);
    await ensureIndexes(o.db, store.formations.collectionName, FORMATION_INDEXES);
    await ensureIndexes(o.db, store.guards.collectionName, GUARD_INDEXES);
    await store.ensureOneLatestPerChain();
    // Qdrant answered just now (the collection is prepared before this): a record that fails here is one Qdrant
    // refuses, logged by the pass and tried again by every later one; it does not keep the service from starting.
    const first = await store.reconcile();
    if (first.mirrored > 0) store.log.warn(first, "memories missing from the search index at start-up were mirrored");
    if (first.failed > 0) store.log.error(first, "memories could not be mirrored into the search index at start-up");
    store.schedule();
    return store;
  }

  /**
   * The unique index of one latest version per chain. The first start of a
   * version with it gives older documents their `chainRoot` and demotes the
   * extra latest versions a race may have left (keeping the highest version),
   * then creates the index; when a replica of the earlier version wrote a
   * duplicate meanwhile, once more. Later starts find the index and skip both.
   */
  private async ensureOneLatestPerChain(): Promise<void> {
    const existing = await this.memories.listIndexes().toArray();
    if (existing.some((i) => i.name === ONE_LATEST_PER_CHAIN.name)) return;
    for (let round = 1; ; round++) {
      const filled = await this.memories.updateMany(CHAIN_ROOT_BACKFILL.filter as Filter<MemoryDoc>, CHAIN_ROOT_BACKFILL.update);
      const groups = await this.memories.aggregate<{ demote: string[] }>(latestDuplicatesPipeline()).toArray();
      const demote = groups.flatMap((g) => g.demote);
      if (demote.length > 0) {
        // Qdrant follows through the reconciler (a fresh rev, unindexed).
        await this.memories.updateMany(
          { _id: { $in: demote }, isLatest: true },
          { $set: { isLatest: false, rev: new ObjectId().toHexString(), indexed: false } },
        );
        this.log.warn(
          { demoted: demote.length, sample: demote.slice(0, 10) },
          "memory chains with more than one latest version repaired: the highest version stays latest",
        );
      }
      if (filled.modifiedCount > 0) this.log.info({ documents: filled.modifiedCount }, "memory documents given their chain root");
      try {
        await ensureIndexes(this.o.db, this.memories.collectionName, [ONE_LATEST_PER_CHAIN]);
        return;
      } catch (err) {
        // ensureIndexes wraps nothing but option conflicts: E11000 arrives as the server sent it.
        if (round >= 2 || !isDuplicateKeyError(err)) throw err;
      }
    }
  }

  /**
   * The store for a process that only reads it (recall): no collection or index creation, no reconciler, and only
   * the read side exposed (search, getMany, chains, list), so nothing it does writes to MongoDB or Qdrant. The
   * memories service owns the schema and the reconciler; until it created the indexes, reads are only slower.
   */
  static openReadOnly(o: Omit<MongoQdrantMemoryStoreOptions, "reconcileIntervalMs" | "reconcileBatch">): MemoryReadOnlyStore {
    const store = new MongoQdrantMemoryStore({ ...o, reconcileIntervalMs: 0 });
    return {
      search: (q) => store.search(q),
      getMany: (tenantId, ids, namespace) => store.getMany(tenantId, ids, namespace),
      chains: (tenantId, rootIds) => store.chains(tenantId, rootIds),
      list: (q) => store.list(q),
      close: () => store.close(),
    };
  }

  // --- reads ---

  private async find(spec: FindSpec): Promise<MemoryRecord[]> {
    const rows = await this.memories
      .find(spec.filter as Filter<MemoryDoc>, {
        projection: WITHOUT_VECTOR,
        ...(spec.sort ? { sort: spec.sort } : {}),
        ...(spec.skip ? { skip: spec.skip } : {}),
        ...(spec.limit !== undefined ? { limit: spec.limit } : {}),
      })
      .toArray();
    return rows.map(fromMemoryDoc);
  }

  async ownersOf(ids: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      const part = unique.slice(i, i + 500);
      for (const r of await this.memories.find({ _id: { $in: part } }, { projection: { _id: 1, tenantId: 1 } }).toArray()) out.set(r._id, r.tenantId);
    }
    return out;
  }

  async findById(tenantId: string, id: string): Promise<MemoryRecord | undefined> {
    const [m] = await this.find(memoryQueries.byId(tenantId, id));
    return m;
  }

  async findByContentKey(tenantId: string, namespace: string, key: string): Promise<MemoryRecord[]> {
    return this.find(memoryQueries.byContentKey(tenantId, namespace, key));
  }

  async findByDocument(tenantId: string, documentId: string): Promise<MemoryRecord[]> {
    return this.find(memoryQueries.byDocument(tenantId, documentId));
  }

  async findExpired(now: string, limit: number): Promise<MemoryRecord[]> {
    if (limit <= 0) return [];
    return this.find(memoryQueries.expired(now, limit));
  }

  async namespaceVersion(tenantId: string, namespace: string): Promise<number> {
    return (await this.guards.findOne({ _id: namespaceGuardId(tenantId, namespace) }, { projection: { version: 1 } }))?.version ?? 0;
  }

  /** The guard first: a memory stamped above the version read is counted in it (a write stamps and counts in one transaction). */
  async changesSince(tenantId: string, namespace: string, version: number): Promise<NamespaceChanges | undefined> {
    const guard = await this.guards.findOne({ _id: namespaceGuardId(tenantId, namespace) }, { projection: { version: 1, floor: 1 } });
    const now = guard?.version ?? 0;
    if (version > now || version < (guard?.floor ?? 0)) return undefined;
    const changed = await this.find(memoryQueries.changedSince(tenantId, namespace, version));
    return { version: now, changed };
  }

  async isFormed(tenantId: string, documentId: string, generation: number): Promise<boolean> {
    return (await this.formations.countDocuments({ tenantId, documentId, generation }, { limit: 1 })) > 0;
  }

  async getMany(tenantId: string, ids: string[], namespace?: string): Promise<MemoryRecord[]> {
    if (ids.length === 0) return [];
    const found = new Map((await this.find(memoryQueries.many(tenantId, [...new Set(ids)], namespace))).map((m) => [m.id, m]));
    return ids.flatMap((id) => {
      const m = found.get(id);
      return m ? [m] : [];
    });
  }

  async chains(tenantId: string, rootIds: string[]): Promise<MemoryRecord[]> {
    if (rootIds.length === 0) return [];
    return this.find(memoryQueries.chains(tenantId, [...new Set(rootIds)]));
  }

  async namespaces(tenantId: string): Promise<string[]> {
    const values = await this.memories.distinct("namespace", memoryQueries.namespaces(tenantId) as Filter<MemoryDoc>);
    return (values as string[]).sort();
  }

  async list(q: MemoryListQuery): Promise<{ items: MemoryRecord[]; total: number }> {
    if (q.namespaces && q.namespaces.length === 0) return { items: [], total: 0 };
    const spec = memoryQueries.list(q);
    // Keyset paging (see ListingCursors): a page that follows one read recently starts after that page's last memory
    // (no skip) and reports the count the listing's first page took. The listing is named without `now`, so a walk
    // keeps its positions while the clock moves.
    const field = q.sort === "updatedAt" ? "updatedAt" : "createdAt";
    const dir: 1 | -1 = q.order === "asc" ? 1 : -1;
    const listing = listingKey([
      q.tenantId,
      q.namespaces ?? null,
      q.filter ?? null,
      !!q.allVersions,
      !!q.includeForgotten,
      q.isStatic ?? null,
      field,
      dir,
      q.limit,
    ]);
    const after = this.cursors.position(listing, q.offset);
    const page = async (): Promise<MemoryRecord[]> => {
      if (q.limit <= 0) return [];
      const items = await this.find(after ? { ...spec, filter: { $and: [spec.filter, mongoKeysetAfter(field, dir, after)] }, skip: 0 } : spec);
      const last = items[items.length - 1];
      if (last && items.length === q.limit) this.cursors.rememberPosition(listing, q.offset + q.limit, { value: last[field], id: last.id });
      return items;
    };
    if (q.countTotal === false) {
      const items = await page();
      return { items, total: q.offset + items.length };
    }
    let total = this.cursors.total(listing, q.offset);
    if (total === undefined) this.cursors.rememberTotal(listing, (total = await this.memories.countDocuments(spec.filter as Filter<MemoryDoc>)));
    if (q.limit <= 0 || q.offset >= total) return { items: [], total };
    return { items: await page(), total };
  }

  async search(q: MemorySearchQuery): Promise<MemoryHit[]> {
    if (!q.text.trim() || q.limit <= 0 || q.namespaces?.length === 0) return [];
    let fetch = searchFetchSize(q.limit);
    for (let attempt = 1; ; attempt++) {
      const hits = await this.o.search.search({ ...q, limit: fetch });
      const ids = [...new Set(hits.map((h) => h.id))];
      const records = ids.length ? await this.find(memoryQueries.many(q.tenantId, ids)) : [];
      const out = mergeSearchHits(hits, new Map(records.map((m) => [m.id, m])), q);
      // Short only because stale hits were dropped, and Qdrant had more: ask once more for a larger page.
      if (out.length >= q.limit || hits.length < fetch || attempt === 2) return out;
      fetch *= 4;
    }
  }

  async pruneTombstones(before: string): Promise<number> {
    const pruned = (await this.guards.deleteMany(guardWrites.prunedTombstones(before) as Filter<GuardDoc>)).deletedCount;
    await this.guards.deleteMany(guardWrites.prunedGuards(before) as Filter<GuardDoc>);
    return pruned;
  }

  /**
   * MongoDB first (the record of truth): searches hydrate their hits from it
   * and drop ids it no longer has, so points a failed Qdrant delete leaves
   * behind are never shown, and running the reset again removes them. The
   * guards stay (a formation in flight during the reset must still find a
   * tombstone); they are pruned in time.
   */
  async purgeTenant(tenantId: string): Promise<number> {
    const removed = (await this.memories.deleteMany({ tenantId })).deletedCount;
    await this.formations.deleteMany({ tenantId });
    await this.o.search.deleteTenant(tenantId);
    return removed;
  }

  /**
   * MongoDB first, as for the reset: a search hit whose namespace Qdrant still has wrong is hydrated from MongoDB.
   * The moved records are marked for re-indexing (`moveNamespacesUpdate`: fresh rev, `indexed: false`), so the
   * reconciler brings Qdrant's namespaces in line even when the payload update below fails or never runs.
   */
  async moveNamespaces(tenantId: string, sources: string[], target: string): Promise<number> {
    const from = sources.filter((ns) => ns !== target);
    if (from.length === 0) return 0;
    const op = moveNamespacesUpdate(tenantId, from, target, new ObjectId().toHexString());
    const moved = (await this.memories.updateMany(op.filter as Filter<MemoryDoc>, op.update)).modifiedCount;
    await this.o.search.moveNamespaces(tenantId, from, target);
    // The moved memories carry their old namespace's stamps: readers of either side before the move read afresh.
    for (const ns of [...from, target]) {
      const id = namespaceGuardId(tenantId, ns);
      const g = await this.guards.findOneAndUpdate({ _id: id }, guardWrites.bumpNamespace(tenantId, ns, new Date().toISOString()), {
        upsert: true,
        returnDocument: "after",
        projection: { version: 1 },
      });
      await this.guards.updateOne({ _id: id }, { $max: { floor: g?.version ?? 0 } });
    }
    return moved;
  }

  // --- write ---

  async write(w: MemoryWrite): Promise<WriteOutcome> {
    // One document per id: the last record given for an id wins (as the embedded store's successive upserts).
    const records = [...new Map(w.records.map((m) => [m.id, m])).values()];
    const keep = this.o.vectors ?? true;
    const vectors = new Map<string, StoredVector>();
    if (keep)
      for (const m of records) {
        const v = w.vectors?.get(m.id);
        if (!v) continue;
        if (v.vector.length !== this.o.dimensions)
          throw new Error(`memory ${m.id} has a ${v.vector.length}-dimension vector; the memory store keeps ${this.o.dimensions} dimensions`);
        vectors.set(m.id, { vector: encodeVector(v.vector), model: v.model });
      }
    const rev = new ObjectId().toHexString();
    // The driver runs the callback again on a transient error (a write conflict with a concurrent transaction).
    const { outcome, written } = await outcomeOf(() =>
      withTransaction(this.client, (session) => writeTransaction(this.txSteps(session), w, records, vectors, rev, new Date().toISOString())),
    );
    if (outcome !== "written") return outcome;
    if (written.length === 0) return "written";
    try {
      await this.mirror(written);
    } catch (err) {
      this.log.warn({ err, memories: written.length }, "memories stored but not mirrored into Qdrant; the reconciler will mirror them");
      throw new UnavailableError(
        "memory search is unavailable",
        "the memories were stored and become searchable once the search index accepts them again; retrying the request is safe",
        { cause: err },
      );
    }
    return "written";
  }

  /** The steps of a write's transaction (writeTransaction) on this store's collections, inside `session`. */
  private txSteps(session: ClientSession): WriteTxSteps {
    return {
      findGuard: (id) => this.guards.findOne({ _id: id }, { session, projection: { deletedGeneration: 1, version: 1 } }),
      upsertGuard: async (id, update) => {
        await this.guards.updateOne({ _id: id }, update, { session, upsert: true });
      },
      updateGuard: async (id, update) =>
        (await this.guards.findOneAndUpdate({ _id: id }, update, { session, upsert: true, returnDocument: "after", projection: { version: 1 } })) ?? {},
      countFormations: (filter) => this.formations.countDocuments(filter as Filter<FormationDoc>, { session, limit: 1 }),
      upsertFormation: async (filter, update) => {
        await this.formations.updateOne(filter as Filter<FormationDoc>, update, { session, upsert: true });
      },
      storedVectors: (ids) => this.memories.find({ _id: { $in: ids } }, { session, projection: { vector: 1, model: 1 } }).toArray(),
      bulkMemories: (ops) => this.memories.bulkWrite(ops, { session, ordered: true }),
      countMemories: (filter) => this.memories.countDocuments(filter as Filter<MemoryDoc>, { session, limit: 1 }),
    };
  }

  /**
   * Mirrors stored versions into Qdrant and marks them indexed. A version
   * rewritten meanwhile is not marked; its current document is mirrored in the
   * next round (Qdrant may have received the older one after the newer one).
   */
  private async mirror(docs: MemoryDoc[]): Promise<void> {
    let pending = docs;
    for (let round = 1; ; round++) {
      await this.o.search.upsert(pending.map((d) => searchRecordOf(d, this.o.dimensions)));
      const at = new Date().toISOString();
      const res = await this.memories.bulkWrite(
        pending.map((d) => {
          const op = markIndexed(d, at);
          return { updateOne: { filter: op.filter as Filter<MemoryDoc>, update: op.update } };
        }),
        { ordered: false },
      );
      if (res.matchedCount === pending.length) return;
      const current = await this.memories.find({ _id: { $in: pending.map((d) => d._id) } }, { projection: { rev: 1 } }).toArray();
      const changed = changedSinceMirror(pending, current);
      if (changed.length === 0) return;
      if (round === MIRROR_ROUNDS) {
        // Qdrant may hold an older version now, and a concurrent mirror may already have marked the newer one:
        // a fresh rev voids that mark, so the reconciler mirrors these again.
        const back = handBack(changed, new ObjectId().toHexString());
        await this.memories.updateMany(back.filter as Filter<MemoryDoc>, back.update);
        throw new Error(`memories ${changed.slice(0, 5).join(", ")} kept changing while being mirrored into Qdrant; the reconciler mirrors them`);
      }
      pending = await this.memories.find({ _id: { $in: changed } }).toArray();
    }
  }

  // --- reconciler ---

  /**
   * One reconciler pass: mirrors every record marked `indexed: false` (a
   * write whose mirror failed or never ran), page by page. A page that fails
   * is retried record by record, so one record Qdrant refuses does not hold
   * up the rest; when no record of a page goes through (Qdrant unreachable)
   * the pass stops and the next one starts over.
   */
  async reconcile(): Promise<{ mirrored: number; failed: number }> {
    let mirrored = 0;
    let failed = 0;
    let after: ReconcileCursor | undefined;
    for (;;) {
      const page = unindexedPage(this.batch, after);
      const docs = await this.memories.find(page.filter as Filter<MemoryDoc>, { sort: page.sort!, limit: page.limit! }).toArray();
      if (docs.length === 0) break;
      const last = docs[docs.length - 1]!;
      after = { updatedAt: last.updatedAt, id: last._id };
      try {
        await this.mirror(docs);
        mirrored += docs.length;
        continue;
      } catch (err) {
        if (docs.length === 1) {
          failed++;
          this.log.error({ err, memory: docs[0]!._id }, "memory could not be mirrored into Qdrant");
          continue;
        }
      }
      let ok = 0;
      for (const d of docs) {
        try {
          await this.mirror([d]);
          ok++;
        } catch (err) {
          failed++;
          this.log.error({ err, memory: d._id }, "memory could not be mirrored into Qdrant");
        }
      }
      mirrored += ok;
      if (ok === 0) break;
    }
    return { mirrored, failed };
  }

  /**
   * Rebuilds the search side from MongoDB: marks every record unindexed, then
   * runs a reconciler pass (after Qdrant lost its data, or to re-mirror after
   * a change of what the mirror stores). Writes may go on meanwhile.
   */
  async rebuildSearch(): Promise<{ mirrored: number; failed: number }> {
    await this.memories.updateMany({ indexed: true }, { $set: { indexed: false } });
    return this.reconcile();
  }

  private schedule(): void {
    if (this.closed || this.intervalMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const pass = this.reconcile().then(
        (r) => {
          if (r.mirrored > 0) this.log.info(r, "memories missing from the search index mirrored");
          if (r.failed > 0) this.log.warn(r, "memories still missing from the search index");
        },
        (err) => this.log.error({ err }, "memory reconciler pass failed"),
      );
      this.running = pass;
      void pass.finally(() => {
        if (this.running === pass) this.running = undefined;
        this.schedule();
      });
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the reconciler (waiting for a running pass), then runs `onClose`. The connection is the caller's otherwise. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    await this.o.onClose?.();
  }
}
