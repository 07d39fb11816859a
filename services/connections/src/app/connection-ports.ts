import { ConflictError, InvalidArgumentError, NotFoundError } from "@engram/kernel";
import {
  type Connection,
  type ConnectionItem,
  type ConnectionPatch,
  type ConnectionProvider,
  CONNECTION_LIMITS,
  type Lease,
  patchConnection,
  type SyncRun,
  type SyncTrigger,
  validateItem,
} from "../domain/connection";

/** Filters of a tenant's connection list; every one given must match. */
export interface ConnectionListFilter {
  provider?: ConnectionProvider;
  namespace?: string;
  /** Connections carrying at least one of these container tags (empty or absent = no filter). */
  containerTags?: string[];
}

/** One page of a keyset listing: `next` is the `after` of the following page, absent on the last page. */
export interface Page<T> {
  items: T[];
  next?: string;
}

/** What can ask for a sync that runs later (requestSync): the run then carries it as its trigger. */
export type RequestTrigger = Exclude<SyncTrigger, "initial">;
export const REQUEST_TRIGGERS: readonly RequestTrigger[] = ["manual", "scheduled", "webhook"];

/** A stored request trigger (older rows have none: their requests came from webhooks). */
export function requestTrigger(stored: string | null | undefined): RequestTrigger {
  return REQUEST_TRIGGERS.find((t) => t === stored) ?? "webhook";
}

/** Refuses a trigger requestSync does not know. */
export function checkRequestTrigger(trigger: string): RequestTrigger {
  const t = REQUEST_TRIGGERS.find((x) => x === trigger);
  if (!t) throw new InvalidArgumentError(`a sync request's trigger is one of ${REQUEST_TRIGGERS.join(", ")}, not ${trigger}`);
  return t;
}

/** A connection due for a scheduled sync: enough to start it (`SyncEngine.run`). */
export interface DueConnection {
  tenantId: string;
  connectionId: string;
  provider: ConnectionProvider;
  /** When its scheduled sync became due (ISO). */
  dueAt: string;
  /** A request asked for this sync (see requestSync): the run's trigger is `requestedBy`. */
  requested: boolean;
  /** What made the pending request: a webhook, or a manual import or schedule tick that came while a run was going on. */
  requestedBy?: RequestTrigger;
}

/** How long a webhook delivery id is remembered for de-duplication (providers redeliver within days). */
/** Most connections findByAccount returns (one account connected by many tenants is unusual; each is a sync). */
export const ACCOUNT_MATCH_LIMIT = 50;

export const DELIVERY_MEMORY_MS = 7 * 86_400_000;

/**
 * One durably applied page of a sync: the ledger changes the page produced
 * and the provider cursor that follows it. Applied all or nothing, and only
 * while `holder` holds the connection's lease.
 */
export interface SyncPage {
  holder: string;
  /** The time the lease is checked at. */
  now: Date;
  /** Items imported or re-imported by the page (replaced whole by item key). */
  upserts?: ConnectionItem[];
  /** Item keys the provider reported deleted (or the prune found gone). */
  removals?: string[];
  /** undefined = keep the cursor, null = clear it (full resync next), a string = the new cursor. */
  cursor?: string | null;
}

/** The page's upserts, once every item fits the ledger and belongs to the connection, and the cursor fits (InvalidArgumentError otherwise). */
export function validateSyncPage(connectionId: string, page: SyncPage): ConnectionItem[] {
  const upserts = page.upserts ?? [];
  for (const item of upserts) {
    validateItem(item);
    if (item.connectionId !== connectionId)
      throw new InvalidArgumentError(`item ${item.itemKey} belongs to connection ${item.connectionId}, not ${connectionId}`);
  }
  if (typeof page.cursor === "string" && page.cursor.length > CONNECTION_LIMITS.cursor)
    throw new InvalidArgumentError(`cursor: at most ${CONNECTION_LIMITS.cursor} characters`);
  return upserts;
}

/**
 * Storage port for connections, their sync runs, their item ledgers and
 * their sync leases. Every operation takes the tenant and filters by it: a
 * connection, run or item of another tenant reads as absent (not found),
 * never as "forbidden". The one exception is `dueForSync`, the scheduler's
 * look across tenants, which answers references only. Sealed credentials are
 * opaque bytes to it.
 *
 * Concurrency guarantees (both adapters):
 * - `update` is a compare-and-set on `revision`: it fails with
 *   ConflictError when the stored revision is not the one the caller read,
 *   so no change is lost; callers re-read and re-apply.
 * - The cursor moves only through `applySyncPage`, atomically with the ledger
 *   changes of the page it follows (SQLite: one transaction; MongoDB: one
 *   multi-document transaction), and only while the caller holds the lease:
 *   a worker that lost its lease cannot move the cursor past items it did not
 *   apply, nor apply items over the new holder's.
 * - Lease operations are single atomic conditional writes: at most one
 *   holder per connection at any time, across replicas.
 */
