import { isStorageFault } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import { metrics } from "@engram/observability";
import { type SqliteDatabase, type SqliteStatement, statementCache, transactor } from "@engram/storage";
import type { EventBus, EventHeaders, OutgoingMessage } from "./port";

/**
 * Transactional outbox. A write that must publish events stores them in the
 * same transaction as the record (OutboxStore.add inside the repository's
 * transaction); the relay publishes them afterwards and deletes them only
 * once the bus acknowledged. A crash in between re-publishes (at least once).
 */
export interface OutboxEntry<Id = number> {
  id: Id;
  message: OutgoingMessage;
}

/**
 * What the relay needs from an outbox. `pending` returns the next entries to
 * publish, in an order that keeps each key's entries in the order they were
 * written (a store shared by several relays also claims them); `remove`
 * is called once the bus acknowledged them.
 */
export interface OutboxStore<Id = number> {
  pending(limit: number): OutboxEntry<Id>[] | Promise<OutboxEntry<Id>[]>;
  remove(ids: Id[]): void | Promise<void>;
  backlog(): number | Promise<number>;
  /**
   * A store whose `pending` claims rows for a while (shared by several
   * relays) extends the claim on a batch that is still being published; the
   * relay calls it every `renewEveryMs` until the bus acknowledged, so a slow
   * publish never lets another relay take the same rows.
   */
  renew?(ids: Id[]): void | Promise<void>;
  readonly renewEveryMs?: number;
}

/** Table for services whose embedded store is SQLite; include it in their migrations. */
export const OUTBOX_TABLE_SQL = `CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  topic TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL, headers TEXT NOT NULL,
  created_at INTEGER NOT NULL);`;

export class SqliteOutbox implements OutboxStore {
  private readonly insert;
  private readonly stmt: (sql: string) => SqliteStatement;
  private readonly tx: <T>(fn: () => T) => T;
  constructor(private readonly db: SqliteDatabase) {
    this.stmt = statementCache(db);
    this.tx = transactor(db);
    this.insert = db.prepare("INSERT INTO outbox (topic, key, value, headers, created_at) VALUES (?, ?, ?, ?, ?)");
  }

  /** Call inside the caller's transaction. */
  add(messages: OutgoingMessage[]): void {
    const now = Date.now();
    for (const m of messages) this.insert.run(m.topic, m.key, Buffer.from(m.value), JSON.stringify(m.headers), now);
  }

  pending(limit: number): OutboxEntry[] {
    const rows = this.stmt("SELECT id, topic, key, value, headers FROM outbox ORDER BY id LIMIT ?").all(limit) as {
      id: number;
      topic: string;
      key: string;
      value: Buffer;
      headers: string;
    }[];
    return rows.map((r) => ({
      id: r.id,
      message: { topic: r.topic, key: r.key, value: new Uint8Array(r.value), headers: JSON.parse(r.headers) as EventHeaders },
    }));
  }

  remove(ids: number[]): void {
    if (ids.length === 0) return;
    const del = this.stmt("DELETE FROM outbox WHERE id = ?");
    this.tx(() => ids.forEach((id) => del.run(id)));
  }

  backlog(): number {
    return (this.stmt("SELECT COUNT(*) AS n FROM outbox").get() as { n: number }).n;
  }
}

export interface OutboxRelayOptions {
  /** Entries per publish (default 256). */
  batchSize?: number;
  /** Poll interval when not notified (default 1000 ms). */
  idleMs?: number;
}

export class OutboxRelay<Id = number> {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private dirty = true;

  constructor(
    private readonly name: string,
    private readonly store: OutboxStore<Id>,
    private readonly bus: EventBus,
    protected readonly log: Logger,
    private readonly opts: OutboxRelayOptions = {},
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Ask the relay to publish now (after a write). */
  notify(): void {
    this.dirty = true;
    this.wakeUp?.();
  }

  /** Publishes what is pending, then stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    await this.flush().catch((err) => this.log.warn({ err }, "outbox flush on stop failed; entries stay for the next start"));
  }

  /** Publishes every pending entry; returns how many were published. */
  async flush(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.store.pending(this.opts.batchSize ?? 256);
      if (batch.length === 0) return total;
      await this.publishClaimed(batch);
      await this.store.remove(batch.map((e) => e.id));
      total += batch.length;
    }
  }

  /** Publishes a claimed batch, renewing the claim while the bus has not acknowledged it. */
  private async publishClaimed(batch: OutboxEntry<Id>[]): Promise<void> {
    const { renew, renewEveryMs } = this.store;
    if (!renew || !renewEveryMs) return this.bus.publish(batch.map((e) => e.message));
    const ids = batch.map((e) => e.id);
    const timer = setInterval(() => {
      Promise.resolve(renew.call(this.store, ids)).catch((err) => this.log.warn({ err, rows: ids.length }, "could not renew the outbox claim"));
    }, renewEveryMs);
    try {
      await this.bus.publish(batch.map((e) => e.message));
    } finally {
      clearInterval(timer);
    }
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      if (this.dirty) {
        this.dirty = false;
        try {
          await this.flush();
          failures = 0;
        } catch (err) {
          failures++;
          this.dirty = true;
          // A full disk is logged once (the storage monitor tells the rest), not on every retry.
          if (failures === 1 || !isStorageFault(err)) this.log.warn({ err, failures }, "outbox relay could not publish; retrying");
        }
        metrics
          .gauge("engram_outbox_backlog", "Outbox entries waiting to be published", ["outbox"])
          .labels(this.name)
          .set(await this.store.backlog());
      }
      const wait = failures ? Math.min(10_000, 100 * 2 ** failures) : (this.opts.idleMs ?? 1000);
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => ((this.dirty = true), resolve()), wait);
        this.wakeUp = () => (clearTimeout(t), resolve());
      });
      this.wakeUp = undefined;
    }
  }
}
