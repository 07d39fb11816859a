import { AlreadyExistsError, ConflictError, FailedPreconditionError, InvalidArgumentError, type JsonObject, NotFoundError } from "@engram/kernel";
import { jsonColumn, openSqlite, type SqliteDatabase, type SqliteStatement, statementCache, transactor } from "@engram/storage";
import {
  type ConnectionListFilter,
  type ConnectionRepository,
  DELIVERY_MEMORY_MS,
  type DueConnection,
  type Page,
  type SyncPage,
  validateSyncPage,
  ACCOUNT_MATCH_LIMIT,
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
  type ConnectionStatus,
  CONNECTION_STATUSES,
  type ItemFailures,
  type Lease,
  nextSyncAt,
  type SyncErrorCode,
  type SyncRun,
  type SyncRunStatus,
  type SyncTrigger,
  validateItem,
  validateLease,
} from "../../domain/connection";

/**
 * The embedded store's own file, `<dataDir>/connectors.db`, not the settings
 * store's `connections.db`: openSqlite versions a file's schema with one
 * ordered migration list (PRAGMA user_version), so a second list on the same
 * file would skip its first migrations (the settings migration already set
 * user_version to 1), and merging the two lists would tie two stores' schema
 * changes together. A file of its own also keeps the sync writes (ledger,
 * cursor, leases) off the settings file's single write lock.
 */
export const CONNECTIONS_SQLITE_NAME = "connectors";

/** The longest webhook delivery id remembered (recordDelivery). */
const MAX_DELIVERY_ID = 200;

const MIGRATIONS = [
  `CREATE TABLE connections (
     id TEXT PRIMARY KEY,
     tenant_id TEXT NOT NULL,
     provider TEXT NOT NULL,
     namespace TEXT NOT NULL,
     container_tags TEXT NOT NULL,      -- JSON array, the namespace first
     document_limit INTEGER,
     metadata TEXT NOT NULL,            -- JSON object, flat
     status TEXT NOT NULL,
     email TEXT,
     expires_at TEXT,
     credentials BLOB,                  -- sealed bytes only
     cursor TEXT,
     config TEXT,                       -- JSON object
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     revision INTEGER NOT NULL,
     lease_holder TEXT,
     lease_expires_ms INTEGER           -- epoch milliseconds
   ) WITHOUT ROWID;
   CREATE INDEX connections_tenant_created ON connections (tenant_id, created_at DESC, id DESC);
   CREATE INDEX connections_tenant_provider ON connections (tenant_id, provider, created_at DESC, id DESC);
   CREATE TABLE connection_items (
     connection_id TEXT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
     item_key TEXT NOT NULL,
     tenant_id TEXT NOT NULL,
     document_id TEXT NOT NULL,
     version TEXT NOT NULL,
     url TEXT,
     state TEXT,                        -- provider state, opaque
     updated_at TEXT NOT NULL,
     PRIMARY KEY (connection_id, item_key)
   ) WITHOUT ROWID;
   CREATE INDEX connection_items_document ON connection_items (connection_id, document_id);
   CREATE TABLE sync_runs (
     id TEXT PRIMARY KEY,
     tenant_id TEXT NOT NULL,
     connection_id TEXT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
     trigger_kind TEXT NOT NULL,
     status TEXT NOT NULL,
     error_code TEXT,
     error TEXT,
     started_at TEXT NOT NULL,
     completed_at TEXT,
     documents_imported INTEGER NOT NULL,
     item_failures TEXT NOT NULL        -- JSON {count, samples}
   ) WITHOUT ROWID;
   CREATE INDEX sync_runs_connection_started ON sync_runs (connection_id, started_at DESC, id DESC);
   CREATE INDEX sync_runs_running ON sync_runs (connection_id) WHERE status = 'running';
   CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`,
  // Scheduled syncs (see dueForSync): rows from before this migration get their due time when the store opens (backfillSchedule).
  `ALTER TABLE connections ADD COLUMN last_sync_started_at TEXT;   -- start of the most recent finished run (ISO)
   ALTER TABLE connections ADD COLUMN next_sync_at TEXT;           -- when the next scheduled sync is due (ISO)
   CREATE INDEX connections_due ON connections (status, next_sync_at, id);`,
  // Provider notifications (see requestSync, recordDelivery): the pending sync request kept with the connection, and the
  // webhook delivery ids remembered for de-duplication.
  `ALTER TABLE connections ADD COLUMN sync_requested_due TEXT;    -- when the pending sync request is due (ISO), NULL when none
   ALTER TABLE connections ADD COLUMN sync_requested_last TEXT;   -- the latest event of the pending request (ISO), NULL when none
   CREATE TABLE webhook_deliveries (
     connection_id TEXT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
     delivery_id TEXT NOT NULL,
     tenant_id TEXT NOT NULL,
     received_at TEXT NOT NULL,       -- ISO
     PRIMARY KEY (connection_id, delivery_id)
   ) WITHOUT ROWID;
   CREATE INDEX webhook_deliveries_received ON webhook_deliveries (connection_id, received_at);`,
  // The provider-side account (see findByAccount): notifications that do not name their connection find it by account.
  `ALTER TABLE connections ADD COLUMN account TEXT;
   CREATE INDEX connections_account ON connections (provider, account) WHERE account IS NOT NULL;`,
  // What asked for the pending sync request (see requestSync): the follow-up run carries it as its trigger.
  `ALTER TABLE connections ADD COLUMN sync_requested_trigger TEXT;  -- manual, scheduled or webhook; NULL when no request is pending`,
];

