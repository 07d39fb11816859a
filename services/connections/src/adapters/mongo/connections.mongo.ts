import {
  AlreadyExistsError,
  ConflictError,
  FailedPreconditionError,
  InvalidArgumentError,
  type JsonObject,
  NotFoundError,
  raiseUnavailable,
} from "@engram/kernel";
import {
  type AnyBulkWriteOperation,
  type Binary,
  type Collection,
  type Db,
  ensureIndexes,
  type IndexSpec,
  isDuplicateKeyError,
  withTransaction,
} from "@engram/storage/mongo";
import {
  type ConnectionListFilter,
  type ConnectionRepository,
  ACCOUNT_MATCH_LIMIT,
  DELIVERY_MEMORY_MS,
  type DueConnection,
  type Page,
  type SyncPage,
  validateSyncPage,
  checkRequestTrigger,
  type RequestTrigger,
  requestTrigger,
} from "../../app/connection-ports";
import {
  abandonSyncRun,
  compact,
  type Connection,
  type ConnectionItem,
  type ConnectionMetadata,
  type ConnectionProvider,
  CONNECTION_STATUSES,
  type Lease,
  nextSyncAt,
  type SyncRun,
  validateItem,
  validateLease,
} from "../../domain/connection";
// The meta collection is shared with the settings store; each store keeps its key fingerprint under its own `_id`.
import { CONNECTIONS_META_COLLECTION } from "./settings.mongo";

/**
 * A connection as stored in `connections`: the record's fields, `_id` = the
 * connection id. Metadata and config are stored as JSON text, since their
 * keys are the caller's (a key with '.' or a leading '$' is safe that way);
 * credentials are sealed bytes only. The sync lease lives in the same
 * document (`leaseHolder`, `leaseExpiresMs` in epoch milliseconds) so that
 * taking it is one conditional single-document update; `pageAppliedAt` is
 * written by every applied sync page so that a page and a concurrent lease
 * takeover always conflict. `lastSyncStartedAt` and `nextSyncAt` schedule
 * the connection's syncs (see dueForSync); absent only on documents written
 * before they existed, until ensureIndexes fills them in. `syncRequestedDue`
 * and `syncRequestedLast` are the pending sync request (requestSync), both
 * absent when there is none.
 */
export type ConnectionDoc = Omit<Connection, "id" | "metadata" | "config" | "sealedCredentials"> & {
  _id: string;
  metadataJson: string;
  configJson?: string;
  sealedCredentials?: Binary | Uint8Array;
  leaseHolder?: string | null;
  leaseExpiresMs?: number;
  pageAppliedAt?: Date;
  /** Start of the most recent finished run (ISO); absent (never null) while none finished. */
  lastSyncStartedAt?: string | null;
  /**
   * When the next sync is due (ISO): the earlier of domain `nextSyncAt` and `syncRequestedDue`; null is only queried for
   * (documents to fill in).
   */
  nextSyncAt?: string | null;
  /** When the pending sync request is due (ISO): the earliest `dueAt` of the requests since the last settling run. */
  syncRequestedDue?: string | null;
  /** The latest `eventAt` of the pending sync request (ISO). */
  syncRequestedLast?: string | null;
  /** What made the pending request (manual, scheduled or webhook); absent when none is pending (or from before it was kept). */
  syncRequestedTrigger?: string | null;
};

/** A ledger item as stored in `connection_items` (ObjectId `_id`; unique per connection and item key). */
export type ConnectionItemDoc = ConnectionItem & { tenantId: string };

/** A sync run as stored in `sync_runs`, `_id` = the run id. */
export type SyncRunDoc = Omit<SyncRun, "id"> & { _id: string };

/** A remembered webhook delivery id as stored in `webhook_deliveries` (ObjectId `_id`); `receivedAt` a date, for the TTL index. */
export interface WebhookDeliveryDoc {
  tenantId: string;
  connectionId: string;
  deliveryId: string;
  receivedAt: Date;
}

interface MetaDoc {
  _id: string;
  value: string;
}

export const CONNECTIONS_COLLECTION = "connections";
export const CONNECTION_ITEMS_COLLECTION = "connection_items";
export const SYNC_RUNS_COLLECTION = "sync_runs";
export const WEBHOOK_DELIVERIES_COLLECTION = "webhook_deliveries";
const CREDENTIALS_KEY_ID = "connection_credentials_key_id";

