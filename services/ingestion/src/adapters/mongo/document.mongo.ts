import type { OutgoingMessage } from "@engram/bus";
import { MongoOutbox, type MongoOutboxOptions } from "@engram/bus/mongo";
import { escapeRegex, filterToMongo, type MetadataEntry, metadataEntries, metadataFromEntries } from "@engram/filters";
import { AlreadyExistsError, DOCUMENT_STATUSES, type JsonObject, isFinalStatus, raiseUnavailable } from "@engram/kernel";
import {
  type ClientSession,
  type Collection,
  type Db,
  type Filter,
  ensureIndexes,
  type IndexSpec,
  isDuplicateKeyError,
  ListingCursors,
  listingKey,
  mongoKeysetAfter,
  MongoServerError,
  type Sort,
  withTransaction,
} from "@engram/storage/mongo";
import type { ContainerTagRepository, DocumentListQuery, DocumentListResult, DocumentRepository, DocumentWrite } from "../../app/ports";
import type { ContainerTagMerge, ContainerTagSettings, NamespaceDocumentStats } from "../../domain/container-tag";
import type { DocumentRecord, StoredFile } from "../../domain/document";

/**
 * A document as stored in the `documents` collection. Field names follow the
 * record; `_id` is the document id. Metadata is stored as entries (see
 * `metadataEntries` in @engram/filters) so that any key is safe and every
 * filter kind translates to a query; `group` (caller-chosen keys, never
 * queried) is stored as JSON text. Times are the record's ISO-8601 strings,
 * which sort in time order, exactly as the embedded store compares them.
 */
export type DocumentDoc = Omit<DocumentRecord, "id" | "metadata" | "group"> & {
  _id: string;
  meta?: MetadataEntry[];
  groupJson?: string;
};

export const DOCUMENTS_COLLECTION = "documents";
const CUSTOM_ID_INDEX = "custom_id_unique";

/** Non-final states, for the stale sweep (an `$in` of points lets the index return them in updatedAt order). */
const NON_FINAL = DOCUMENT_STATUSES.filter((s) => !isFinalStatus(s));

/** Drops undefined fields, so nothing depends on the client's ignoreUndefined setting. */
function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

export function toDocumentDoc(d: DocumentRecord): DocumentDoc {
  return compact<DocumentDoc>({
    _id: d.id,
    tenantId: d.tenantId,
    namespace: d.namespace,
    customId: d.customId,
    content: d.content,
    supportingContext: d.supportingContext,
    meta: d.metadata === undefined ? undefined : metadataEntries(d.metadata),
    groupJson: d.group === undefined ? undefined : JSON.stringify(d.group),
    date: d.date,
    filepath: d.filepath,
    status: d.status,
    statusReason: d.statusReason,
    taskType: d.taskType,
    dreaming: d.dreaming,
    sourceKind: d.sourceKind,
    url: d.url,
    title: d.title,
    contentType: d.contentType,
    summary: d.summary,
    file: d.file ? compact({ ...d.file }) : undefined,
    containerTags: d.containerTags?.length ? d.containerTags : undefined,
    connectionId: d.connectionId,
    contentHash: d.contentHash,
    generation: d.generation,
    stateSequence: d.stateSequence,
    requeues: d.requeues,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  });
}

export function fromDocumentDoc(r: DocumentDoc): DocumentRecord {
  const file = r.file
    ? compact<StoredFile>({
        key: r.file.key,
        name: opt(r.file.name),
        mimeType: opt(r.file.mimeType),
        fileType: opt(r.file.fileType),
        sizeBytes: Number(r.file.sizeBytes),
        sha256: r.file.sha256,
      })
    : undefined;
  return {
    id: r._id,
    tenantId: r.tenantId,
    namespace: r.namespace,
    customId: opt(r.customId),
    content: r.content,
    supportingContext: opt(r.supportingContext),
    metadata: r.meta ? metadataFromEntries(r.meta) : undefined,
    group: typeof r.groupJson === "string" ? (JSON.parse(r.groupJson) as JsonObject) : undefined,
    date: opt(r.date),
    filepath: opt(r.filepath),
    status: r.status,
    statusReason: opt(r.statusReason),
    taskType: r.taskType,
    dreaming: r.dreaming,
    sourceKind: r.sourceKind,
    url: opt(r.url),
    title: opt(r.title),
    contentType: opt(r.contentType),
    summary: opt(r.summary),
    contentHash: r.contentHash,
    generation: Number(r.generation),
    stateSequence: Number(r.stateSequence),
    requeues: r.requeues ? Number(r.requeues) : undefined,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    file,
    containerTags: r.containerTags?.length ? r.containerTags : undefined,
    connectionId: opt(r.connectionId),
  };
}