interface ConnectionRow {
  id: string;
  tenant_id: string;
  provider: string;
  namespace: string;
  container_tags: string;
  document_limit: number | null;
  metadata: string;
  status: string;
  email: string | null;
  account: string | null;
  expires_at: string | null;
  credentials: Buffer | null;
  cursor: string | null;
  config: string | null;
  created_at: string;
  updated_at: string;
  revision: number;
  lease_holder: string | null;
  lease_expires_ms: number | null;
  last_sync_started_at: string | null;
  next_sync_at: string | null;
  sync_requested_due: string | null;
  sync_requested_last: string | null;
  sync_requested_trigger: string | null;
}

interface ItemRow {
  connection_id: string;
  item_key: string;
  tenant_id: string;
  document_id: string;
  version: string;
  url: string | null;
  state: string | null;
  updated_at: string;
}

interface RunRow {
  id: string;
  tenant_id: string;
  connection_id: string;
  trigger_kind: string;
  status: string;
  error_code: string | null;
  error: string | null;
  started_at: string;
  completed_at: string | null;
  documents_imported: number;
  item_failures: string;
}

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);
const isoOf = (v: string) => new Date(Date.parse(v)).toISOString();
/** The earlier of two ISO times (text order is time order), either absent. */
const earliest = (a: string, b: string | undefined) => (b !== undefined && b < a ? b : a);
const isConstraint = (err: unknown, ...codes: string[]) => codes.includes((err as { code?: string }).code ?? "");

function fromRow(r: ConnectionRow): Connection {
  return compact<Connection>({
    id: r.id,
    tenantId: r.tenant_id,
    provider: r.provider as ConnectionProvider,
    namespace: r.namespace,
    containerTags: JSON.parse(r.container_tags) as string[],
    documentLimit: opt(r.document_limit),
    metadata: JSON.parse(r.metadata) as ConnectionMetadata,
    status: r.status as ConnectionStatus,
    email: opt(r.email),
    account: opt(r.account),
    expiresAt: opt(r.expires_at),
    sealedCredentials: r.credentials === null ? undefined : new Uint8Array(r.credentials),
    cursor: opt(r.cursor),
    config: jsonColumn.read<JsonObject>(r.config),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    revision: r.revision,
  });
}

function fromItemRow(r: ItemRow): ConnectionItem {
  return compact<ConnectionItem>({
    connectionId: r.connection_id,
    itemKey: r.item_key,
    documentId: r.document_id,
    version: r.version,
    url: opt(r.url),
    state: opt(r.state),
    updatedAt: r.updated_at,
  });
}

function fromRunRow(r: RunRow): SyncRun {
  return compact<SyncRun>({
    id: r.id,
    tenantId: r.tenant_id,
    connectionId: r.connection_id,
    trigger: r.trigger_kind as SyncTrigger,
    status: r.status as SyncRunStatus,
    errorCode: opt(r.error_code) as SyncErrorCode | undefined,
    error: opt(r.error),
    startedAt: r.started_at,
    completedAt: opt(r.completed_at),
    documentsImported: r.documents_imported,
    itemFailures: JSON.parse(r.item_failures) as ItemFailures,
  });
}

const credentialsColumn = (v: Uint8Array | undefined): Buffer | null => (v === undefined ? null : Buffer.from(v));

const CONNECTION_COLUMNS = `id, tenant_id, provider, namespace, container_tags, document_limit, metadata, status, email, account, expires_at, credentials, cursor, config,
  created_at, updated_at, revision`;

/**
 * Embedded connection store (`<dataDir>/connectors.db`): connections (with
 * their cursor and sync lease in the row), the item ledger and the sync runs.
 * Every statement filters by tenant (but dueForSync, the scheduler's look
 * across tenants). better-sqlite3 is synchronous and each multi-statement
 * operation runs in one transaction, so every operation is atomic; the lease
 * statements are single conditional UPDATEs.
 *
 * Scheduled syncs: the row keeps `last_sync_started_at` (start of the most
 * recent finished run) and `next_sync_at` (domain `nextSyncAt`: that start
 * plus the provider's interval, or the creation time when no run finished),
 * both ISO text written by toISOString so that text order is time order.
 * They are written by create, by finishRun and by update (a new config may
 * change the interval), each in the same transaction as the change they
 * follow, so the due time never lags its inputs. Computing the due time from
 * sync_runs at query time instead would need the latest run of every
 * connection and a per-provider cut-off, which no index orders; the stored
 * field makes dueForSync one range scan of `connections_due` (status,
 * next_sync_at, id) in due order, checking expiry and the lease on the rows
 * it walks. Only rows already due are walked: the active ones that are due
 * but being synced or expired (until the expiry sweep marks them) are the
 * only ones walked and skipped.
 *
 * Sync requests (requestSync): the row keeps `sync_requested_due` (the
 * earliest due time of the pending requests) and `sync_requested_last` (their
 * latest event), and `next_sync_at` is the earlier of the schedule's due time
 * and `sync_requested_due` wherever it is written (requestSync, finishRun,
 * update), so the due look stays the same one range scan. finishRun settles
 * the request in the transaction that stores the run.
 */