/**
 * The indexes, one per query path (every query starts with the tenant):
 *
 * connections
 * - `_id` (built in): get, update, delete, leases, applySyncPage (with tenantId in the filter).
 * - `tenant_created`: list of the tenant, newest first.
 * - `tenant_provider_created`: list by provider; findByProviderAndTags (tags checked on the provider's few connections).
 * - `tenant_namespace_created`: list by namespace.
 * - `tenant_tags` (multikey): list by container tags.
 * - `due` (status, nextSyncAt, _id): dueForSync across tenants, an equality
 *   on status then a range on nextSyncAt, already in the order asked for
 *   (no in-memory sort); expiry, the lease and the providers are checked on
 *   the documents that range holds, which are only the ones already due.
 *   Also finds the documents ensureIndexes has to fill in (nextSyncAt null).
 * connection_items
 * - `connection_item` (unique): upsert, remove, getItems, listItemKeys (keyset by itemKey), countItems, delete of a connection.
 * - `connection_document`: documentIds (covered: distinct documentId of one connection).
 * sync_runs
 * - `_id` (built in): getRun, finishRun.
 * - `connection_started`: lastRun, lastRuns ($sort + $group $first), listRuns, pruneRuns, delete of a connection.
 * - `connection_running` (partial: status running): startRun closing abandoned runs.
 * webhook_deliveries
 * - `connection_delivery` (unique): recordDelivery (the insert that only one of concurrent calls wins; the forgetting of
 *   an expired id), delete of a connection.
 * - `received_ttl` (TTL, DELIVERY_MEMORY_MS): the server forgets ids once the memory has passed.
 *
 * bindSecretKey counts sealed credentials with a collection scan once at
 * start, as the settings store does.
 */
export const CONNECTION_INDEXES: IndexSpec[] = [
  { name: "tenant_created", key: { tenantId: 1, createdAt: -1, _id: -1 } },
  { name: "tenant_provider_created", key: { tenantId: 1, provider: 1, createdAt: -1, _id: -1 } },
  { name: "tenant_namespace_created", key: { tenantId: 1, namespace: 1, createdAt: -1, _id: -1 } },
  { name: "tenant_tags", key: { tenantId: 1, containerTags: 1 } },
  { name: "due", key: { status: 1, nextSyncAt: 1, _id: 1 } },
  { name: "provider_account", key: { provider: 1, account: 1, createdAt: -1, _id: -1 }, partialFilterExpression: { account: { $type: "string" } } },
];
export const CONNECTION_ITEM_INDEXES: IndexSpec[] = [
  { name: "connection_item", key: { tenantId: 1, connectionId: 1, itemKey: 1 }, unique: true },
  { name: "connection_document", key: { tenantId: 1, connectionId: 1, documentId: 1 } },
];
export const SYNC_RUN_INDEXES: IndexSpec[] = [
  { name: "connection_started", key: { tenantId: 1, connectionId: 1, startedAt: -1, _id: -1 } },
  { name: "connection_running", key: { tenantId: 1, connectionId: 1 }, partialFilterExpression: { status: "running" } },
];
export const WEBHOOK_DELIVERY_INDEXES: IndexSpec[] = [
  { name: "connection_delivery", key: { connectionId: 1, deliveryId: 1 }, unique: true },
  { name: "received_ttl", key: { receivedAt: 1 }, expireAfterSeconds: DELIVERY_MEMORY_MS / 1000 },
];

const bytesOf = (v: Binary | Uint8Array): Uint8Array => (v instanceof Uint8Array ? new Uint8Array(v) : new Uint8Array(v.value()));
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;
const RUNS_NEWEST_FIRST = { startedAt: -1, _id: -1 } as const;
const DUE_FIRST = { nextSyncAt: 1, _id: 1 } as const;
/** Tries of a due-time write that lost a race with another writer (update, finishRun or requestSync). */
const RESCHEDULE_ATTEMPTS = 5;
/** The longest webhook delivery id remembered (recordDelivery). */
const MAX_DELIVERY_ID = 200;

const isoOf = (v: string) => new Date(Date.parse(v)).toISOString();
/** The earlier of two ISO times (text order is time order), the second possibly absent. */
const earliest = (a: string, b: string | null | undefined) => (typeof b === "string" && b < a ? b : a);

/** The time as stored (ISO); InvalidArgumentError when it is not a valid date. */
function isoTime(d: Date, field: string): string {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new InvalidArgumentError(`${field} must be a valid date`);
  return d.toISOString();
}

/** What a connection's due time depends on, from its stored document. */
const scheduleInputs = (d: Pick<ConnectionDoc, "provider" | "configJson" | "createdAt">) => ({
  provider: d.provider,
  config: typeof d.configJson === "string" ? (JSON.parse(d.configJson) as JsonObject) : undefined,
  createdAt: d.createdAt,
});

/** A new connection's document: never synced, so due from its creation. */
export function toConnectionDoc(c: Connection): ConnectionDoc {
  return compact<ConnectionDoc>({
    _id: c.id,
    tenantId: c.tenantId,
    provider: c.provider,
    namespace: c.namespace,
    containerTags: [...c.containerTags],
    documentLimit: c.documentLimit,
    metadataJson: JSON.stringify(c.metadata),
    status: c.status,
    email: c.email,
    account: c.account,
    expiresAt: c.expiresAt,
    sealedCredentials: c.sealedCredentials === undefined ? undefined : Buffer.from(c.sealedCredentials),
    cursor: c.cursor,
    configJson: c.config === undefined ? undefined : JSON.stringify(c.config),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    revision: c.revision,
    nextSyncAt: nextSyncAt(c, undefined),
  });
}