export interface ConnectionRepository {
  /** Stores a new connection. AlreadyExistsError when the id is taken. */
  create(conn: Connection): Promise<Connection>;
  get(tenantId: string, id: string): Promise<Connection | undefined>;
  /** The tenant's connections, newest first (createdAt, then id, descending). */
  list(tenantId: string, filter?: ConnectionListFilter): Promise<Connection[]>;
  /**
   * The provider's connections whose container tags include every one of
   * `containerTags` (GetConnectionByTags, DeleteConnectionByProvider), newest
   * first. An empty `containerTags` matches nothing.
   */
  findByProviderAndTags(tenantId: string, provider: ConnectionProvider, containerTags: string[]): Promise<Connection[]>;
  /**
   * Writes `next` if the stored connection still has `next.revision`, and
   * returns it with the revision incremented. Writes the mutable fields
   * (status, email, expiresAt, sealedCredentials, config, documentLimit,
   * updatedAt); id, tenant, provider, scope, metadata and createdAt are fixed
   * at creation and the cursor moves only through `applySyncPage`. A new
   * config moves the next scheduled sync to its interval (`syncIntervalMs`).
   * NotFoundError when absent, ConflictError when changed concurrently.
   */
  /**
   * The connections, across tenants, that read the provider-side account
   * (at most ACCOUNT_MATCH_LIMIT, newest first): how a notification that
   * names no connection (Gmail's Pub/Sub push, Notion's integration webhook)
   * is routed after it was verified. The one look across tenants besides
   * dueForSync.
   */
  findByAccount(provider: ConnectionProvider, account: string): Promise<Connection[]>;
  update(next: Connection): Promise<Connection>;
  /** Removes the connection with its item ledger, sync runs and lease. False when there was none. */
  delete(tenantId: string, id: string): Promise<boolean>;

  /**
   * Records a started run. Any run of the connection still `running` is
   * closed as failed (`abandonSyncRun`): only a lease holder starts runs, so
   * such a run's worker is gone. NotFoundError when the connection is absent.
   */
  startRun(run: SyncRun): Promise<SyncRun>;
  /**
   * Stores the finished run (`finishSyncRun`) over the running one, and
   * moves the connection's next scheduled sync to `syncIntervalMs` after the
   * run's start (unless a later-started run already finished).
   * NotFoundError when absent; FailedPreconditionError when it already
   * finished (a run finishes once).
   */
  finishRun(run: SyncRun): Promise<SyncRun>;
  getRun(tenantId: string, runId: string): Promise<SyncRun | undefined>;
  /** The connection's most recent run (by startedAt, then id), or undefined when it never synced. */
  lastRun(tenantId: string, connectionId: string): Promise<SyncRun | undefined>;
  /** The most recent run of each connection that has one (for lists). */
  lastRuns(tenantId: string, connectionIds: string[]): Promise<Map<string, SyncRun>>;
  /** The connection's runs, newest first. */
  listRuns(tenantId: string, connectionId: string, limit: number): Promise<SyncRun[]>;
  /** Keeps the newest `keep` runs of the connection and removes the others; returns how many were removed. */
  pruneRuns(tenantId: string, connectionId: string, keep: number): Promise<number>;

  /** Adds or replaces one ledger item (by item key). NotFoundError when the connection is absent. */
  upsertItem(tenantId: string, item: ConnectionItem): Promise<void>;
  /** Removes one ledger item and returns it (its document is the caller's to delete), or undefined. */
  removeItem(tenantId: string, connectionId: string, itemKey: string): Promise<ConnectionItem | undefined>;
  /** The stored items among `itemKeys`, by item key (to skip unchanged versions). */
  getItems(tenantId: string, connectionId: string, itemKeys: string[]): Promise<Map<string, ConnectionItem>>;
  /** Item keys in ascending code-point (UTF-8 byte) order, `limit` at a time, after `after` (the prune's full-ID listing). */
  listItemKeys(tenantId: string, connectionId: string, opts: { after?: string; limit: number }): Promise<Page<string>>;
  /** Every distinct document id the connection's items hold (deleteDocuments). */
  documentIds(tenantId: string, connectionId: string): Promise<string[]>;
  /** How many items the ledger holds (documentLimit). */
  countItems(tenantId: string, connectionId: string): Promise<number>;
  /**
   * Applies one sync page: the item upserts and removals and the cursor,
   * atomically, only while `page.holder` holds an unexpired lease on the
   * connection. NotFoundError when the connection is absent;
   * FailedPreconditionError (nothing applied) when the lease is not held.
   */
  applySyncPage(tenantId: string, connectionId: string, page: SyncPage): Promise<void>;