/** dueForSync's statement (its query plan is checked by the embedded contract test). */
export const DUE_FOR_SYNC_SQL = `SELECT tenant_id, id, provider, next_sync_at, sync_requested_due, sync_requested_trigger FROM connections
   WHERE status = 'active' AND next_sync_at <= @now
     AND (expires_at IS NULL OR expires_at > @now)
     AND (lease_holder IS NULL OR lease_expires_ms <= @now_ms)
     AND (@providers IS NULL OR provider IN (SELECT value FROM json_each(@providers)))
   ORDER BY next_sync_at, id
   LIMIT @limit`;

export class SqliteConnectionRepository implements ConnectionRepository {
  readonly db: SqliteDatabase;
  private readonly stmt: (sql: string) => SqliteStatement;
  private readonly tx: <T>(fn: () => T) => T;

  constructor(dataDir: string, name: string = CONNECTIONS_SQLITE_NAME) {
    this.db = openSqlite({ dataDir, name, migrations: MIGRATIONS });
    this.stmt = statementCache(this.db);
    this.tx = transactor(this.db);
    this.backfillSchedule();
  }

  async create(c: Connection): Promise<Connection> {
    try {
      this.stmt(
        `INSERT INTO connections (${CONNECTION_COLUMNS}, next_sync_at)
         VALUES (@id, @tenant_id, @provider, @namespace, @container_tags, @document_limit, @metadata, @status, @email, @account, @expires_at, @credentials, @cursor, @config,
           @created_at, @updated_at, @revision, @next_sync_at)`,
      ).run({
        id: c.id,
        tenant_id: c.tenantId,
        provider: c.provider,
        namespace: c.namespace,
        container_tags: JSON.stringify(c.containerTags),
        document_limit: c.documentLimit ?? null,
        metadata: JSON.stringify(c.metadata),
        status: c.status,
        email: c.email ?? null,
        account: c.account ?? null,
        expires_at: c.expiresAt ?? null,
        credentials: credentialsColumn(c.sealedCredentials),
        cursor: c.cursor ?? null,
        config: jsonColumn.write(c.config),
        created_at: c.createdAt,
        updated_at: c.updatedAt,
        revision: c.revision,
        next_sync_at: nextSyncAt(c, undefined),
      });
    } catch (err) {
      if (isConstraint(err, "SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE")) throw new AlreadyExistsError(`connection ${c.id} already exists`);
      throw err;
    }
    return this.read(c.tenantId, c.id)!;
  }

  async get(tenantId: string, id: string): Promise<Connection | undefined> {
    return this.read(tenantId, id);
  }

  async list(tenantId: string, filter: ConnectionListFilter = {}): Promise<Connection[]> {
    const tags = filter.containerTags?.length ? JSON.stringify(filter.containerTags) : null;
    const rows = this.stmt(
      `SELECT ${CONNECTION_COLUMNS} FROM connections c
       WHERE tenant_id = @tenant_id
         AND (@provider IS NULL OR provider = @provider)
         AND (@namespace IS NULL OR namespace = @namespace)
         AND (@tags IS NULL OR EXISTS (SELECT 1 FROM json_each(c.container_tags) t WHERE t.value IN (SELECT value FROM json_each(@tags))))
       ORDER BY created_at DESC, id DESC`,
    ).all({ tenant_id: tenantId, provider: filter.provider ?? null, namespace: filter.namespace ?? null, tags }) as ConnectionRow[];
    return rows.map(fromRow);
  }

  async findByProviderAndTags(tenantId: string, provider: ConnectionProvider, containerTags: string[]): Promise<Connection[]> {
    if (containerTags.length === 0) return [];
    const rows = this.stmt(
      `SELECT ${CONNECTION_COLUMNS} FROM connections c
       WHERE tenant_id = @tenant_id AND provider = @provider
         AND NOT EXISTS (SELECT 1 FROM json_each(@tags) w WHERE w.value NOT IN (SELECT value FROM json_each(c.container_tags)))
       ORDER BY created_at DESC, id DESC`,
    ).all({ tenant_id: tenantId, provider, tags: JSON.stringify(containerTags) }) as ConnectionRow[];
    return rows.map(fromRow);
  }

