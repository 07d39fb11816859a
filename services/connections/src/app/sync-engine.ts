import { createHash, randomUUID } from "node:crypto";
import { type Clock, ConflictError, NotFoundError } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import {
  addItemFailure,
  applyConnectionEvent,
  canSync,
  type Connection,
  type ConnectionItem,
  emptyItemFailures,
  finishSyncRun,
  INTERRUPTED_RUN_ERROR,
  type ItemFailures,
  newSyncRun,
  type SyncErrorCode,
  type SyncRun,
  type SyncTrigger,
  underDocumentLimit,
} from "../domain/connection";
import { ConnectorError } from "../domain/errors";
import { type ConnectionRepository, patchStored } from "./connection-ports";
import { type Connector, type ConnectorChange, type DocumentSink, type ImportPolicy, RENEWAL_INTERVAL_MS, type WebhookTarget } from "./sync-ports";

export interface SyncEngineOptions {
  /** How long a lease lasts between renewals. */
  leaseTtlMs?: number;
  /** This replica's name in leases. */
  holder?: string;
  /**
   * Called when a run of this engine ends after a sync of its connection was asked for during it (the follow-up
   * request is due now): the composition root has the scheduler look at once instead of at its next interval.
   */
  onFollowUpDue?: () => void;
}

/**
 * How many sync runs of a connection are kept: after each run finishes, the
 * older ones are removed (GET /v3/connections/{id}/runs shows what is left).
 */
export const SYNC_RUNS_KEPT = 100;

export type SyncOutcome = { started: false; reason: "busy" | "not_syncable" } | { started: true; run: SyncRun };

/**
 * Runs a connection's sync: takes its lease (one sync per connection at a
 * time, across replicas), asks the provider's connector for changes since
 * the known items, and applies each one durably before the next: the
 * document through ingestion first, then the ledger (and the cursor) in one
 * atomic page. A crash between the two re-imports the same item under the
 * same caller id next time, which ingestion treats as the same document.
 * Per-item failures are recorded on the run and never stop it; the
 * connection's documentLimit is enforced on new items.
 */
export class SyncEngine {
  private readonly ttlMs: number;
  private readonly holder: string;
  /** Connections this engine is syncing now. */
  private readonly active = new Set<string>();
  /** Connections of which a sync was asked for while this engine ran one (their follow-up is due when it ends). */
  private readonly followUps = new Set<string>();
  private readonly onFollowUpDue: (() => void) | undefined;

  constructor(
    private readonly deps: {
      repo: ConnectionRepository;
      sink: DocumentSink;
      connectors: Partial<Record<Connection["provider"], Connector>>;
      clock: Clock;
      logger: Logger;
      /** Where a connection's notifications go (subscription renewals); absent = no renewals. */
      webhookTarget?: (conn: Connection) => WebhookTarget;
      /** The organisation's import policy for a connection, read once per run; undefined = everything is imported. */
      importPolicy?: (conn: Connection) => Promise<ImportPolicy | undefined>;
    },
    opts: SyncEngineOptions = {},
  ) {
    this.ttlMs = opts.leaseTtlMs ?? 5 * 60_000;
    this.holder = opts.holder ?? `connections-${randomUUID()}`;
    this.onFollowUpDue = opts.onFollowUpDue;
  }

  /** The provider's connector (undefined: not available yet). */
  connector(provider: Connection["provider"]): Connector | undefined {
    return this.deps.connectors[provider];
  }

  /** Whether a connector exists for the provider (the others cannot be synced yet). */
  supports(provider: Connection["provider"]): boolean {
    return this.deps.connectors[provider] !== undefined;
  }

