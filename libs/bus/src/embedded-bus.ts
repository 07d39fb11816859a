import { EventEmitter } from "node:events";
import { setTimeout as wait } from "node:timers/promises";
import type { Logger } from "@engram/observability";
import { openSqlite, type SqliteDatabase, type SqliteStatement, statementCache, transactor } from "@engram/storage";
import {
  AttemptsExhaustedError,
  backoffDelay,
  busMetrics,
  DEFAULT_BACKOFF_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_BACKOFF_MS,
  deadLetterMessage,
  traceDelivery,
} from "./delivery";
import { type DeliveredMessage, type EventBus, type EventHeaders, type OutgoingMessage, type SubscribeOptions, type Subscription } from "./port";
import { partitionFor } from "./partition";
import { isStorageFault } from "@engram/kernel";

export interface EmbeddedBusOptions {
  dataDir: string;
  logger: Logger;
  partitions?: number;
  /** Handler attempts before a message is dead-lettered. */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Fallback poll interval when no in-process wake-up arrives. */
  pollMs?: number;
  /** Messages fetched per partition per round. */
  fetchSize?: number;
}

const MIGRATIONS = [
  `CREATE TABLE messages (
     topic TEXT NOT NULL, partition INTEGER NOT NULL, offset INTEGER NOT NULL,
     key TEXT NOT NULL, value BLOB NOT NULL, headers TEXT NOT NULL, created_at INTEGER NOT NULL,
     PRIMARY KEY (topic, partition, offset)) WITHOUT ROWID;
   CREATE TABLE heads (topic TEXT NOT NULL, partition INTEGER NOT NULL, next_offset INTEGER NOT NULL, PRIMARY KEY (topic, partition)) WITHOUT ROWID;
   CREATE TABLE group_offsets (group_id TEXT NOT NULL, topic TEXT NOT NULL, partition INTEGER NOT NULL, committed INTEGER NOT NULL,
     PRIMARY KEY (group_id, topic, partition)) WITHOUT ROWID;`,
  // Attempts started for the message at `committed` (see AttemptLedger): a poison message that stops the
  // process on every attempt is dead-lettered after maxAttempts restarts instead of looping for ever.
  `ALTER TABLE group_offsets ADD COLUMN inflight_attempts INTEGER NOT NULL DEFAULT 0;`,
];

/**
 * Pruning, per topic-partition: the lowest offset every group that consumes it has committed, then the messages below
 * it as one range of the primary key. One `DELETE ... WHERE offset < (SELECT MIN(committed) ... correlated)` walked
 * every retained message on each prune (a backlog, dead letters no group reads), evaluating the subquery per row, with
 * the event loop blocked: measured 0.44 s per prune (every minute) with 180,000 messages retained, 0.3 ms this way.
 * The plan is checked by a test.
 */
export const PRUNE_FLOORS_SQL = "SELECT topic, partition, MIN(committed) AS floor FROM group_offsets GROUP BY topic, partition";
export const PRUNE_PARTITION_SQL = "DELETE FROM messages WHERE topic = ? AND partition = ? AND offset < ?";

/** Resolves after `ms`, or as soon as `signal` aborts. */
const sleep = (ms: number, signal?: AbortSignal): Promise<void> => wait(ms, undefined, signal ? { signal } : undefined).catch(() => undefined);
/** Wake-ups are per topic-partition: a publish wakes only the loops that have new work. */
const wakeKey = (topic: string, partition: number) => `${topic}#${partition}`;

/**
 * The in-process event bus for all-in-one mode: a partitioned, durable log in
 * SQLite (<dataDir>/bus.db) with per-group committed offsets. A crash loses
 * nothing: uncommitted messages are delivered again after a restart.
 */