  async findByAccount(provider: ConnectionProvider, account: string): Promise<Connection[]> {
    const rows = this.stmt(
      `SELECT ${CONNECTION_COLUMNS} FROM connections WHERE provider = @provider AND account = @account ORDER BY created_at DESC, id DESC LIMIT @limit`,
    ).all({ provider, account, limit: ACCOUNT_MATCH_LIMIT }) as ConnectionRow[];
    return rows.map(fromRow);
  }

  async update(next: Connection): Promise<Connection> {
    return this.tx(() => {
      const res = this.stmt(
        `UPDATE connections SET status = @status, email = @email, account = @account, expires_at = @expires_at, credentials = @credentials, config = @config,
           document_limit = @document_limit, updated_at = @updated_at, revision = revision + 1
         WHERE id = @id AND tenant_id = @tenant_id AND revision = @revision`,
      ).run({
        id: next.id,
        tenant_id: next.tenantId,
        revision: next.revision,
        status: next.status,
        email: next.email ?? null,
        account: next.account ?? null,
        expires_at: next.expiresAt ?? null,
        credentials: credentialsColumn(next.sealedCredentials),
        config: jsonColumn.write(next.config),
        document_limit: next.documentLimit ?? null,
        updated_at: next.updatedAt,
      });
      if (res.changes === 0) {
        const cur = this.read(next.tenantId, next.id);
        if (!cur) throw new NotFoundError(`connection ${next.id} not found`);
        throw new ConflictError(
          `connection ${next.id} changed concurrently`,
          `stored revision ${cur.revision}, expected ${next.revision}; read it again and retry`,
        );
      }
      this.reschedule(next.tenantId, next.id);
      return this.read(next.tenantId, next.id)!;
    });
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return this.tx(() => {
      if (!this.exists(tenantId, id)) return false;
      this.stmt("DELETE FROM connection_items WHERE connection_id = ? AND tenant_id = ?").run(id, tenantId);
      this.stmt("DELETE FROM webhook_deliveries WHERE connection_id = ? AND tenant_id = ?").run(id, tenantId);
      this.stmt("DELETE FROM sync_runs WHERE connection_id = ? AND tenant_id = ?").run(id, tenantId);
      return this.stmt("DELETE FROM connections WHERE id = ? AND tenant_id = ?").run(id, tenantId).changes > 0;
    });
  }

  // --- sync runs -----------------------------------------------------------

  async startRun(run: SyncRun): Promise<SyncRun> {
    if (run.status !== "running") throw new InvalidArgumentError(`a started run must be running, not ${run.status}`);
    return this.tx(() => {
      this.requireConnection(run.tenantId, run.connectionId);
      const running = this.stmt("SELECT * FROM sync_runs WHERE connection_id = ? AND tenant_id = ? AND status = 'running'").all(
        run.connectionId,
        run.tenantId,
      ) as RunRow[];
      for (const r of running) this.writeFinished(abandonSyncRun(fromRunRow(r), run.startedAt));
      try {
        this.stmt(
          `INSERT INTO sync_runs (id, tenant_id, connection_id, trigger_kind, status, error_code, error, started_at, completed_at, documents_imported, item_failures)
           VALUES (@id, @tenant_id, @connection_id, @trigger_kind, @status, NULL, NULL, @started_at, NULL, @documents_imported, @item_failures)`,
        ).run({
          id: run.id,
          tenant_id: run.tenantId,
          connection_id: run.connectionId,
          trigger_kind: run.trigger,
          status: run.status,
          started_at: run.startedAt,
          documents_imported: run.documentsImported,
          item_failures: JSON.stringify(run.itemFailures),
        });
      } catch (err) {
        if (isConstraint(err, "SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE")) throw new AlreadyExistsError(`sync run ${run.id} already exists`);
        throw err;
      }
      return this.readRun(run.tenantId, run.id)!;
    });
  }

  async finishRun(run: SyncRun): Promise<SyncRun> {
    if (run.status === "running") throw new InvalidArgumentError("finishRun needs a finished run (finishSyncRun)");
    return this.tx(() => {
      const cur = this.readRun(run.tenantId, run.id);
      if (!cur || cur.connectionId !== run.connectionId) throw new NotFoundError(`sync run ${run.id} not found`);
      if (cur.status !== "running") throw new FailedPreconditionError(`sync run ${run.id} already finished (${cur.status})`);
      this.writeFinished(run);
      this.reschedule(run.tenantId, run.connectionId, { startedAt: cur.startedAt, completedAt: run.completedAt });
      return this.readRun(run.tenantId, run.id)!;
    });
  }

  async getRun(tenantId: string, runId: string): Promise<SyncRun | undefined> {
    return this.readRun(tenantId, runId);
  }

  async lastRun(tenantId: string, connectionId: string): Promise<SyncRun | undefined> {
    const r = this.stmt("SELECT * FROM sync_runs WHERE connection_id = ? AND tenant_id = ? ORDER BY started_at DESC, id DESC LIMIT 1").get(
      connectionId,
      tenantId,
    ) as RunRow | undefined;
    return r ? fromRunRow(r) : undefined;
  }