  /** Syncs the connection now (awaits the whole run). */
  async run(tenantId: string, connectionId: string, trigger: SyncTrigger, signal: AbortSignal = new AbortController().signal): Promise<SyncOutcome> {
    const { repo, clock } = this.deps;
    const conn = await repo.get(tenantId, connectionId);
    const connector = conn && this.deps.connectors[conn.provider];
    if (!conn || !connector || !canSync(conn, clock.now().toISOString()) || connector.ready?.(conn) === false)
      return { started: false, reason: "not_syncable" };
    // The lease is per replica: a second sync of the connection in this process is refused here.
    if (this.active.has(connectionId)) return this.followUp(conn, trigger);
    this.active.add(connectionId);
    try {
      const out = await this.leased(conn, connector, trigger, signal);
      return out.started ? out : await this.followUp(conn, trigger);
    } finally {
      this.active.delete(connectionId);
      if (this.followUps.delete(connectionId)) this.onFollowUpDue?.();
    }
  }

  /**
   * A sync asked for while another run of the connection is going on (here or on another replica) is not dropped:
   * it is recorded as a durable sync request made now, which the running run's finish keeps (its event came after
   * the run started) and makes due at its completion, so one more run follows with this trigger. Webhooks record
   * their request before they get here.
   */
  private async followUp(conn: Connection, trigger: SyncTrigger): Promise<SyncOutcome> {
    if (trigger !== "webhook") {
      const now = this.deps.clock.now();
      await this.deps.repo.requestSync(conn.tenantId, conn.id, now, now, trigger === "initial" ? "manual" : trigger);
      if (this.active.has(conn.id)) this.followUps.add(conn.id);
      this.deps.logger.info({ connectionId: conn.id, trigger }, "a sync of the connection is running: one more run follows it");
    }
    return { started: false, reason: "busy" };
  }

  private async leased(conn: Connection, connector: Connector, trigger: SyncTrigger, signal: AbortSignal): Promise<SyncOutcome> {
    const { repo, clock } = this.deps;
    const { tenantId, id: connectionId } = conn;
    if (!(await repo.tryAcquireLease(tenantId, connectionId, this.holder, this.ttlMs, clock.now()))) return { started: false, reason: "busy" };
    let run = await repo.startRun(newSyncRun({ tenantId, connectionId, trigger }, clock.now().toISOString()));
    const log = this.deps.logger.child({ connectionId, runId: run.id, provider: conn.provider });
    let imported = 0;
    let failures: ItemFailures = emptyItemFailures();
    let failure: { code: SyncErrorCode; message?: string } | undefined;
    /** New or changed items the import policy refused (their documents removed when there were any). */
    let excluded = 0;
    try {
      const renewal = await this.renew(conn, connector);
      if (renewal) failures = addItemFailure(failures, "subscriptions", renewal);
      const known = await this.knownItems(conn);
      const policy = await this.deps.importPolicy?.(conn);
      let count = known.size;
      // After an item failed to apply, the cursor stays where it was: the next run offers that item again.
      let applyFailed = false;
      /** Items this run imported (or removed: null), by key. */
      const written = new Map<string, ConnectionItem | null>();
      let renewAt = clock.now().getTime() + this.ttlMs / 3;
      for await (const change of connector.changes(conn, known, signal)) {
        if (clock.now().getTime() >= renewAt) {
          if (!(await repo.renewLease(tenantId, connectionId, this.holder, this.ttlMs, clock.now())))
            throw new ConnectorError("internal", "the sync lost its lease");
          renewAt = clock.now().getTime() + this.ttlMs / 3;
        }
        if (change.kind === "cursor") {
          if (!applyFailed) await this.apply(conn, undefined, change, count, written);
          continue;
        }
        try {
          // The ledger as this run left it: an item imported earlier in the run is known to a later delete.
          const current = written.has(change.itemKey) ? (written.get(change.itemKey) ?? undefined) : known.get(change.itemKey);
          const applied = await this.apply(conn, current, change, count, written, policy);
          if (applied === "excluded" || (applied === "removed" && change.kind === "upsert")) excluded++;
          if (applied === "imported") imported++;
          if (applied === "imported" && !current) count++;
          if (applied === "removed") count--;
          if (applied === "limit") failures = addItemFailure(failures, change.itemKey, "the connection's documentLimit is reached");
          if (change.kind === "failure") failures = addItemFailure(failures, change.itemKey, change.reason);
        } catch (err) {
          // The connection was deleted under the sync, or its authorization is gone: the run ends here.
          if (err instanceof NotFoundError) throw err;
          if (err instanceof ConnectorError && !err.retryable && err.code !== "internal") throw err;
          failures = addItemFailure(failures, change.itemKey, err instanceof Error ? err.message : String(err));
          applyFailed = true;
          log.warn({ err, itemKey: change.itemKey }, "a sync item failed");
        }
      }
    } catch (err) {
      failure = err instanceof ConnectorError ? { code: err.code, message: err.message } : { code: "internal", message: "the sync failed" };
      if (signal.aborted && !(err instanceof NotFoundError)) {
        // Interrupted by a shutdown, not failed: the run is recorded as interrupted, and a sync request made now (after
        // the run started, so its finish keeps it) makes the connection due again: the first look for due syncs after
        // the restart resumes it from the cursor the applied changes left (items already imported are skipped).
        failure = { code: "internal", message: INTERRUPTED_RUN_ERROR };
        log.info({ imported }, "sync interrupted by the shutdown; it resumes after the restart");
        try {
          const now = clock.now();
          await repo.requestSync(tenantId, connectionId, now, now, trigger === "initial" ? "manual" : trigger);
        } catch (e) {
          if (!(e instanceof NotFoundError)) log.error({ err: e }, "could not record the interrupted sync for resumption");
        }
      } else if (err instanceof NotFoundError) log.info("the connection was deleted during its sync");
      else log.error({ err }, "sync failed");
      if (failure.code === "auth_expired") await this.loseAuthorization(tenantId, connectionId);
    }
    const finished = finishSyncRun(run, { documentsImported: imported, itemFailures: failures, failure }, clock.now().toISOString());
    try {
      run = await repo.finishRun(finished);
      // Still under the lease: no other run of the connection starts meanwhile.
      await this.pruneRuns(tenantId, connectionId, run.id);
      await repo.releaseLease(tenantId, connectionId, this.holder);
    } catch (err) {
      // A deleted connection took its runs and lease with it.
      if (!(err instanceof NotFoundError)) throw err;
      run = finished;
    }
    log.info({ status: run.status, imported, failed: failures.count, excluded }, "sync finished");
    return { started: true, run };
  }