/** The indexes of the documents collection, one per query path (docs/deployment.md, "MongoDB adapters", lists them). */
export const DOCUMENT_INDEXES: IndexSpec[] = [
  // findByCustomId, findByCustomIds, and caller ids unique per namespace.
  {
    name: CUSTOM_ID_INDEX,
    key: { tenantId: 1, namespace: 1, customId: 1 },
    unique: true,
    partialFilterExpression: { customId: { $exists: true } },
  },
  // findByCustomIdInTenant: the newest document with that caller id in the tenant.
  { name: "custom_id_in_tenant", key: { tenantId: 1, customId: 1, updatedAt: -1, _id: -1 }, partialFilterExpression: { customId: { $exists: true } } },
  // list of one or more namespaces, by creation or update time (either order).
  { name: "scope_created", key: { tenantId: 1, namespace: 1, createdAt: 1, _id: 1 } },
  { name: "scope_updated", key: { tenantId: 1, namespace: 1, updatedAt: 1, _id: 1 } },
  // list of the whole tenant (legacy lists without container tags), and bulk deletes by tenant.
  { name: "tenant_created", key: { tenantId: 1, createdAt: 1, _id: 1 } },
  { name: "tenant_updated", key: { tenantId: 1, updatedAt: 1, _id: 1 } },
  // list by status (ListProcessingDocuments: the non-final states, oldest first).
  { name: "tenant_status_created", key: { tenantId: 1, status: 1, createdAt: 1, _id: 1 } },
  // list and bulk delete of one connection's imports (ListConnectionDocuments, connection deletion).
  {
    name: "connection_created",
    key: { tenantId: 1, connectionId: 1, createdAt: 1, _id: 1 },
    partialFilterExpression: { connectionId: { $exists: true } },
  },
  // listStale: non-final documents of every tenant, least recently changed first.
  { name: "stale_by_status", key: { status: 1, updatedAt: 1 } },
  // Metadata filters (`filterToMongo`: one `$elemMatch` on `meta` per condition): multikey on the entries, so a
  // condition's key and value (or number) bound one index scan instead of reading every document of the tenant.
  // ignoreCase and substring conditions use the key prefix.
  { name: "tenant_meta_value", key: { tenantId: 1, "meta.k": 1, "meta.v": 1 } },
  { name: "tenant_meta_number", key: { tenantId: 1, "meta.k": 1, "meta.n": 1 } },
];

const customIdTaken = (err: unknown): boolean =>
  isDuplicateKeyError(err) &&
  err instanceof MongoServerError &&
  ((err.keyPattern as Record<string, unknown> | undefined)?.customId !== undefined || String(err.message).includes(CUSTOM_ID_INDEX));

/** A container tag's settings in MongoDB (`container_tags`, one per tenant and tag). */
export interface ContainerTagDoc extends Omit<ContainerTagSettings, "memoryFilesystemPaths"> {
  _id: string;
  memoryFilesystemPaths: string[] | null;
}
export const CONTAINER_TAGS_COLLECTION = "container_tags";
export const CONTAINER_TAG_MERGES_COLLECTION = "container_tag_merges";
/** A merge job in MongoDB: the job's fields, `_id` its id. */
export type ContainerTagMergeDoc = Omit<ContainerTagMerge, "id"> & { _id: string };
export const CONTAINER_TAG_MERGE_INDEXES: IndexSpec[] = [
  { name: "unfinished", key: { createdAt: 1 }, partialFilterExpression: { status: { $in: ["queued", "running"] } } },
];
const fromMergeDoc = ({ _id, ...m }: ContainerTagMergeDoc): ContainerTagMerge => ({ id: _id, ...m });
export const CONTAINER_TAG_INDEXES: IndexSpec[] = [{ name: "tenant_namespace", key: { tenantId: 1, namespace: 1 }, unique: true }];
const tagDocId = (tenantId: string, namespace: string) => JSON.stringify([tenantId, namespace]);
const fromTagDoc = ({ _id, ...t }: ContainerTagDoc): ContainerTagSettings => ({ ...t, profileBuckets: t.profileBuckets.map((b) => ({ ...b })) });