  async lastRuns(tenantId: string, connectionIds: string[]): Promise<Map<string, SyncRun>> {
    const out = new Map<string, SyncRun>();
    this.tx(() => {
      for (const id of new Set(connectionIds)) {
        const r = this.stmt("SELECT * FROM sync_runs WHERE connection_id = ? AND tenant_id = ? ORDER BY started_at DESC, id DESC LIMIT 1").get(id, tenantId) as
          RunRow | undefined;
        if (r) out.set(id, fromRunRow(r));
      }
    });
    return out;
  }

  async listRuns(tenantId: string, connectionId: string, limit: number): Promise<SyncRun[]> {
    const rows = this.stmt("SELECT * FROM sync_runs WHERE connection_id = ? AND tenant_id = ? ORDER BY started_at DESC, id DESC LIMIT ?").all(
      connectionId,
      tenantId,
      positive(limit, "limit"),
    ) as RunRow[];
    return rows.map(fromRunRow);
  }

  async pruneRuns(tenantId: string, connectionId: string, keep: number): Promise<number> {
    if (!Number.isInteger(keep) || keep < 0) throw new InvalidArgumentError("keep must be a non-negative integer");
    return this.stmt(
      `DELETE FROM sync_runs WHERE connection_id = @c AND tenant_id = @t AND id NOT IN (
         SELECT id FROM sync_runs WHERE connection_id = @c AND tenant_id = @t ORDER BY started_at DESC, id DESC LIMIT @keep)`,
    ).run({ c: connectionId, t: tenantId, keep }).changes;
  }

  // --- item ledger ---------------------------------------------------------

  async upsertItem(tenantId: string, item: ConnectionItem): Promise<void> {
    validateItem(item);
    this.tx(() => {
      this.requireConnection(tenantId, item.connectionId);
      this.writeItem(tenantId, item);
    });
  }

  async removeItem(tenantId: string, connectionId: string, itemKey: string): Promise<ConnectionItem | undefined> {
    const r = this.stmt("DELETE FROM connection_items WHERE connection_id = ? AND tenant_id = ? AND item_key = ? RETURNING *").get(
      connectionId,
      tenantId,
      itemKey,
    ) as ItemRow | undefined;
    return r ? fromItemRow(r) : undefined;
  }

  async getItems(tenantId: string, connectionId: string, itemKeys: string[]): Promise<Map<string, ConnectionItem>> {
    const out = new Map<string, ConnectionItem>();
    if (itemKeys.length === 0) return out;
    const rows = this.stmt("SELECT * FROM connection_items WHERE connection_id = ? AND tenant_id = ? AND item_key IN (SELECT value FROM json_each(?))").all(
      connectionId,
      tenantId,
      JSON.stringify(itemKeys),
    ) as ItemRow[];
    for (const r of rows) out.set(r.item_key, fromItemRow(r));
    return out;
  }

  async listItemKeys(tenantId: string, connectionId: string, opts: { after?: string; limit: number }): Promise<Page<string>> {
    const limit = positive(opts.limit, "limit");
    const rows = this.stmt("SELECT item_key FROM connection_items WHERE connection_id = ? AND tenant_id = ? AND item_key > ? ORDER BY item_key LIMIT ?").all(
      connectionId,
      tenantId,
      opts.after ?? "",
      limit + 1,
    ) as { item_key: string }[];
    const items = rows.slice(0, limit).map((r) => r.item_key);
    return rows.length > limit ? { items, next: items[items.length - 1]! } : { items };
  }

  async documentIds(tenantId: string, connectionId: string): Promise<string[]> {
    const rows = this.stmt("SELECT DISTINCT document_id FROM connection_items WHERE connection_id = ? AND tenant_id = ? ORDER BY document_id").all(
      connectionId,
      tenantId,
    ) as {
      document_id: string;
    }[];
    return rows.map((r) => r.document_id);
  }

  async countItems(tenantId: string, connectionId: string): Promise<number> {
    return (this.stmt("SELECT count(*) AS n FROM connection_items WHERE connection_id = ? AND tenant_id = ?").get(connectionId, tenantId) as { n: number }).n;
  }

  async applySyncPage(tenantId: string, connectionId: string, page: SyncPage): Promise<void> {
    const upserts = validateSyncPage(connectionId, page);
    this.tx(() => {
      const lease = this.stmt("SELECT lease_holder, lease_expires_ms FROM connections WHERE id = ? AND tenant_id = ?").get(connectionId, tenantId) as
        Pick<ConnectionRow, "lease_holder" | "lease_expires_ms"> | undefined;
      if (!lease) throw new NotFoundError(`connection ${connectionId} not found`);
      if (lease.lease_holder !== page.holder || (lease.lease_expires_ms ?? 0) <= page.now.getTime()) {
        throw new FailedPreconditionError(
          `the sync lease of connection ${connectionId} is not held by ${page.holder}`,
          "nothing was applied; acquire the lease again",
        );
      }
      for (const item of upserts) this.writeItem(tenantId, item);
      for (const key of page.removals ?? [])
        this.stmt("DELETE FROM connection_items WHERE connection_id = ? AND tenant_id = ? AND item_key = ?").run(connectionId, tenantId, key);
      if (page.cursor !== undefined) this.stmt("UPDATE connections SET cursor = ? WHERE id = ? AND tenant_id = ?").run(page.cursor, connectionId, tenantId);
    });
  }