export function fromConnectionDoc(d: ConnectionDoc): Connection {
  return compact<Connection>({
    id: d._id,
    tenantId: d.tenantId,
    provider: d.provider as ConnectionProvider,
    namespace: d.namespace,
    containerTags: [...d.containerTags],
    documentLimit: d.documentLimit === undefined || d.documentLimit === null ? undefined : Number(d.documentLimit),
    metadata: JSON.parse(d.metadataJson) as ConnectionMetadata,
    status: d.status,
    email: d.email ?? undefined,
    account: d.account ?? undefined,
    expiresAt: d.expiresAt ?? undefined,
    sealedCredentials: d.sealedCredentials ? bytesOf(d.sealedCredentials) : undefined,
    cursor: d.cursor ?? undefined,
    config: typeof d.configJson === "string" ? (JSON.parse(d.configJson) as JsonObject) : undefined,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    revision: Number(d.revision),
  });
}

function fromItemDoc(d: ConnectionItemDoc): ConnectionItem {
  return compact<ConnectionItem>({
    connectionId: d.connectionId,
    itemKey: d.itemKey,
    documentId: d.documentId,
    version: d.version,
    url: d.url ?? undefined,
    state: d.state ?? undefined,
    updatedAt: d.updatedAt,
  });
}

function toRunDoc(r: SyncRun): SyncRunDoc {
  const { id, ...rest } = r;
  return compact<SyncRunDoc>({ _id: id, ...rest, itemFailures: { count: r.itemFailures.count, samples: r.itemFailures.samples.map((s) => ({ ...s })) } });
}

function fromRunDoc(d: SyncRunDoc): SyncRun {
  return compact<SyncRun>({
    id: d._id,
    tenantId: d.tenantId,
    connectionId: d.connectionId,
    trigger: d.trigger,
    status: d.status,
    errorCode: d.errorCode ?? undefined,
    error: d.error ?? undefined,
    startedAt: d.startedAt,
    completedAt: d.completedAt ?? undefined,
    documentsImported: Number(d.documentsImported),
    itemFailures: { count: Number(d.itemFailures.count), samples: d.itemFailures.samples.map((s) => ({ itemKey: s.itemKey, reason: s.reason })) },
  });
}