  /** Keeps the newest SYNC_RUNS_KEPT runs of the connection; a failure is logged, never the run's. */
  private async pruneRuns(tenantId: string, connectionId: string, runId: string): Promise<void> {
    try {
      await this.deps.repo.pruneRuns(tenantId, connectionId, SYNC_RUNS_KEPT);
    } catch (err) {
      this.deps.logger.warn({ err, connectionId, runId }, "could not prune the connection's old sync runs");
    }
  }

  /**
   * Renews the connection's provider subscriptions when RENEWAL_INTERVAL_MS
   * has passed since the last renewal, and stores the config it returns.
   * Returns why it failed (the run goes on and records it), or undefined;
   * a refused authorization ends the run.
   */
  private async renew(conn: Connection, connector: Connector): Promise<string | undefined> {
    const { clock, webhookTarget } = this.deps;
    const now = clock.now();
    const last = conn.config?.renewedAt;
    if (!connector.renew || !webhookTarget || (typeof last === "string" && Date.parse(last) + RENEWAL_INTERVAL_MS > now.getTime())) return undefined;
    try {
      const config = await connector.renew(conn, { now, webhook: webhookTarget(conn) });
      await patchStored(this.deps.repo, conn, { config: { ...(config ?? conn.config), renewedAt: now.toISOString() } }, () => clock.now().toISOString());
      return undefined;
    } catch (err) {
      if (err instanceof ConnectorError && err.code === "auth_expired") throw err;
      if (err instanceof NotFoundError) throw err;
      this.deps.logger.warn({ err, connectionId: conn.id }, "could not renew the connection's subscriptions");
      return `subscriptions could not be renewed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  /** The provider refused the credentials: the connection waits for a new authorization (no more syncs until then). */
  private async loseAuthorization(tenantId: string, connectionId: string): Promise<void> {
    const { repo, clock } = this.deps;
    try {
      const conn = await repo.get(tenantId, connectionId);
      if (conn?.status === "active") await repo.update(applyConnectionEvent(conn, "authorization_lost", clock.now().toISOString()));
    } catch (err) {
      // Changed or deleted meanwhile: the next run sees its state.
      if (!(err instanceof ConflictError) && !(err instanceof NotFoundError)) throw err;
    }
  }

  /** The caller id of an item's document: stable per connection and item, within the API's id alphabet. */
  static customIdOf(connectionId: string, itemKey: string): string {
    return `${connectionId}.${createHash("sha256").update(itemKey).digest("hex").slice(0, 40)}`;
  }

  private async knownItems(conn: Connection): Promise<Map<string, ConnectionItem>> {
    const known = new Map<string, ConnectionItem>();
    let after: string | undefined;
    do {
      const page = await this.deps.repo.listItemKeys(conn.tenantId, conn.id, { after, limit: 500 });
      for (const [k, v] of await this.deps.repo.getItems(conn.tenantId, conn.id, page.items)) known.set(k, v);
      after = page.next;
    } while (after);
    return known;
  }

  /** An unchanged item's new provider state (validators, links) in the ledger. */
  private async restate(conn: Connection, item: ConnectionItem, state: string, written: Map<string, ConnectionItem | null>): Promise<void> {
    const next = { ...item, state, updatedAt: this.deps.clock.now().toISOString() };
    await this.deps.repo.applySyncPage(conn.tenantId, conn.id, { holder: this.holder, now: this.deps.clock.now(), upserts: [next] });
    written.set(item.itemKey, next);
  }

  /** Applies one change durably: the document through ingestion first, then the ledger (and cursor) page. */
  private async apply(
    conn: Connection,
    item: ConnectionItem | undefined,
    change: ConnectorChange,
    count: number,
    written: Map<string, ConnectionItem | null>,
    policy?: ImportPolicy,
  ): Promise<"imported" | "removed" | "excluded" | "limit" | "none"> {
    const { repo, sink, clock } = this.deps;
    const page = { holder: this.holder, now: clock.now() };
    const now = clock.now().toISOString();
    switch (change.kind) {
      case "upsert": {
        if (item && item.version === change.version) {
          if (change.state !== undefined && change.state !== item.state) await this.restate(conn, item, change.state, written);
          return "none";
        }
        if (policy) {
          const verdict = await policy.admits({ ...change, content: change.content });
          if (!verdict.admit) {
            if (!item) return "excluded";
            // Filtered out now: the version imported before goes, as if the provider had deleted it.
            await sink.remove(conn, [item.documentId]);
            await repo.applySyncPage(conn.tenantId, conn.id, { ...page, removals: [item.itemKey] });
            written.set(change.itemKey, null);
            return "removed";
          }
        }
        if (!item && !underDocumentLimit(conn, count)) return "limit";
        const documentId = await sink.put(conn, {
          customId: SyncEngine.customIdOf(conn.id, change.itemKey),
          title: change.title,
          url: change.url,
          filepath: change.filepath,
          metadata: change.metadata,
          content: change.content,
        });
        const next: ConnectionItem = {
          connectionId: conn.id,
          itemKey: change.itemKey,
          documentId,
          version: change.version,
          url: change.url,
          state: change.state,
          updatedAt: now,
        };
        await repo.applySyncPage(conn.tenantId, conn.id, { ...page, upserts: [next] });
        written.set(change.itemKey, next);
        return "imported";
      }
      case "unchanged":
        if (item && change.state !== undefined && change.state !== item.state) await this.restate(conn, item, change.state, written);
        return "none";
      case "delete":
        if (!item) return "none";
        await sink.remove(conn, [item.documentId]);
        await repo.applySyncPage(conn.tenantId, conn.id, { ...page, removals: [item.itemKey] });
        written.set(change.itemKey, null);
        return "removed";
      case "failure":
        return "none";
      case "cursor":
        await repo.applySyncPage(conn.tenantId, conn.id, { ...page, cursor: change.cursor });
        return "none";
    }
  }
}