  // --- leases --------------------------------------------------------------

  async tryAcquireLease(tenantId: string, connectionId: string, holder: string, ttlMs: number, now: Date): Promise<Lease | undefined> {
    validateLease(holder, ttlMs);
    const expires = now.getTime() + ttlMs;
    const res = this.stmt(
      `UPDATE connections SET lease_holder = @holder, lease_expires_ms = @expires
       WHERE id = @id AND tenant_id = @tenant_id AND (lease_holder IS NULL OR lease_expires_ms <= @now OR lease_holder = @holder)`,
    ).run({ id: connectionId, tenant_id: tenantId, holder, expires, now: now.getTime() });
    if (res.changes === 1) return { connectionId, holder, expiresAt: new Date(expires).toISOString() };
    if (!this.exists(tenantId, connectionId)) throw new NotFoundError(`connection ${connectionId} not found`);
    return undefined;
  }

  async renewLease(tenantId: string, connectionId: string, holder: string, ttlMs: number, now: Date): Promise<Lease | undefined> {
    validateLease(holder, ttlMs);
    const expires = now.getTime() + ttlMs;
    const res = this.stmt(
      `UPDATE connections SET lease_expires_ms = @expires
       WHERE id = @id AND tenant_id = @tenant_id AND lease_holder = @holder AND lease_expires_ms > @now`,
    ).run({ id: connectionId, tenant_id: tenantId, holder, expires, now: now.getTime() });
    return res.changes === 1 ? { connectionId, holder, expiresAt: new Date(expires).toISOString() } : undefined;
  }

  async releaseLease(tenantId: string, connectionId: string, holder: string): Promise<boolean> {
    const res = this.stmt("UPDATE connections SET lease_holder = NULL, lease_expires_ms = NULL WHERE id = ? AND tenant_id = ? AND lease_holder = ?").run(
      connectionId,
      tenantId,
      holder,
    );
    return res.changes === 1;
  }

  // --- scheduled syncs -----------------------------------------------------

  async dueForSync(now: Date, opts: { limit: number; providers?: readonly ConnectionProvider[] }): Promise<DueConnection[]> {
    const limit = positive(opts.limit, "limit");
    if (opts.providers?.length === 0) return [];
    const rows = this.stmt(DUE_FOR_SYNC_SQL).all({
      now: now.toISOString(),
      now_ms: now.getTime(),
      providers: opts.providers ? JSON.stringify(opts.providers) : null,
      limit,
    }) as Pick<ConnectionRow, "tenant_id" | "id" | "provider" | "next_sync_at" | "sync_requested_due" | "sync_requested_trigger">[];
    const at = now.toISOString();
    return rows.map((r) => ({
      tenantId: r.tenant_id,
      connectionId: r.id,
      provider: r.provider as ConnectionProvider,
      dueAt: r.next_sync_at!,
      requested: r.sync_requested_due !== null && r.sync_requested_due <= at,
      ...(r.sync_requested_due !== null && r.sync_requested_due <= at ? { requestedBy: requestTrigger(r.sync_requested_trigger) } : {}),
    }));
  }

  // --- provider notifications ----------------------------------------------

  async requestSync(tenantId: string, connectionId: string, eventAt: Date, dueAt: Date, trigger: RequestTrigger = "webhook"): Promise<boolean> {
    const event = isoTime(eventAt, "eventAt");
    const due = isoTime(dueAt, "dueAt");
    checkRequestTrigger(trigger);
    // One statement by primary key: the earliest due and the latest event of the pending requests, and the due time moved
    // no later than the request's (next_sync_at is never NULL once the store opened: backfillSchedule).
    const res = this.stmt(
      `UPDATE connections SET
         sync_requested_due = min(coalesce(sync_requested_due, @due), @due),
         sync_requested_last = max(coalesce(sync_requested_last, @event), @event),
         sync_requested_trigger = @trigger,
         next_sync_at = min(coalesce(next_sync_at, @due), @due)
       WHERE id = @id AND tenant_id = @tenant_id`,
    ).run({ id: connectionId, tenant_id: tenantId, due, event, trigger });
    return res.changes === 1;
  }