export interface MongoDocumentRepositoryOptions {
  /** Default `documents`. */
  collection?: string;
  /** Default `container_tags`. */
  tagsCollection?: string;
  /** Default `container_tag_merges`. */
  mergesCollection?: string;
  /** The outbox written in the same transactions (default collection `outbox`). */
  outbox?: MongoOutboxOptions;
}

/**
 * Production document store. Every write runs in one MongoDB transaction
 * (replica set) that stores the document change and the outbox rows of its
 * events. Updates are optimistic (compare-and-set on updatedAt, generation
 * and state sequence, like the embedded store). The connection belongs to
 * the caller: `close` does not close it.
 */
export class MongoDocumentRepository implements DocumentRepository, ContainerTagRepository {
  readonly outbox: MongoOutbox;
  readonly collection: Collection<DocumentDoc>;
  readonly tags: Collection<ContainerTagDoc>;
  readonly merges: Collection<ContainerTagMergeDoc>;
  /** Where recent listing pages ended, and their counts (keyset paging behind the API's pages). */
  private readonly cursors = new ListingCursors<{ value: string; id: string }>();

  constructor(
    private readonly db: Db,
    opts: MongoDocumentRepositoryOptions = {},
  ) {
    this.collection = db.collection<DocumentDoc>(opts.collection ?? DOCUMENTS_COLLECTION);
    this.tags = db.collection<ContainerTagDoc>(opts.tagsCollection ?? CONTAINER_TAGS_COLLECTION);
    this.merges = db.collection<ContainerTagMergeDoc>(opts.mergesCollection ?? CONTAINER_TAG_MERGES_COLLECTION);
    this.outbox = new MongoOutbox(db, opts.outbox);
  }

  /** Creates the collections and indexes of the documents and the outbox (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.db, this.collection.collectionName, DOCUMENT_INDEXES);
    await ensureIndexes(this.db, this.tags.collectionName, CONTAINER_TAG_INDEXES);
    await ensureIndexes(this.db, this.merges.collectionName, CONTAINER_TAG_MERGE_INDEXES);
    await this.outbox.ensureIndexes();
  }

  private tx<T>(fn: (session: ClientSession) => Promise<T>): Promise<T> {
    return withTransaction(this.db.client, fn);
  }

  async ownersOf(ids: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      const part = unique.slice(i, i + 500);
      for (const r of await this.collection.find({ _id: { $in: part } }, { projection: { _id: 1, tenantId: 1 } }).toArray()) out.set(r._id, r.tenantId);
    }
    return out;
  }

  async findById(tenantId: string, id: string): Promise<DocumentRecord | undefined> {
    const r = await this.collection.findOne({ _id: id, tenantId });
    return r ? fromDocumentDoc(r) : undefined;
  }

  async findByCustomId(tenantId: string, namespace: string, customId: string): Promise<DocumentRecord | undefined> {
    const r = await this.collection.findOne({ tenantId, namespace, customId });
    return r ? fromDocumentDoc(r) : undefined;
  }

  async findByCustomIds(tenantId: string, namespace: string, customIds: string[]): Promise<Map<string, DocumentRecord>> {
    const out = new Map<string, DocumentRecord>();
    const unique = [...new Set(customIds)];
    for (let i = 0; i < unique.length; i += 500) {
      const part = unique.slice(i, i + 500);
      for (const r of await this.collection.find({ tenantId, namespace, customId: { $in: part } }).toArray()) out.set(r.customId!, fromDocumentDoc(r));
    }
    return out;
  }

  async findByCustomIdInTenant(tenantId: string, customId: string): Promise<DocumentRecord | undefined> {
    const r = await this.collection.findOne({ tenantId, customId }, { sort: { updatedAt: -1, _id: -1 } });
    return r ? fromDocumentDoc(r) : undefined;
  }

  async insert(doc: DocumentRecord, events: OutgoingMessage[]): Promise<void> {
    try {
      await this.tx(async (session) => {
        await this.collection.insertOne(toDocumentDoc(doc), { session });
        await this.outbox.add(session, events);
      });
    } catch (err) {
      if (customIdTaken(err)) throw new AlreadyExistsError(`a document with id ${doc.customId} already exists in ${doc.namespace}`);
      throw err;
    }
  }

  /** The compare-and-set filter of an optimistic update (the same columns the embedded store compares). */
  private static casFilter(previous: DocumentRecord, next: DocumentRecord): Filter<DocumentDoc> {
    return {
      _id: next.id,
      tenantId: next.tenantId,
      updatedAt: previous.updatedAt,
      generation: previous.generation,
      stateSequence: previous.stateSequence,
    };
  }

