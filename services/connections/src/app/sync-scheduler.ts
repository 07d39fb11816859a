import type { Clock } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import type { ConnectionProvider } from "../domain/connection";
import type { ConnectionRepository, DueConnection } from "./connection-ports";
import type { SyncOutcome } from "./sync-engine";

export interface SyncSchedulerOptions {
  /** Between two looks for due connections (ms); 0 turns scheduled syncs off. */
  intervalMs: number;
  /** Scheduled syncs this replica runs at once; also the most due connections one look asks for. */
  maxConcurrent: number;
}

export interface SyncSchedulerDeps {
  repo: Pick<ConnectionRepository, "dueForSync">;
  /**
   * Starts the connection's sync the way a manual import does (the use
   * cases' `runSync` with trigger `scheduled`: tracked there, so that their
   * `stop` aborts and awaits it) and resolves when it ends: its outcome, or
   * undefined when it could not run.
   */
  runSync(due: DueConnection): Promise<SyncOutcome | undefined>;
  /**
   * Providers with a connector. Connections of the others are never asked
   * for: they could not sync, so they would stay due and fill every look.
   */
  providers: readonly ConnectionProvider[];
  clock: Clock;
  logger: Logger;
}

/** What one look did. */
export interface SchedulerLook {
  /** Due connections the store answered. */
  due: number;
  /** Syncs started. */
  started: number;
}

const keyOf = (d: Pick<DueConnection, "tenantId" | "connectionId">) => `${d.tenantId}\u0000${d.connectionId}`;

/**
 * Scheduled syncs: every `intervalMs`, asks the store for the connections
 * due for a sync (`dueForSync`, across tenants, longest-due first, at most
 * `maxConcurrent`) and starts as many as free slots allow, so that at most
 * `maxConcurrent` scheduled syncs run on this replica at once. Manual and
 * initial syncs are not counted: they run at a user's request.
 *
 * - Never overlaps itself: the next look is armed only after the current one
 *   ended (a timer chain, not an interval), and a look asked for while one
 *   runs joins it.
 * - Replicas: each one looks on its own. The lease lets only one of them
 *   sync a connection; the store leaves leased connections out, and a sync
 *   that finds the lease taken anyway (a race between two looks) comes back
 *   `busy` and is simply skipped. A connection this replica already started
 *   is never started twice, even before its sync took the lease.
 * - When a scheduled sync that ran ends and the last look was full (more may
 *   be due), the next look happens at once rather than a whole interval
 *   later; a skipped one (busy, not syncable, failed to start) waits for the
 *   interval, so skips never turn into a tight loop.
 * - `stop` stops the timer and waits for a look under way, so no sync starts
 *   after it returns; the syncs already running are the use cases' to abort
 *   and await (their `stop`, called after this one).
 * - Times come from the injected clock; the timer is Node's (unref'd).
 */
export class SyncScheduler {
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<SchedulerLook> | undefined;
  private state: "idle" | "running" | "stopped" = "idle";
  private moreDue = false;
  private readonly log: Logger;

  constructor(
    private readonly deps: SyncSchedulerDeps,
    private readonly opts: SyncSchedulerOptions,
  ) {
    if (!Number.isInteger(opts.intervalMs) || opts.intervalMs < 0) throw new RangeError(`intervalMs must be a non-negative integer, not ${opts.intervalMs}`);
    if (!Number.isInteger(opts.maxConcurrent) || opts.maxConcurrent < 1)
      throw new RangeError(`maxConcurrent must be a positive integer, not ${opts.maxConcurrent}`);
    this.log = deps.logger.child({ component: "sync-scheduler" });
  }

  /** False when the interval is 0: `start` then does nothing. */
  get enabled(): boolean {
    return this.opts.intervalMs > 0;
  }

  /** Scheduled syncs under way on this replica. */
  get running(): number {
    return this.inFlight.size;
  }

  /** Arms the first look one interval from now. Does nothing when disabled, already started, or stopped. */
  start(): void {
    if (this.state !== "idle") return;
    if (!this.enabled) {
      this.log.info("scheduled syncs are off (SYNC_SCHEDULER_INTERVAL_MS=0)");
      return;
    }
    this.state = "running";
    this.arm(this.opts.intervalMs);
    this.log.info({ intervalMs: this.opts.intervalMs, maxConcurrent: this.opts.maxConcurrent }, "scheduled syncs on");
  }

  /**
   * One look now: what the timer runs (and tests call). Joins a look under
   * way instead of starting a second one. Rejects when the store cannot be
   * read (the timer logs it and looks again at the next interval).
   */
  tick(): Promise<SchedulerLook> {
    this.current ??= this.look().finally(() => {
      this.current = undefined;
    });
    return this.current;
  }

  /** Stops the timer and waits for a look under way; no sync starts after it returns. Running syncs go on. */
  async stop(): Promise<void> {
    this.state = "stopped";
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.current?.catch(() => undefined);
  }

  /** Waits until no scheduled sync runs (tests; shutdown waits through the use cases). */
  async whenIdle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight.values()]);
  }

  private async look(): Promise<SchedulerLook> {
    const { maxConcurrent } = this.opts;
    if (this.stopped() || this.inFlight.size >= maxConcurrent || this.deps.providers.length === 0) return { due: 0, started: 0 };
    // As many as the cap: those already under way hold their lease and are left out by the store, save in the moment before
    // their sync takes it, when they are skipped here.
    const due = await this.deps.repo.dueForSync(this.deps.clock.now(), { limit: maxConcurrent, providers: this.deps.providers });
    let started = 0;
    for (const d of due) {
      // Stopped while the store answered: nothing more starts.
      if (this.stopped() || this.inFlight.size >= maxConcurrent) break;
      if (this.inFlight.has(keyOf(d))) continue;
      this.launch(d);
      started++;
    }
    this.moreDue = due.length >= maxConcurrent;
    if (started) this.log.info({ due: due.length, started, running: this.inFlight.size }, "started scheduled syncs");
    return { due: due.length, started };
  }

  /** A method, not a narrowed field read: `stop` may run while a look awaits the store. */
  private stopped(): boolean {
    return this.state === "stopped";
  }

  private launch(d: DueConnection): void {
    const key = keyOf(d);
    const ctx = { tenantId: d.tenantId, connectionId: d.connectionId, provider: d.provider };
    let sync: Promise<SyncOutcome | undefined>;
    try {
      // Called now, not in a later tick: once a look ended, every sync it started is registered with the use cases.
      sync = this.deps.runSync(d);
    } catch (err) {
      sync = Promise.reject(err);
    }
    const done = sync
      .then(
        (outcome) => {
          // busy: another replica (or a manual import) is syncing it; not_syncable: it changed since the look.
          if (outcome && !outcome.started) this.log.debug({ ...ctx, reason: outcome.reason }, "scheduled sync skipped");
          return outcome?.started === true;
        },
        (err: unknown) => {
          this.log.error({ ...ctx, err }, "a scheduled sync could not run");
          return false;
        },
      )
      .then((ran) => {
        this.inFlight.delete(key);
        if (ran && this.moreDue && this.state === "running") this.arm(0);
      });
    this.inFlight.set(key, done);
  }

  private arm(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fire(), ms);
    this.timer.unref();
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    try {
      await this.tick();
    } catch (err) {
      this.log.warn({ err }, "could not look for connections due for a sync; looking again at the next interval");
    }
    // Unless a sync that ended meanwhile armed an earlier look.
    if (this.state === "running" && !this.timer) this.arm(this.opts.intervalMs);
  }
}