  async recordDelivery(tenantId: string, connectionId: string, deliveryId: string, now: Date): Promise<boolean> {
    validateDeliveryId(deliveryId);
    const received = isoTime(now, "now");
    const forgetBefore = new Date(now.getTime() - DELIVERY_MEMORY_MS).toISOString();
    return this.tx(() => {
      this.requireConnection(tenantId, connectionId);
      // Forgets the connection's ids older than the memory (one range of webhook_deliveries_received), so that the table
      // stays bounded and an id seen that long ago counts as new.
      this.stmt("DELETE FROM webhook_deliveries WHERE connection_id = ? AND tenant_id = ? AND received_at < ?").run(connectionId, tenantId, forgetBefore);
      const res = this.stmt("INSERT OR IGNORE INTO webhook_deliveries (connection_id, delivery_id, tenant_id, received_at) VALUES (?, ?, ?, ?)").run(
        connectionId,
        deliveryId,
        tenantId,
        received,
      );
      return res.changes === 1;
    });
  }

  /**
   * Seals every stored credential again (key rotation): `reseal` answers the
   * new bytes, or undefined to leave a value as it is. A value changed
   * meanwhile by another writer is left alone (it was sealed anew by it).
   * Answers how many values were replaced.
   */
  async resealSecrets(reseal: (sealed: Uint8Array, owner: { tenantId: string; id: string }) => Uint8Array | undefined): Promise<number> {
    const rows = this.stmt("SELECT id, tenant_id, credentials FROM connections WHERE credentials IS NOT NULL").all() as {
      id: string;
      tenant_id: string;
      credentials: Buffer;
    }[];
    let replaced = 0;
    for (const r of rows) {
      const next = reseal(new Uint8Array(r.credentials), { tenantId: r.tenant_id, id: r.id });
      if (!next) continue;
      replaced += this.stmt("UPDATE connections SET credentials = ? WHERE id = ? AND tenant_id = ? AND credentials = ?").run(
        Buffer.from(next),
        r.id,
        r.tenant_id,
        r.credentials,
      ).changes;
    }
    return replaced;
  }

  /**
   * Records which key seals the stored credentials (its fingerprint, not the
   * key), as the settings store does for client secrets: a different key is
   * refused while sealed credentials exist, since none could be opened any
   * more; without stored credentials the new key is adopted. Run at start.
   *
   * With a keyring (`fingerprints`, newest first) the stored fingerprint
   * is kept while it is one of the ring's: values sealed with that key still
   * open. `resealed` (after every value was sealed again with the newest key,
   * `pnpm secrets reseal`) records the newest key, so that the older ones can
   * leave the ring.
   */
  bindSecretKey(fingerprints: string | readonly string[], o: { resealed?: boolean } = {}): void {
    const ring = typeof fingerprints === "string" ? [fingerprints] : fingerprints;
    const keyId = ring[0]!;
    this.tx(() => {
      const row = this.stmt("SELECT value FROM meta WHERE name = 'secret_key_id'").get() as { value: string } | undefined;
      if (row?.value === keyId || (row && !o.resealed && ring.includes(row.value))) return;
      if (row && !o.resealed) {
        const sealed = (this.stmt("SELECT count(*) AS n FROM connections WHERE credentials IS NOT NULL").get() as { n: number }).n;
        if (sealed > 0) {
          throw new Error(
            `the secret key differs from the one that sealed the credentials of ${sealed} connection(s) in ${CONNECTIONS_SQLITE_NAME}.db; ` +
              "restore the previous ENGRAM_SECRET_KEY or <dataDir>/secret.key, or list it in ENGRAM_SECRET_KEYS until `pnpm secrets reseal` has run",
          );
        }
      }
      this.stmt("INSERT INTO meta (name, value) VALUES ('secret_key_id', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value").run(keyId);
    });
  }