export class EmbeddedEventBus implements EventBus {
  private readonly db: SqliteDatabase;
  private readonly stmt: (sql: string) => SqliteStatement;
  private readonly tx: <T>(fn: () => T) => T;
  private readonly wake = new EventEmitter();
  private readonly subs = new Set<EmbeddedSubscription>();
  private readonly versions = new Map<string, number>();
  /**
   * Next offset per topic-partition, read from bus.db once and then kept here: this bus is the
   * file's only writer (one process), so consumers that caught up learn it without a query.
   */
  private readonly heads = new Map<string, number>();
  private readonly partitions: number;
  private readonly insert;
  private readonly nextOffset;
  private readonly bumpHead;
  private closed = false;
  private pruneTimer: NodeJS.Timeout;

  constructor(private readonly opts: EmbeddedBusOptions) {
    this.partitions = opts.partitions ?? 8;
    this.db = openSqlite({ dataDir: opts.dataDir, name: "bus", migrations: MIGRATIONS });
    this.stmt = statementCache(this.db);
    this.tx = transactor(this.db);
    this.wake.setMaxListeners(0);
    this.insert = this.stmt("INSERT INTO messages (topic, partition, offset, key, value, headers, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
    this.nextOffset = this.stmt("SELECT next_offset AS n FROM heads WHERE topic = ? AND partition = ?");
    this.bumpHead = this.stmt(
      "INSERT INTO heads (topic, partition, next_offset) VALUES (?, ?, ?) ON CONFLICT (topic, partition) DO UPDATE SET next_offset = excluded.next_offset",
    );
    this.pruneTimer = setInterval(() => this.prune(), 60_000);
    this.pruneTimer.unref();
  }

  async publish(messages: OutgoingMessage[]): Promise<void> {
    if (this.closed) throw new Error("event bus is closed");
    if (messages.length === 0) return;
    const now = Date.now();
    const touched = new Set<string>();
    const next = new Map<string, number>();
    this.tx(() => {
      for (const m of messages) {
        const p = partitionFor(m.key, this.partitions);
        const key = wakeKey(m.topic, p);
        const offset = next.get(key) ?? this.headOffset(m.topic, p);
        this.insert.run(m.topic, p, offset, m.key, Buffer.from(m.value), JSON.stringify(m.headers), now);
        next.set(key, offset + 1);
        touched.add(key);
      }
      // One head write per topic-partition of the batch, in the same transaction as its messages.
      for (const [key, offset] of next) {
        const at = key.lastIndexOf("#");
        this.bumpHead.run(key.slice(0, at), Number(key.slice(at + 1)), offset);
      }
    });
    // Committed: the heads move (a failed transaction leaves them where bus.db has them).
    for (const [key, offset] of next) this.heads.set(key, offset);
    for (const m of messages) busMetrics.published().labels(m.topic).inc();
    for (const t of touched) {
      this.versions.set(t, (this.versions.get(t) ?? 0) + 1);
      this.wake.emit(t);
    }
  }

  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error("event bus is closed");
    const sub = new EmbeddedSubscription(this, opts);
    this.subs.add(sub);
    sub.start();
    return {
      abort: (reason) => sub.abort(reason),
      close: async () => {
        await sub.stop();
        this.subs.delete(sub);
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pruneTimer);
    await Promise.all([...this.subs].map((s) => s.stop()));
    this.subs.clear();
    this.db.close();
  }

  // -- internals used by subscriptions --

  get partitionCount(): number {
    return this.partitions;
  }

  get options(): EmbeddedBusOptions {
    return this.opts;
  }

  /** Changes on every publish to the topic-partition, so a consumer never sleeps through a wake-up. */
  topicVersion(key: string): number {
    return this.versions.get(key) ?? 0;
  }

  onWake(key: string, fn: () => void): () => void {
    this.wake.on(key, fn);
    return () => this.wake.off(key, fn);
  }

  committed(group: string, topic: string, partition: number): number {
    const row = this.stmt("SELECT committed FROM group_offsets WHERE group_id = ? AND topic = ? AND partition = ?").get(group, topic, partition) as
      { committed: number } | undefined;
    if (row) return row.committed;
    // A new group starts at the earliest retained message (Kafka's auto.offset.reset=earliest).
    const first = this.stmt("SELECT MIN(offset) AS o FROM messages WHERE topic = ? AND partition = ?").get(topic, partition) as { o: number | null };
    const start = first.o ?? this.headOffset(topic, partition);
    this.commit(group, topic, partition, start);
    return start;
  }

  /**
   * Commits the group's position; `startedAttempts` records in the same statement that the first attempt of the
   * message at the new position starts (the consumer handles it next, at once): one write per message instead of two.
   */
  commit(group: string, topic: string, partition: number, offset: number, startedAttempts = 0): void {
    this.stmt(
      "INSERT INTO group_offsets (group_id, topic, partition, committed, inflight_attempts) VALUES (?, ?, ?, ?, ?) ON CONFLICT (group_id, topic, partition) DO UPDATE SET committed = excluded.committed, inflight_attempts = excluded.inflight_attempts",
    ).run(group, topic, partition, offset, startedAttempts);
  }

  /** Attempts started for the message at the group's committed position (AttemptLedger.started). */
  inflightAttempts(group: string, topic: string, partition: number, offset: number): number {
    const row = this.stmt("SELECT inflight_attempts AS n FROM group_offsets WHERE group_id = ? AND topic = ? AND partition = ? AND committed = ?").get(
      group,
      topic,
      partition,
      offset,
    ) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  /** Records that attempt `attempt` of the message at the committed position starts (AttemptLedger.record). */
  recordAttempt(group: string, topic: string, partition: number, offset: number, attempt: number): void {
    this.stmt("UPDATE group_offsets SET inflight_attempts = ? WHERE group_id = ? AND topic = ? AND partition = ? AND committed = ?").run(
      attempt,
      group,
      topic,
      partition,
      offset,
    );
  }

  /** The offset the next message published to the topic-partition gets. */
  headOffset(topic: string, partition: number): number {
    const key = wakeKey(topic, partition);
    let head = this.heads.get(key);
    if (head === undefined) {
      head = (this.nextOffset.get(topic, partition) as { n: number } | undefined)?.n ?? 0;
      this.heads.set(key, head);
    }
    return head;
  }

  fetch(topic: string, partition: number, fromOffset: number, limit: number): DeliveredMessage[] {
    if (fromOffset >= this.headOffset(topic, partition)) return []; // caught up: nothing to read
    const rows = this.stmt("SELECT offset, key, value, headers FROM messages WHERE topic = ? AND partition = ? AND offset >= ? ORDER BY offset LIMIT ?").all(
      topic,
      partition,
      fromOffset,
      limit,
    ) as { offset: number; key: string; value: Buffer; headers: string }[];
    return rows.map((r) => ({
      topic,
      partition,
      offset: r.offset,
      key: r.key,
      value: new Uint8Array(r.value),
      headers: JSON.parse(r.headers) as EventHeaders,
      attempt: 1,
    }));
  }

  /** Consumer lag of a group: messages not yet committed, over all partitions of its topics. */
  lag(group: string, topics: string[]): number {
    let lag = 0;
    for (const topic of topics) {
      for (let p = 0; p < this.partitions; p++) {
        const head = this.headOffset(topic, p);
        const row = this.stmt("SELECT committed FROM group_offsets WHERE group_id = ? AND topic = ? AND partition = ?").get(group, topic, p) as
          { committed: number } | undefined;
        lag += Math.max(0, head - (row?.committed ?? 0));
      }
    }
    return lag;
  }

  /** Drops messages every known group has committed past. */
  prune(): void {
    if (this.closed) return;
    const floors = this.stmt(PRUNE_FLOORS_SQL);
    const del = this.stmt(PRUNE_PARTITION_SQL);
    this.tx(() => {
      for (const f of floors.all() as { topic: string; partition: number; floor: number }[]) del.run(f.topic, f.partition, f.floor);
    });
  }
}

/** The reason handlers see when their subscription closes (DeliveredMessage.signal). */
export const subscriptionClosing = () => new Error("the event subscription is closing (the process is stopping)");

class EmbeddedSubscription {
  private stopping = false;
  private loops: Promise<void>[] = [];
  private readonly pending = new Set<() => void>();
  /**
   * Per topic-partition, the offset of a message handled whose commit then failed for lack of space: when the
   * loop comes back to it, it commits without handling it again (and without counting another attempt).
   */
  private readonly handledUncommitted = new Map<string, number>();
  /** Aborted when the subscription stops: the in-flight handlers' signal. */
  private readonly aborter = new AbortController();

  constructor(
    private readonly bus: EmbeddedEventBus,
    private readonly opts: SubscribeOptions,
  ) {}

  start(): void {
    for (const topic of this.opts.topics) {
      for (let p = 0; p < this.bus.partitionCount; p++) this.loops.push(this.run(topic, p));
    }
  }

  /** Stops fetching and aborts the in-flight handlers' signal, without waiting. */
  abort(reason: unknown = subscriptionClosing()): void {
    if (this.stopping) return;
    this.stopping = true;
    this.aborter.abort(reason);
    for (const wake of [...this.pending]) wake();
  }

  async stop(): Promise<void> {
    this.abort();
    await Promise.all(this.loops);
  }

  private waitForWork(key: string, seenVersion: number): Promise<void> {
    if (this.stopping || this.bus.topicVersion(key) !== seenVersion) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        off();
        this.pending.delete(finish);
        resolve();
      };
      const timer = setTimeout(finish, this.bus.options.pollMs ?? 1000);
      const off = this.bus.onWake(key, finish);
      this.pending.add(finish);
    });
  }

  private async run(topic: string, partition: number): Promise<void> {
    const { group } = this.opts;
    const log = this.bus.options.logger;
    const base = this.bus.options.backoffMs ?? DEFAULT_BACKOFF_MS;
    const maxBackoff = this.bus.options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
    // Stagger the start so a fresh process does not hit SQLite from every loop at once.
    await sleep(partition);
    const key = wakeKey(topic, partition);
    const lag = busMetrics.consumerLag().labels(group, topic, String(partition));
    // Only this loop commits for (group, topic, partition), so the position is tracked here (read, or for a new
    // group recorded, inside the loop: that is a write too).
    let from: number | undefined;
    // A full (or read-only) disk stops the loop where it is, without spending attempts or losing its place: it
    // waits and tries again from the last committed message until space returns (no restart needed).
    let storageWait = 0;
    while (!this.stopping) {
      try {
        if (from === undefined) {
          from = this.bus.committed(group, topic, partition);
          lag.set(Math.max(0, this.bus.headOffset(topic, partition) - from));
        }
        from = await this.runBatch(topic, partition, from, key, lag);
        // Debug only: the storage monitor logs the disk's change of state once for the process.
        if (storageWait > 0) log.debug({ topic, partition, group }, "event log: consuming resumes");
        storageWait = 0;
      } catch (err) {
        if (!isStorageFault(err)) throw err;
        if (storageWait === 0)
          log.debug({ err: (err as Error)?.message, topic, partition, group }, "event log: storage full or not writable; waiting for space");
        storageWait = Math.min(storageWait + 1, 6);
        await sleep(backoffDelay(storageWait, Math.max(base, 250), maxBackoff));
        // Again from the committed position: what the failed batch handled but could not commit comes again (at least once).
        from = undefined;
      }
    }
  }

  /** One fetched batch handled and committed; returns the next position. */
  private async runBatch(topic: string, partition: number, from: number, key: string, lag: { set(v: number): void }): Promise<number> {
    const { group, handler } = this.opts;
    const log = this.bus.options.logger;
    const maxAttempts = this.bus.options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const base = this.bus.options.backoffMs ?? DEFAULT_BACKOFF_MS;
    const maxBackoff = this.bus.options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
    const fetchSize = this.bus.options.fetchSize ?? 32;
    {
      const version = this.bus.topicVersion(key);
      const batch = this.bus.fetch(topic, partition, from, fetchSize);
      if (batch.length === 0) {
        await this.waitForWork(key, version);
        return from;
      }
      /** The message whose first attempt the last commit recorded as started (the one handled next). */
      let started: number | undefined;
      for (const [i, msg] of batch.entries()) {
        if (this.stopping) {
          // Recorded as started but never run: the attempt does not count.
          if (started === msg.offset) this.bus.recordAttempt(group, topic, partition, msg.offset, 0);
          return from;
        }
        if (this.handledUncommitted.get(key) === msg.offset) {
          this.bus.commit(group, topic, partition, msg.offset + 1);
          this.handledUncommitted.delete(key);
          from = msg.offset + 1;
          started = undefined;
          continue;
        }
        const traced = traceDelivery("engram_embedded", group, msg);
        const deadLetter = async (err: unknown, attempts: number, message: string) => {
          log.error({ err, topic, partition, offset: msg.offset, group, attempts, eventType: msg.headers["event-type"] }, message);
          traced.deadLettered(err, attempts);
          try {
            await this.bus.publish([deadLetterMessage({ ...msg, attempt: attempts }, group, err, attempts)]);
          } finally {
            traced.end("dead-lettered");
          }
          busMetrics.deadLettered().labels(topic, group).inc();
        };
        // Attempts a stopped process started on this message count (a poison message ends in the DLQ).
        // The message after one this loop committed had no attempt before the one that commit recorded.
        const firstRecorded = started === msg.offset;
        const prior = firstRecorded ? 0 : this.bus.inflightAttempts(group, topic, partition, msg.offset);
        for (let attempt = prior + 1; ; attempt++) {
          if (attempt > maxAttempts) {
            await deadLetter(new AttemptsExhaustedError(prior), prior, "event handler never finished; dead-lettering");
            break;
          }
          if (!(firstRecorded && attempt === 1)) this.bus.recordAttempt(group, topic, partition, msg.offset, attempt);
          try {
            await traced.attempt(attempt, () => handler({ ...msg, attempt, signal: this.aborter.signal }));
            traced.end("handled");
            break;
          } catch (err) {
            if (this.stopping) {
              // Cut short by the shutdown: not committed (delivered again after the restart), and the attempt does not
              // count (the message did not fail; a poison message that takes the process down is still counted).
              this.bus.recordAttempt(group, topic, partition, msg.offset, attempt - 1);
              log.info(
                { topic, partition, offset: msg.offset, group, attempt, reason: (err as Error)?.message },
                "event handler stopped by the shutdown; redelivered after restart",
              );
              return (traced.end("abandoned"), from);
            }
            // No space to store what the handler made: not the message's fault. The batch stops here and is
            // tried again once the disk can be written (the attempt is not counted against the message).
            if (isStorageFault(err)) {
              traced.end("abandoned");
              try {
                this.bus.recordAttempt(group, topic, partition, msg.offset, attempt - 1);
              } catch {
                // Still no space: the attempt stays counted (at worst one per wait).
              }
              throw err;
            }
            if (attempt >= maxAttempts) {
              await deadLetter(err, attempt, "event handler failed on every attempt; dead-lettering");
              break;
            }
            const delay = backoffDelay(attempt, base, maxBackoff);
            log.warn(
              { err: (err as Error)?.message, topic, partition, offset: msg.offset, group, attempt, retryInMs: delay },
              "event handler failed; retrying",
            );
            traced.retrying(err, attempt, delay);
            await sleep(delay, this.aborter.signal);
            if (this.stopping) return (traced.end("abandoned"), from); // not committed: redelivered after restart
          }
        }
        // Handled (or dead-lettered): a commit the disk refuses is retried without handling the message again. When the
        // next message of the batch follows, the same write records its first attempt as started (it runs at once).
        const next = batch[i + 1];
        const chained = next !== undefined && next.offset === msg.offset + 1 && !this.stopping;
        this.handledUncommitted.set(key, msg.offset);
        this.bus.commit(group, topic, partition, msg.offset + 1, chained ? 1 : 0);
        this.handledUncommitted.delete(key);
        started = chained ? next.offset : undefined;
        from = msg.offset + 1;
      }
      lag.set(Math.max(0, this.bus.headOffset(topic, partition) - from));
    }
    return from;
  }
}