  async update(previous: DocumentRecord, next: DocumentRecord, events: OutgoingMessage[]): Promise<boolean> {
    try {
      return await this.tx(async (session) => {
        const res = await this.collection.replaceOne(MongoDocumentRepository.casFilter(previous, next), toDocumentDoc(next), { session });
        if (res.matchedCount !== 1) return false;
        await this.outbox.add(session, events);
        return true;
      });
    } catch (err) {
      if (customIdTaken(err)) throw new AlreadyExistsError(`a document with id ${next.customId} already exists in ${next.namespace}`);
      throw err;
    }
  }

  /**
   * Several writes in one transaction, each applied or refused on its own
   * like the embedded store's savepoints: MongoDB has no savepoints (a failed
   * write aborts the whole transaction), so caller-id conflicts are decided
   * before writing, from the caller ids the writes target as read in the
   * transaction's snapshot and as the earlier writes of the batch change
   * them. Updates run in order (each an optimistic compare-and-set); the
   * accepted inserts follow in one insertMany, and all events in one outbox
   * add, in write order.
   */
  async writeMany(writes: DocumentWrite[]): Promise<boolean[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.tx((session) => this.writeManyTx(writes, session));
      } catch (err) {
        // A caller id committed by a concurrent write after the pre-check read: the next attempt sees it.
        if (attempt < 3 && customIdTaken(err)) continue;
        throw err;
      }
    }
  }

  private async writeManyTx(writes: DocumentWrite[], session: ClientSession): Promise<boolean[]> {
    const slot = (tenantId: string, namespace: string, customId: string) => `${tenantId}\u0000${namespace}\u0000${customId}`;
    // Who holds each caller id the batch targets.
    const holders = new Map<string, string>();
    const wanted = new Map<string, { tenantId: string; namespace: string; customIds: Set<string> }>();
    for (const w of writes) {
      if (w.next.customId === undefined) continue;
      const scope = `${w.next.tenantId}\u0000${w.next.namespace}`;
      let s = wanted.get(scope);
      if (!s) wanted.set(scope, (s = { tenantId: w.next.tenantId, namespace: w.next.namespace, customIds: new Set() }));
      s.customIds.add(w.next.customId);
    }
    if (wanted.size) {
      const or = [...wanted.values()].map((s) => ({ tenantId: s.tenantId, namespace: s.namespace, customId: { $in: [...s.customIds] } }));
      const held = await this.collection.find({ $or: or }, { session, projection: { _id: 1, tenantId: 1, namespace: 1, customId: 1 } }).toArray();
      for (const h of held) holders.set(slot(h.tenantId, h.namespace, h.customId!), h._id);
    }

    const results: boolean[] = [];
    // Accepted inserts by id, in write order (a later write of the batch may update one).
    const inserts = new Map<string, DocumentDoc>();
    const events: OutgoingMessage[] = [];
    for (const w of writes) {
      const target = w.next.customId === undefined ? undefined : slot(w.next.tenantId, w.next.namespace, w.next.customId);
      const holder = target === undefined ? undefined : holders.get(target);
      if (holder !== undefined && holder !== w.next.id) {
        results.push(false);
        continue;
      }
      if (!w.previous) {
        if (inserts.has(w.next.id)) throw new Error(`document ${w.next.id} is inserted twice in one batch`);
        inserts.set(w.next.id, toDocumentDoc(w.next));
      } else {
        const pending = inserts.get(w.next.id);
        let applied: boolean;
        if (pending) {
          const cas = MongoDocumentRepository.casFilter(w.previous, w.next);
          applied =
            pending.tenantId === cas.tenantId &&
            pending.updatedAt === cas.updatedAt &&
            pending.generation === cas.generation &&
            pending.stateSequence === cas.stateSequence;
          if (applied) inserts.set(w.next.id, toDocumentDoc(w.next));
        } else {
          const res = await this.collection.replaceOne(MongoDocumentRepository.casFilter(w.previous, w.next), toDocumentDoc(w.next), { session });
          applied = res.matchedCount === 1;
        }
        if (!applied) {
          results.push(false);
          continue;
        }
        // The caller id the document held before is free for later writes of the batch.
        if (w.previous.customId !== undefined) {
          const before = slot(w.previous.tenantId, w.previous.namespace, w.previous.customId);
          if (holders.get(before) === w.next.id) holders.delete(before);
        }
      }
      if (target !== undefined) holders.set(target, w.next.id);
      events.push(...w.events);
      results.push(true);
    }
    if (inserts.size) await this.collection.insertMany([...inserts.values()], { session, ordered: true });
    await this.outbox.add(session, events);
    return results;
  }

  async delete(docs: DocumentRecord[], events: OutgoingMessage[]): Promise<string[]> {
    const byTenant = new Map<string, string[]>();
    for (const d of docs) {
      const ids = byTenant.get(d.tenantId);
      if (ids) ids.push(d.id);
      else byTenant.set(d.tenantId, [d.id]);
    }
    return this.tx(async (session) => {
      const present = new Set<string>();
      for (const [tenantId, ids] of byTenant) {
        const found = await this.collection.find({ tenantId, _id: { $in: ids } }, { session, projection: { _id: 1 } }).toArray();
        if (found.length === 0) continue;
        await this.collection.deleteMany({ tenantId, _id: { $in: found.map((f) => f._id) } }, { session });
        for (const f of found) present.add(`${tenantId}\u0000${f._id}`);
      }
      const removed: string[] = [];
      for (const d of docs) {
        const k = `${d.tenantId}\u0000${d.id}`;
        if (present.delete(k)) removed.push(d.id);
      }
      const keep = new Set(removed);
      // Only events of documents that were really removed are published.
      await this.outbox.add(
        session,
        events.filter((e) => keep.has(e.key)),
      );
      return removed;
    });
  }

  /** The query of a listing: scope, statuses, connection, filepath and the metadata filter. */
  static listQuery(q: DocumentListQuery): Filter<DocumentDoc> {
    const query: Filter<DocumentDoc> = { tenantId: q.tenantId };
    if (q.namespaces) query.namespace = { $in: q.namespaces };
    if (q.statuses?.length) query.status = { $in: q.statuses };
    if (q.connectionId !== undefined) query.connectionId = q.connectionId;
    if (q.filepath) query.filepath = q.filepath.endsWith("/") ? { $regex: `^${escapeRegex(q.filepath)}` } : q.filepath;
    if (q.filter) query.$and = [filterToMongo(q.filter, "meta") as Filter<DocumentDoc>];
    return query;
  }

  async list(q: DocumentListQuery): Promise<DocumentListResult> {
    if (q.namespaces && q.namespaces.length === 0) return { items: [], total: 0 };
    const query = MongoDocumentRepository.listQuery(q);
    const dir: 1 | -1 = q.order === "asc" ? 1 : -1;
    const field = q.sort === "updatedAt" ? "updatedAt" : "createdAt";
    const sort: Sort = { [field]: dir, _id: dir };
    // Keyset paging (see ListingCursors): the page continues from where the previous one ended; the count is taken
    // on the first page and reported by the later ones.
    const listing = listingKey([query, field, dir, q.limit]);
    let total = this.cursors.total(listing, q.offset);
    if (total === undefined) this.cursors.rememberTotal(listing, (total = await this.collection.countDocuments(query)));
    if (q.limit <= 0 || q.offset >= total) return { items: [], total, ...(q.withoutContent ? { contentBytes: [] } : {}) };
    const after = this.cursors.position(listing, q.offset);
    const match: Filter<DocumentDoc> = after ? { $and: [query, mongoKeysetAfter(field, dir, after) as Filter<DocumentDoc>] } : query;
    const skip = after ? 0 : q.offset;
    let rows: (DocumentDoc & { contentBytes?: number })[];
    if (q.withoutContent) {
      // The server measures the content and leaves it out: the page crosses the wire without it.
      rows = await this.collection
        .aggregate<DocumentDoc & { contentBytes: number }>([
          { $match: match },
          { $sort: sort },
          ...(skip ? [{ $skip: skip }] : []),
          { $limit: q.limit },
          { $set: { contentBytes: { $strLenBytes: "$content" }, content: "" } },
        ])
        .toArray();
    } else {
      rows = await this.collection.find(match, { sort, ...(skip ? { skip } : {}), limit: q.limit }).toArray();
    }
    const last = rows[rows.length - 1];
    if (last && rows.length === q.limit) this.cursors.rememberPosition(listing, q.offset + q.limit, { value: last[field], id: last._id });
    const items = rows.map(fromDocumentDoc);
    return q.withoutContent ? { items, total, contentBytes: rows.map((r) => Number(r.contentBytes)) } : { items, total };
  }

  async contents(tenantId: string, ids: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      const cursor = this.collection.find({ _id: { $in: unique.slice(i, i + 500) }, tenantId }, { projection: { _id: 1, content: 1 } });
      for await (const r of cursor) out.set(r._id, r.content);
    }
    return out;
  }

  async listStale(olderThan: string, limit: number): Promise<DocumentRecord[]> {
    if (limit <= 0) return [];
    const rows = await this.collection.find({ status: { $in: NON_FINAL }, updatedAt: { $lt: olderThan } }, { sort: { updatedAt: 1, _id: 1 }, limit }).toArray();
    return rows.map(fromDocumentDoc);
  }

  async getTag(tenantId: string, namespace: string): Promise<ContainerTagSettings | undefined> {
    const d = await this.tags.findOne({ _id: tagDocId(tenantId, namespace), tenantId });
    return d ? fromTagDoc(d) : undefined;
  }

  async listTags(tenantId: string): Promise<ContainerTagSettings[]> {
    return (await this.tags.find({ tenantId }, { sort: { namespace: 1 } }).toArray()).map(fromTagDoc);
  }

  async putTag(t: ContainerTagSettings): Promise<void> {
    const { createdAt, ...rest } = t;
    await this.tags.updateOne({ _id: tagDocId(t.tenantId, t.namespace) }, { $set: rest, $setOnInsert: { createdAt } }, { upsert: true });
  }

  async deleteTag(tenantId: string, namespace: string): Promise<boolean> {
    return (await this.tags.deleteOne({ _id: tagDocId(tenantId, namespace), tenantId })).deletedCount > 0;
  }

  async namespaceStats(tenantId: string, namespace?: string): Promise<NamespaceDocumentStats[]> {
    // scope_created (tenantId, namespace, createdAt) serves the match and the grouping.
    const rows = await this.collection
      .aggregate<{ _id: string; n: number; first: string; last: string }>([
        { $match: { tenantId, ...(namespace !== undefined ? { namespace } : {}) } },
        { $group: { _id: "$namespace", n: { $sum: 1 }, first: { $min: "$createdAt" }, last: { $max: "$updatedAt" } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    return rows.map((r) => ({ namespace: r._id, documentCount: r.n, firstCreatedAt: r.first, lastUpdatedAt: r.last }));
  }

  async putMerge(m: ContainerTagMerge): Promise<void> {
    const { id, ...rest } = m;
    // Cleared fields (a lease once finished) are left out, as the embedded store's JSON leaves them.
    await this.merges.replaceOne({ _id: id }, Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as typeof rest, { upsert: true });
  }

  async getMerge(tenantId: string, id: string): Promise<ContainerTagMerge | undefined> {
    const d = await this.merges.findOne({ _id: id, tenantId });
    return d ? fromMergeDoc(d) : undefined;
  }

  async unfinishedMerges(limit: number): Promise<ContainerTagMerge[]> {
    return (await this.merges.find({ status: { $in: ["queued", "running"] } }, { sort: { createdAt: 1 }, limit }).toArray()).map(fromMergeDoc);
  }

  async claimMerge(tenantId: string, id: string, holder: string, now: string, until: string): Promise<ContainerTagMerge | undefined> {
    const d = await this.merges.findOneAndUpdate(
      {
        _id: id,
        tenantId,
        $or: [{ status: "queued" }, { status: "running", $or: [{ leaseHolder: holder }, { leaseUntil: { $exists: false } }, { leaseUntil: { $lte: now } }] }],
      },
      { $set: { status: "running", leaseHolder: holder, leaseUntil: until, updatedAt: now } },
      { returnDocument: "after" },
    );
    return d ? fromMergeDoc(d) : undefined;
  }

  async close(): Promise<void> {}
}

/**
 * The ingestion document store on MongoDB: creates the collections and
 * indexes (documents and outbox), then returns the repository. Publish its
 * outbox with `new MongoOutboxRelay("ingestion", repo.outbox, bus, log, { idleMs: 500 })`.
 */
export async function createMongoDocumentRepository(db: Db, opts: MongoDocumentRepositoryOptions = {}): Promise<MongoDocumentRepository> {
  const repo = new MongoDocumentRepository(db, opts);
  await repo.ensureIndexes();
  // Outages of MongoDB (no primary, refused connections, timeouts) reach callers as UnavailableError (503).
  return raiseUnavailable(repo, "MongoDB");
}