  /**
   * Takes the connection's sync lease for `ttlMs` when it is free, expired,
   * or already `holder`'s (which extends it). Undefined when another holder
   * has it; NotFoundError when the connection is absent.
   */
  tryAcquireLease(tenantId: string, connectionId: string, holder: string, ttlMs: number, now: Date): Promise<Lease | undefined>;
  /** Extends `holder`'s unexpired lease to now + ttlMs. Undefined when it lapsed or someone else holds it (acquire again). */
  renewLease(tenantId: string, connectionId: string, holder: string, ttlMs: number, now: Date): Promise<Lease | undefined>;
  /** Gives the lease up if `holder` has it; false otherwise. */
  releaseLease(tenantId: string, connectionId: string, holder: string): Promise<boolean>;

  /**
   * Connections of every tenant due for a scheduled sync at `now`, the
   * longest-due first (then by id), at most `limit`:
   * - `active` and not past `expiresAt`;
   * - due: `nextSyncAt(conn, lastSyncStartedAt) <= now`, where
   *   lastSyncStartedAt is the start of the most recent run that finished
   *   (any status: a failed run is retried on the schedule, not sooner);
   *   a connection with no finished run is due from its creation;
   * - not being synced: nobody holds an unexpired lease on it. A run left
   *   `running` by a worker that died therefore becomes due again once its
   *   lease lapses, instead of waiting a whole interval;
   * - of one of `providers` when given (those with a connector; an empty
   *   list matches nothing).
   * The due time is a stored field kept by the store (see the adapters), so
   * that this is one index range scan, never a scan of the connections or
   * their runs.
   */
  dueForSync(now: Date, opts: { limit: number; providers?: readonly ConnectionProvider[] }): Promise<DueConnection[]>;

  /**
   * Records that a provider notification (a webhook) asks for a sync of the
   * connection: an event received at `eventAt`, to be synced at `dueAt`
   * (eventAt plus the debounce). Durable, so a restart loses no request.
   * Stored as two fields kept with the connection:
   * - the request's due time, the earliest `dueAt` of the pending requests
   *   (a burst folds into one sync, due a debounce after its first event);
   *   the connection's due time (`dueForSync`) becomes the earlier of its
   *   scheduled one and this;
   * - the latest `eventAt` of the pending requests.
   * `finishRun` settles the request: when the latest event is not after the
   * run's start, the run covered every event and the request is cleared
   * (the due time is the schedule's again); when an event came during the
   * run, the request stays and is due at the run's completion.
   * `dueForSync` answers `requested: true` for a connection whose pending
   * request is due, with the latest request's trigger (`requestedBy`; default
   * `webhook`). False when the connection is absent.
   */
  requestSync(tenantId: string, connectionId: string, eventAt: Date, dueAt: Date, trigger?: RequestTrigger): Promise<boolean>;

  /**
   * Remembers a webhook delivery id of the connection; true the first time,
   * false when it was already recorded (a redelivery: the caller ignores
   * it). Ids are remembered at least DELIVERY_MEMORY_MS after `now`; older
   * ones may be forgotten. NotFoundError when the connection is absent.
   * Atomic across replicas: of two concurrent calls with the same id, one
   * gets true.
   */
  recordDelivery(tenantId: string, connectionId: string, deliveryId: string, now: Date): Promise<boolean>;

  close(): Promise<void>;
}

/** The context a connection's credentials are sealed under (see SecretSealer): bound to tenant and connection. */
export const connectionCredentialsContext = (tenantId: string, connectionId: string) => `connection-credentials:${tenantId}:${connectionId}`;

/** Tries of a patch that lost a race with another writer (a token refresh, a status change). */
const PATCH_RETRIES = 5;

/**
 * Stores `patch` over the connection as read; when another writer changed it
 * meanwhile (ConflictError), reads it again and applies the same patch to
 * the latest, so that neither change is lost. NotFoundError when it is gone.
 */
export async function patchStored(repo: ConnectionRepository, conn: Connection, patch: ConnectionPatch, now: () => string): Promise<Connection> {
  let current = conn;
  for (let attempt = 0; ; attempt++) {
    try {
      return await repo.update(patchConnection(current, patch, now()));
    } catch (err) {
      if (!(err instanceof ConflictError) || attempt >= PATCH_RETRIES) throw err;
      const latest = await repo.get(conn.tenantId, conn.id);
      if (!latest) throw new NotFoundError(`connection ${conn.id} not found`);
      current = latest;
    }
  }
}