function positive(n: number, field: string): number {
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${field} must be a positive integer`);
  return n;
}

export interface MongoConnectionRepositoryOptions {
  /** Default `connections`. */
  connections?: string;
  /** Default `connection_items`. */
  items?: string;
  /** Default `sync_runs`. */
  runs?: string;
  /** Default `webhook_deliveries`. */
  deliveries?: string;
  /** Default `connections_meta` (the credentials key's fingerprint). */
  metaCollection?: string;
}

/**
 * Production connection store. Single-document conditional updates give the
 * lease and the optimistic `update` their atomicity; `applySyncPage` is one
 * multi-document transaction (a replica set, as the settings store already
 * needs). `delete` removes the items and runs first and the connection last,
 * without a transaction (a ledger may hold more items than one transaction
 * should): a delete that fails midway leaves the connection visible, and
 * repeating it completes it. The MongoDB connection belongs to the caller:
 * `close` does not close it.
 *
 * Scheduled syncs: each connection document keeps `nextSyncAt` (domain
 * `nextSyncAt`: the start of its most recent finished run, `lastSyncStartedAt`,
 * plus the provider's interval; its creation time while no run finished),
 * so that dueForSync is one range of the `due` index in due order. The due
 * time could not be computed at query time from `sync_runs` without grouping
 * every connection's runs, and a per-provider, per-config cut-off is no index
 * bound. It has two inputs that change apart: the config (through `update`,
 * which moves the revision) and the last finished run (through finishRun,
 * which must not move the revision, or a sync finishing would make a
 * concurrent delete or re-authorization fail with a conflict). So each of
 * the two writers reads both, computes the due time, and writes it
 * conditionally on both being unchanged, trying again when only the other
 * input moved: single-document conditional writes, no transaction. finishRun
 * stores the run first and the due time second; a crash between them leaves
 * the connection due and it syncs once more, which is the safe side.
 */
export class MongoConnectionRepository implements ConnectionRepository {
  readonly connections: Collection<ConnectionDoc>;
  readonly items: Collection<ConnectionItemDoc>;
  readonly runs: Collection<SyncRunDoc>;
  readonly deliveries: Collection<WebhookDeliveryDoc>;
  readonly meta: Collection<MetaDoc>;

  constructor(
    private readonly db: Db,
    opts: MongoConnectionRepositoryOptions = {},
  ) {
    this.connections = db.collection<ConnectionDoc>(opts.connections ?? CONNECTIONS_COLLECTION);
    this.items = db.collection<ConnectionItemDoc>(opts.items ?? CONNECTION_ITEMS_COLLECTION);
    this.runs = db.collection<SyncRunDoc>(opts.runs ?? SYNC_RUNS_COLLECTION);
    this.deliveries = db.collection<WebhookDeliveryDoc>(opts.deliveries ?? WEBHOOK_DELIVERIES_COLLECTION);
    this.meta = db.collection<MetaDoc>(opts.metaCollection ?? CONNECTIONS_META_COLLECTION);
  }

  /**
   * Creates the collections and their indexes (see CONNECTION_INDEXES and
   * the others) and fills in the due time of connections stored before it
   * existed; idempotent.
   */
  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.db, this.connections.collectionName, CONNECTION_INDEXES);
    await ensureIndexes(this.db, this.items.collectionName, CONNECTION_ITEM_INDEXES);
    await ensureIndexes(this.db, this.runs.collectionName, SYNC_RUN_INDEXES);
    await ensureIndexes(this.db, this.deliveries.collectionName, WEBHOOK_DELIVERY_INDEXES);
    await ensureIndexes(this.db, this.meta.collectionName, []);
    await this.backfillSchedule();
  }

  async create(c: Connection): Promise<Connection> {
    try {
      await this.connections.insertOne(toConnectionDoc(c));
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new AlreadyExistsError(`connection ${c.id} already exists`);
      throw err;
    }
    return (await this.get(c.tenantId, c.id))!;
  }

  async get(tenantId: string, id: string): Promise<Connection | undefined> {
    const d = await this.connections.findOne({ _id: id, tenantId });
    return d ? fromConnectionDoc(d) : undefined;
  }

  async list(tenantId: string, filter: ConnectionListFilter = {}): Promise<Connection[]> {
    const docs = await this.connections
      .find({
        tenantId,
        ...(filter.provider !== undefined ? { provider: filter.provider } : {}),
        ...(filter.namespace !== undefined ? { namespace: filter.namespace } : {}),
        ...(filter.containerTags?.length ? { containerTags: { $in: filter.containerTags } } : {}),
      })
      .sort(NEWEST_FIRST)
      .toArray();
    return docs.map(fromConnectionDoc);
  }

  async findByProviderAndTags(tenantId: string, provider: ConnectionProvider, containerTags: string[]): Promise<Connection[]> {
    if (containerTags.length === 0) return [];
    const docs = await this.connections
      .find({ tenantId, provider, containerTags: { $all: containerTags } })
      .sort(NEWEST_FIRST)
      .toArray();
    return docs.map(fromConnectionDoc);
  }

  async findByAccount(provider: ConnectionProvider, account: string): Promise<Connection[]> {
    const docs = await this.connections.find({ provider, account }).sort(NEWEST_FIRST).limit(ACCOUNT_MATCH_LIMIT).toArray();
    return docs.map(fromConnectionDoc);
  }

  async update(next: Connection): Promise<Connection> {
    const $set: Partial<ConnectionDoc> = { status: next.status, updatedAt: next.updatedAt };
    const $unset: Record<string, ""> = {};
    const setOrUnset = <K extends keyof ConnectionDoc>(k: K, v: ConnectionDoc[K] | undefined) => {
      if (v === undefined) $unset[k] = "";
      else $set[k] = v;
    };
    setOrUnset("email", next.email);
    setOrUnset("account", next.account);
    setOrUnset("expiresAt", next.expiresAt);
    setOrUnset("sealedCredentials", next.sealedCredentials === undefined ? undefined : Buffer.from(next.sealedCredentials));
    setOrUnset("configJson", next.config === undefined ? undefined : JSON.stringify(next.config));
    setOrUnset("documentLimit", next.documentLimit);
    // The due time follows the new config, the last finished run and the pending sync request: written only while the run
    // and the request read are still the stored ones (finishRun and requestSync move them without the revision), and
    // computed again when they moved.
    for (let attempt = 1; ; attempt++) {
      const cur = await this.connections.findOne(
        { _id: next.id, tenantId: next.tenantId },
        { projection: { revision: 1, provider: 1, createdAt: 1, lastSyncStartedAt: 1, syncRequestedDue: 1 } },
      );
      if (!cur) throw new NotFoundError(`connection ${next.id} not found`);
      if (Number(cur.revision) !== next.revision || attempt > RESCHEDULE_ATTEMPTS) {
        throw new ConflictError(
          `connection ${next.id} changed concurrently`,
          `stored revision ${cur.revision}, expected ${next.revision}; read it again and retry`,
        );
      }
      $set.nextSyncAt = earliest(
        nextSyncAt({ provider: cur.provider, config: next.config, createdAt: cur.createdAt }, cur.lastSyncStartedAt ?? undefined),
        cur.syncRequestedDue,
      );
      const d = await this.connections.findOneAndUpdate(
        {
          _id: next.id,
          tenantId: next.tenantId,
          revision: next.revision,
          lastSyncStartedAt: cur.lastSyncStartedAt ?? null,
          syncRequestedDue: cur.syncRequestedDue ?? null,
        },
        { $set, ...(Object.keys($unset).length ? { $unset } : {}), $inc: { revision: 1 } },
        { returnDocument: "after" },
      );
      if (d) return fromConnectionDoc(d);
    }
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    if (!(await this.exists(tenantId, id))) return false;
    await this.items.deleteMany({ tenantId, connectionId: id });
    await this.runs.deleteMany({ tenantId, connectionId: id });
    await this.deliveries.deleteMany({ tenantId, connectionId: id });
    return (await this.connections.deleteOne({ _id: id, tenantId })).deletedCount === 1;
  }

  // --- sync runs -----------------------------------------------------------

  async startRun(run: SyncRun): Promise<SyncRun> {
    if (run.status !== "running") throw new InvalidArgumentError(`a started run must be running, not ${run.status}`);
    await this.requireConnection(run.tenantId, run.connectionId);
    const running = await this.runs.find({ tenantId: run.tenantId, connectionId: run.connectionId, status: "running" }).toArray();
    for (const r of running) {
      const { _id, ...closed } = toRunDoc(abandonSyncRun(fromRunDoc(r), run.startedAt));
      await this.runs.replaceOne({ _id, tenantId: run.tenantId, status: "running" }, closed);
    }
    try {
      await this.runs.insertOne(toRunDoc(run));
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new AlreadyExistsError(`sync run ${run.id} already exists`);
      throw err;
    }
    return (await this.getRun(run.tenantId, run.id))!;
  }

  async finishRun(run: SyncRun): Promise<SyncRun> {
    if (run.status === "running") throw new InvalidArgumentError("finishRun needs a finished run (finishSyncRun)");
    const { _id, ...finished } = toRunDoc(run);
    const res = await this.runs.replaceOne({ _id, tenantId: run.tenantId, connectionId: run.connectionId, status: "running" }, finished);
    if (res.matchedCount === 0) {
      const cur = await this.runs.findOne({ _id, tenantId: run.tenantId, connectionId: run.connectionId });
      if (!cur) throw new NotFoundError(`sync run ${run.id} not found`);
      throw new FailedPreconditionError(`sync run ${run.id} already finished (${cur.status})`);
    }
    await this.reschedule(run.tenantId, run.connectionId, run.startedAt, run.completedAt);
    return (await this.getRun(run.tenantId, run.id))!;
  }

  async getRun(tenantId: string, runId: string): Promise<SyncRun | undefined> {
    const d = await this.runs.findOne({ _id: runId, tenantId });
    return d ? fromRunDoc(d) : undefined;
  }

  async lastRun(tenantId: string, connectionId: string): Promise<SyncRun | undefined> {
    const d = await this.runs.find({ tenantId, connectionId }).sort(RUNS_NEWEST_FIRST).limit(1).next();
    return d ? fromRunDoc(d) : undefined;
  }

  async lastRuns(tenantId: string, connectionIds: string[]): Promise<Map<string, SyncRun>> {
    const out = new Map<string, SyncRun>();
    if (connectionIds.length === 0) return out;
    const rows = await this.runs
      .aggregate<{ _id: string; run: SyncRunDoc }>([
        { $match: { tenantId, connectionId: { $in: [...new Set(connectionIds)] } } },
        { $sort: { tenantId: 1, connectionId: 1, startedAt: -1, _id: -1 } },
        { $group: { _id: "$connectionId", run: { $first: "$$ROOT" } } },
      ])
      .toArray();
    for (const r of rows) out.set(r._id, fromRunDoc(r.run));
    return out;
  }

  async listRuns(tenantId: string, connectionId: string, limit: number): Promise<SyncRun[]> {
    const docs = await this.runs.find({ tenantId, connectionId }).sort(RUNS_NEWEST_FIRST).limit(positive(limit, "limit")).toArray();
    return docs.map(fromRunDoc);
  }

  async pruneRuns(tenantId: string, connectionId: string, keep: number): Promise<number> {
    if (!Number.isInteger(keep) || keep < 0) throw new InvalidArgumentError("keep must be a non-negative integer");
    const old = await this.runs
      .find({ tenantId, connectionId }, { projection: { _id: 1 } })
      .sort(RUNS_NEWEST_FIRST)
      .skip(keep)
      .toArray();
    if (old.length === 0) return 0;
    return (await this.runs.deleteMany({ tenantId, connectionId, _id: { $in: old.map((d) => d._id) } })).deletedCount;
  }

  // --- item ledger ---------------------------------------------------------

  async upsertItem(tenantId: string, item: ConnectionItem): Promise<void> {
    validateItem(item);
    await this.requireConnection(tenantId, item.connectionId);
    await this.items.bulkWrite([itemUpsert(tenantId, item)]);
  }

  async removeItem(tenantId: string, connectionId: string, itemKey: string): Promise<ConnectionItem | undefined> {
    const d = await this.items.findOneAndDelete({ tenantId, connectionId, itemKey });
    return d ? fromItemDoc(d) : undefined;
  }

  async getItems(tenantId: string, connectionId: string, itemKeys: string[]): Promise<Map<string, ConnectionItem>> {
    const out = new Map<string, ConnectionItem>();
    if (itemKeys.length === 0) return out;
    for (const d of await this.items.find({ tenantId, connectionId, itemKey: { $in: itemKeys } }).toArray()) out.set(d.itemKey, fromItemDoc(d));
    return out;
  }

  async listItemKeys(tenantId: string, connectionId: string, opts: { after?: string; limit: number }): Promise<Page<string>> {
    const limit = positive(opts.limit, "limit");
    const docs = await this.items
      .find({ tenantId, connectionId, ...(opts.after !== undefined ? { itemKey: { $gt: opts.after } } : {}) }, { projection: { _id: 0, itemKey: 1 } })
      .sort({ itemKey: 1 })
      .limit(limit + 1)
      .toArray();
    const items = docs.slice(0, limit).map((d) => d.itemKey);
    return docs.length > limit ? { items, next: items[items.length - 1]! } : { items };
  }

  async documentIds(tenantId: string, connectionId: string): Promise<string[]> {
    const ids = (await this.items.distinct("documentId", { tenantId, connectionId })) as string[];
    return ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  async countItems(tenantId: string, connectionId: string): Promise<number> {
    return this.items.countDocuments({ tenantId, connectionId });
  }

  async applySyncPage(tenantId: string, connectionId: string, page: SyncPage): Promise<void> {
    const upserts = validateSyncPage(connectionId, page);
    const ops: AnyBulkWriteOperation<ConnectionItemDoc>[] = [
      ...upserts.map((item) => itemUpsert(tenantId, item)),
      ...(page.removals ?? []).map((itemKey) => ({ deleteOne: { filter: { tenantId, connectionId, itemKey } } })),
    ];
    await withTransaction(this.db.client, async (session) => {
      // The lease check and a write to the connection first: a concurrent takeover of the lease then conflicts with this transaction.
      const res = await this.connections.updateOne(
        { _id: connectionId, tenantId, leaseHolder: page.holder, leaseExpiresMs: { $gt: page.now.getTime() } },
        {
          $set: { pageAppliedAt: page.now, ...(typeof page.cursor === "string" ? { cursor: page.cursor } : {}) },
          ...(page.cursor === null ? { $unset: { cursor: "" as const } } : {}),
        },
        { session },
      );
      if (res.matchedCount === 0) {
        if (!(await this.connections.findOne({ _id: connectionId, tenantId }, { projection: { _id: 1 }, session })))
          throw new NotFoundError(`connection ${connectionId} not found`);
        throw new FailedPreconditionError(
          `the sync lease of connection ${connectionId} is not held by ${page.holder}`,
          "nothing was applied; acquire the lease again",
        );
      }
      if (ops.length) await this.items.bulkWrite(ops, { session, ordered: true });
    });
  }

  // --- leases --------------------------------------------------------------

  async tryAcquireLease(tenantId: string, connectionId: string, holder: string, ttlMs: number, now: Date): Promise<Lease | undefined> {
    validateLease(holder, ttlMs);
    const expires = now.getTime() + ttlMs;
    const d = await this.connections.findOneAndUpdate(
      { _id: connectionId, tenantId, $or: [{ leaseHolder: null }, { leaseExpiresMs: { $lte: now.getTime() } }, { leaseHolder: holder }] },
      { $set: { leaseHolder: holder, leaseExpiresMs: expires } },
      { projection: { _id: 1 } },
    );
    if (d) return { connectionId, holder, expiresAt: new Date(expires).toISOString() };
    if (!(await this.exists(tenantId, connectionId))) throw new NotFoundError(`connection ${connectionId} not found`);
    return undefined;
  }

  async renewLease(tenantId: string, connectionId: string, holder: string, ttlMs: number, now: Date): Promise<Lease | undefined> {
    validateLease(holder, ttlMs);
    const expires = now.getTime() + ttlMs;
    const res = await this.connections.updateOne(
      { _id: connectionId, tenantId, leaseHolder: holder, leaseExpiresMs: { $gt: now.getTime() } },
      { $set: { leaseExpiresMs: expires } },
    );
    return res.matchedCount === 1 ? { connectionId, holder, expiresAt: new Date(expires).toISOString() } : undefined;
  }

  async releaseLease(tenantId: string, connectionId: string, holder: string): Promise<boolean> {
    const res = await this.connections.updateOne({ _id: connectionId, tenantId, leaseHolder: holder }, { $unset: { leaseHolder: "", leaseExpiresMs: "" } });
    return res.matchedCount === 1;
  }

  // --- scheduled syncs -----------------------------------------------------

  async dueForSync(now: Date, opts: { limit: number; providers?: readonly ConnectionProvider[] }): Promise<DueConnection[]> {
    const limit = positive(opts.limit, "limit");
    if (opts.providers?.length === 0) return [];
    const at = now.toISOString();
    const docs = await this.connections
      .find(
        {
          status: "active",
          nextSyncAt: { $lte: at },
          ...(opts.providers ? { provider: { $in: [...opts.providers] } } : {}),
          // No expiry, or a later one ($not also matches an absent field).
          expiresAt: { $not: { $lte: at } },
          // Nobody syncing it: the lease tryAcquireLease would grant.
          $or: [{ leaseHolder: null }, { leaseExpiresMs: { $lte: now.getTime() } }],
        },
        { projection: { _id: 1, tenantId: 1, provider: 1, nextSyncAt: 1, syncRequestedDue: 1, syncRequestedTrigger: 1 } },
      )
      .sort(DUE_FIRST)
      .limit(limit)
      .toArray();
    return docs.map((d) => ({
      tenantId: d.tenantId,
      connectionId: d._id,
      provider: d.provider,
      dueAt: d.nextSyncAt!,
      requested: typeof d.syncRequestedDue === "string" && d.syncRequestedDue <= at,
      ...(typeof d.syncRequestedDue === "string" && d.syncRequestedDue <= at ? { requestedBy: requestTrigger(d.syncRequestedTrigger) } : {}),
    }));
  }

  // --- provider notifications ----------------------------------------------

  /**
   * One single-document update (an update pipeline), atomic against every
   * other writer: the earliest due and the latest event of the pending
   * requests, and the due time moved no later than the request's. update and
   * finishRun write the due time conditionally on the request they read, so
   * neither loses it.
   */
  async requestSync(tenantId: string, connectionId: string, eventAt: Date, dueAt: Date, trigger: RequestTrigger = "webhook"): Promise<boolean> {
    checkRequestTrigger(trigger);
    const event = { $literal: isoTime(eventAt, "eventAt") };
    const due = { $literal: isoTime(dueAt, "dueAt") };
    const res = await this.connections.updateOne({ _id: connectionId, tenantId }, [
      {
        $set: {
          syncRequestedDue: { $min: [{ $ifNull: ["$syncRequestedDue", due] }, due] },
          syncRequestedLast: { $max: [{ $ifNull: ["$syncRequestedLast", event] }, event] },
          syncRequestedTrigger: { $literal: trigger },
          nextSyncAt: { $min: [{ $ifNull: ["$nextSyncAt", due] }, due] },
        },
      },
    ]);
    return res.matchedCount === 1;
  }

  /**
   * The unique index on (connectionId, deliveryId) makes the insert the
   * atomic check: of concurrent calls with one id, one inserts. An id whose
   * memory has passed but that the TTL monitor (a minute's cadence) has not
   * removed yet is forgotten first. A delivery recorded while its connection
   * is being deleted may outlive it; the TTL index removes it.
   */
  async recordDelivery(tenantId: string, connectionId: string, deliveryId: string, now: Date): Promise<boolean> {
    if (typeof deliveryId !== "string" || deliveryId.length < 1 || deliveryId.length > MAX_DELIVERY_ID)
      throw new InvalidArgumentError(`deliveryId: 1 to ${MAX_DELIVERY_ID} characters`);
    isoTime(now, "now");
    await this.requireConnection(tenantId, connectionId);
    await this.deliveries.deleteOne({ connectionId, deliveryId, tenantId, receivedAt: { $lt: new Date(now.getTime() - DELIVERY_MEMORY_MS) } });
    try {
      await this.deliveries.insertOne({ tenantId, connectionId, deliveryId, receivedAt: new Date(now.getTime()) });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  /** Seals every stored credential again (key rotation); see SqliteConnectionRepository.resealSecrets. */
  async resealSecrets(reseal: (sealed: Uint8Array, owner: { tenantId: string; id: string }) => Uint8Array | undefined): Promise<number> {
    let replaced = 0;
    const cursor = this.connections.find({ sealedCredentials: { $type: "binData" } }, { projection: { _id: 1, tenantId: 1, sealedCredentials: 1 } });
    for await (const d of cursor) {
      const sealed = bytesOf(d.sealedCredentials!);
      const next = reseal(sealed, { tenantId: d.tenantId, id: d._id });
      if (!next) continue;
      const res = await this.connections.updateOne(
        { _id: d._id, tenantId: d.tenantId, sealedCredentials: Buffer.from(sealed) },
        { $set: { sealedCredentials: Buffer.from(next) } },
      );
      replaced += res.modifiedCount;
    }
    return replaced;
  }

  /**
   * Records which key seals the stored credentials (its fingerprint, not the
   * key), under its own name in the meta collection the settings store also
   * uses: a different key is refused while sealed credentials exist; without
   * them the new key is adopted. Run at start.
   *
   * With a keyring (`fingerprints`, newest first) the stored fingerprint
   * is kept while it is one of the ring's: values sealed with that key still
   * open. `resealed` (after every value was sealed again with the newest key,
   * `pnpm secrets reseal`) records the newest key, so that the older ones can
   * leave the ring.
   */
  async bindSecretKey(fingerprints: string | readonly string[], o: { resealed?: boolean } = {}): Promise<void> {
    const ring = typeof fingerprints === "string" ? [fingerprints] : fingerprints;
    const keyId = ring[0]!;
    await withTransaction(this.db.client, async (session) => {
      const row = await this.meta.findOne({ _id: CREDENTIALS_KEY_ID }, { session });
      if (row?.value === keyId || (row && !o.resealed && ring.includes(row.value))) return;
      if (row && !o.resealed) {
        const sealed = await this.connections.countDocuments({ sealedCredentials: { $type: "binData" } }, { session });
        if (sealed > 0) {
          throw new Error(
            `the secret key differs from the one that sealed the credentials of ${sealed} connection(s) in MongoDB (${this.db.databaseName}.${this.connections.collectionName}); ` +
              "restore the previous ENGRAM_SECRET_KEY, or list it in ENGRAM_SECRET_KEYS until `pnpm secrets reseal` has run",
          );
        }
      }
      await this.meta.updateOne({ _id: CREDENTIALS_KEY_ID }, { $set: { value: keyId } }, { upsert: true, session });
    });
  }

  /** The bound key fingerprint (inspection and tests). */
  async boundSecretKeyId(): Promise<string | undefined> {
    return (await this.meta.findOne({ _id: CREDENTIALS_KEY_ID }))?.value;
  }

  async close(): Promise<void> {}

  /**
   * Moves the connection's due time after a run that started at `startedAt`
   * finished (unless a later-started one already did) and settles the
   * pending sync request: cleared when its latest event is not after the
   * run's start (the run saw every event), else kept and due at the run's
   * completion (`completedAt`). Conditional on the revision (the config
   * read), on the last finished run read and on the request read, and tried
   * again when any moved (an event arriving meanwhile is never cleared).
   * Giving up after a few tries leaves the connection due, the safe side.
   */
  private async reschedule(tenantId: string, connectionId: string, startedAt: string, completedAt: string | undefined): Promise<void> {
    const started = isoOf(startedAt);
    for (let attempt = 0; attempt < RESCHEDULE_ATTEMPTS; attempt++) {
      const cur = await this.connections.findOne(
        { _id: connectionId, tenantId },
        { projection: { revision: 1, provider: 1, configJson: 1, createdAt: 1, lastSyncStartedAt: 1, syncRequestedDue: 1, syncRequestedLast: 1 } },
      );
      // Deleted under the sync, or a later-started run already set the due time and settled the request.
      if (!cur || (typeof cur.lastSyncStartedAt === "string" && cur.lastSyncStartedAt > started)) return;
      const requestLast = typeof cur.syncRequestedLast === "string" ? cur.syncRequestedLast : undefined;
      const covered = requestLast === undefined || requestLast <= started;
      const requestDue = covered ? undefined : completedAt !== undefined ? isoOf(completedAt) : (cur.syncRequestedDue ?? undefined);
      const res = await this.connections.updateOne(
        {
          _id: connectionId,
          tenantId,
          revision: cur.revision,
          lastSyncStartedAt: cur.lastSyncStartedAt ?? null,
          syncRequestedDue: cur.syncRequestedDue ?? null,
          syncRequestedLast: cur.syncRequestedLast ?? null,
        },
        {
          $set: {
            lastSyncStartedAt: started,
            nextSyncAt: earliest(nextSyncAt(scheduleInputs(cur), started), requestDue),
            ...(requestDue !== undefined ? { syncRequestedDue: requestDue } : {}),
          },
          ...(covered ? { $unset: { syncRequestedDue: "" as const, syncRequestedLast: "" as const, syncRequestedTrigger: "" as const } } : {}),
        },
      );
      if (res.matchedCount === 1) return;
    }
  }

  /**
   * Gives the connections stored before scheduled syncs existed their due
   * time, from the start of their most recent run. Found through `due`
   * (each status, then a null nextSyncAt): with nothing to fill in, one
   * index probe per status.
   */
  private async backfillSchedule(): Promise<void> {
    const docs = await this.connections
      .find({ status: { $in: [...CONNECTION_STATUSES] }, nextSyncAt: null }, { projection: { _id: 1, tenantId: 1, provider: 1, configJson: 1, createdAt: 1 } })
      .toArray();
    for (const d of docs) {
      const run = await this.lastRun(d.tenantId, d._id);
      const last = run ? isoOf(run.startedAt) : undefined;
      // No sync request to keep: requestSync always writes nextSyncAt, and the filter only matches while it is null.
      await this.connections.updateOne(
        { _id: d._id, tenantId: d.tenantId, nextSyncAt: null },
        { $set: compact({ lastSyncStartedAt: last, nextSyncAt: nextSyncAt(scheduleInputs(d), last) }) },
      );
    }
  }

  private async exists(tenantId: string, id: string): Promise<boolean> {
    return (await this.connections.findOne({ _id: id, tenantId }, { projection: { _id: 1 } })) !== null;
  }

  private async requireConnection(tenantId: string, id: string): Promise<void> {
    if (!(await this.exists(tenantId, id))) throw new NotFoundError(`connection ${id} not found`);
  }
}

function itemUpsert(tenantId: string, item: ConnectionItem): AnyBulkWriteOperation<ConnectionItemDoc> {
  const $set: Partial<ConnectionItemDoc> = { documentId: item.documentId, version: item.version, updatedAt: item.updatedAt };
  const $unset: { url?: ""; state?: "" } = {};
  if (item.url !== undefined) $set.url = item.url;
  else $unset.url = "";
  if (item.state !== undefined) $set.state = item.state;
  else $unset.state = "";
  return {
    updateOne: {
      filter: { tenantId, connectionId: item.connectionId, itemKey: item.itemKey },
      update: { $set, ...(Object.keys($unset).length ? { $unset } : {}) },
      upsert: true,
    },
  };
}

/** The connection store on MongoDB: creates its collections and indexes and returns it. Bind the secret key at start with `await repo.bindSecretKey(box.keyId)`. */
export async function createMongoConnectionRepository(db: Db, opts: MongoConnectionRepositoryOptions = {}): Promise<MongoConnectionRepository> {
  const repo = new MongoConnectionRepository(db, opts);
  await repo.ensureIndexes();
  // Outages of MongoDB (no primary, refused connections, timeouts) reach callers as UnavailableError (503).
  return raiseUnavailable(repo, "MongoDB");
}