  /** The bound key fingerprint (inspection and tests). */
  boundSecretKeyId(): string | undefined {
    return (this.stmt("SELECT value FROM meta WHERE name = 'secret_key_id'").get() as { value: string } | undefined)?.value;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  // --- helpers -------------------------------------------------------------

  private read(tenantId: string, id: string): Connection | undefined {
    const r = this.stmt(`SELECT ${CONNECTION_COLUMNS} FROM connections WHERE id = ? AND tenant_id = ?`).get(id, tenantId) as ConnectionRow | undefined;
    return r ? fromRow(r) : undefined;
  }

  private exists(tenantId: string, id: string): boolean {
    return this.stmt("SELECT 1 FROM connections WHERE id = ? AND tenant_id = ?").get(id, tenantId) !== undefined;
  }

  private requireConnection(tenantId: string, id: string): void {
    if (!this.exists(tenantId, id)) throw new NotFoundError(`connection ${id} not found`);
  }

  /**
   * Recomputes the connection's next sync from its provider, its config and
   * the start of its most recent finished run, after `finished` when a run
   * just finished (kept only when it is the latest), and from its pending
   * sync request: the due time is the earlier of the schedule's and the
   * request's. A finished run settles the request (unless a later-started run
   * already finished, which settled it): cleared when its latest event is not
   * after the run's start (the run saw every event), else kept and due at the
   * run's completion. Runs inside the caller's transaction.
   */
  private reschedule(tenantId: string, id: string, finished?: { startedAt: string; completedAt?: string }): void {
    const r = this.stmt(
      `SELECT provider, config, created_at, last_sync_started_at, sync_requested_due, sync_requested_last FROM connections
       WHERE id = ? AND tenant_id = ?`,
    ).get(id, tenantId) as
      Pick<ConnectionRow, "provider" | "config" | "created_at" | "last_sync_started_at" | "sync_requested_due" | "sync_requested_last"> | undefined;
    if (!r) return;
    let last = opt(r.last_sync_started_at);
    let requestDue = opt(r.sync_requested_due);
    let requestLast = opt(r.sync_requested_last);
    if (finished !== undefined) {
      const started = isoOf(finished.startedAt);
      if (last === undefined || started >= last) {
        last = started;
        if (requestLast !== undefined && requestLast <= started) requestDue = requestLast = undefined;
        else if (requestLast !== undefined && finished.completedAt !== undefined) requestDue = isoOf(finished.completedAt);
      }
    }
    const conn = { provider: r.provider as ConnectionProvider, config: jsonColumn.read<JsonObject>(r.config), createdAt: r.created_at };
    this.stmt(
      `UPDATE connections SET last_sync_started_at = ?, next_sync_at = ?, sync_requested_due = ?, sync_requested_last = ?,
         sync_requested_trigger = CASE WHEN ? IS NULL THEN NULL ELSE sync_requested_trigger END
       WHERE id = ? AND tenant_id = ?`,
    ).run(last ?? null, earliest(nextSyncAt(conn, last), requestDue), requestDue ?? null, requestLast ?? null, requestDue ?? null, id, tenantId);
  }

  /**
   * Gives the rows stored before the schedule columns existed their due
   * time, from the start of their most recent run. Found through
   * `connections_due` (status, then a NULL next_sync_at), so opening a store
   * with nothing to fill costs one index probe per status.
   */
  private backfillSchedule(): void {
    this.tx(() => {
      const rows = this.stmt(`SELECT id, tenant_id FROM connections WHERE status IN (SELECT value FROM json_each(?)) AND next_sync_at IS NULL`).all(
        JSON.stringify(CONNECTION_STATUSES),
      ) as Pick<ConnectionRow, "id" | "tenant_id">[];
      for (const r of rows) {
        const run = this.stmt("SELECT started_at FROM sync_runs WHERE connection_id = ? AND tenant_id = ? ORDER BY started_at DESC, id DESC LIMIT 1").get(
          r.id,
          r.tenant_id,
        ) as { started_at: string } | undefined;
        this.reschedule(r.tenant_id, r.id, run && { startedAt: run.started_at });
      }
    });
  }

  private readRun(tenantId: string, id: string): SyncRun | undefined {
    const r = this.stmt("SELECT * FROM sync_runs WHERE id = ? AND tenant_id = ?").get(id, tenantId) as RunRow | undefined;
    return r ? fromRunRow(r) : undefined;
  }

  private writeFinished(run: SyncRun): void {
    this.stmt(
      `UPDATE sync_runs SET status = @status, error_code = @error_code, error = @error, completed_at = @completed_at,
         documents_imported = @documents_imported, item_failures = @item_failures
       WHERE id = @id AND tenant_id = @tenant_id`,
    ).run({
      id: run.id,
      tenant_id: run.tenantId,
      status: run.status,
      error_code: run.errorCode ?? null,
      error: run.error ?? null,
      completed_at: run.completedAt ?? null,
      documents_imported: run.documentsImported,
      item_failures: JSON.stringify(run.itemFailures),
    });
  }

  private writeItem(tenantId: string, item: ConnectionItem): void {
    this.stmt(
      `INSERT INTO connection_items (connection_id, item_key, tenant_id, document_id, version, url, state, updated_at)
       VALUES (@connection_id, @item_key, @tenant_id, @document_id, @version, @url, @state, @updated_at)
       ON CONFLICT (connection_id, item_key) DO UPDATE SET
         document_id = excluded.document_id, version = excluded.version, url = excluded.url, state = excluded.state, updated_at = excluded.updated_at`,
    ).run({
      connection_id: item.connectionId,
      item_key: item.itemKey,
      tenant_id: tenantId,
      document_id: item.documentId,
      version: item.version,
      url: item.url ?? null,
      state: item.state ?? null,
      updated_at: item.updatedAt,
    });
  }
}

/** The time as stored (ISO); InvalidArgumentError when it is not a valid date. */
function isoTime(d: Date, field: string): string {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new InvalidArgumentError(`${field} must be a valid date`);
  return d.toISOString();
}

function validateDeliveryId(deliveryId: string): void {
  if (typeof deliveryId !== "string" || deliveryId.length < 1 || deliveryId.length > MAX_DELIVERY_ID)
    throw new InvalidArgumentError(`deliveryId: 1 to ${MAX_DELIVERY_ID} characters`);
}

function positive(n: number, field: string): number {
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${field} must be a positive integer`);
  return n;
}
