/**
 * Event-loop liveness for /healthz. A heartbeat timer on the watched thread
 * writes the time of each tick into shared memory; any thread (the same one,
 * or the all-in-one gateway thread answering HTTP while the services' thread
 * is busy) reads it. The loop is unhealthy while the last tick is older than
 * the bound (it is blocked now), and for a while after a gap longer than the
 * bound ended (it keeps stalling). Node's own `monitorEventLoopDelay` reports
 * only to the thread it watches and says nothing while that thread is blocked,
 * hence this small timer.
 */

/** Slots of the shared buffer: [last tick (ms since epoch), end of the last long gap, length of that gap]. */
const LAST_TICK = 0;
const LAST_STALL_END = 1;
const LAST_STALL_MS = 2;

export interface LoopHealthOptions {
  /** A gap between ticks above this is a stall (ms). */
  maxLagMs: number;
  /** Tick interval (ms). */
  intervalMs?: number;
  /** How long a past stall keeps the loop unhealthy (ms). */
  rememberMs?: number;
}

export interface LoopHealthStatus {
  ok: boolean;
  /** How long since the watched loop last ticked, beyond its interval (ms). */
  lagMs: number;
  /** Why it is unhealthy. */
  details?: string;
}

/** The heartbeat: started on the thread it watches; `buffer` goes to readers on other threads. */
export class LoopHeartbeat {
  readonly buffer = new SharedArrayBuffer(3 * BigInt64Array.BYTES_PER_ELEMENT);
  private readonly slots = new BigInt64Array(this.buffer);
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: LoopHealthOptions) {}

  start(): this {
    const interval = this.opts.intervalMs ?? 100;
    Atomics.store(this.slots, LAST_TICK, BigInt(Date.now()));
    this.timer = setInterval(() => {
      const now = Date.now();
      const gap = now - Number(Atomics.load(this.slots, LAST_TICK)) - interval;
      if (gap > this.opts.maxLagMs) {
        Atomics.store(this.slots, LAST_STALL_MS, BigInt(gap));
        Atomics.store(this.slots, LAST_STALL_END, BigInt(now));
      }
      Atomics.store(this.slots, LAST_TICK, BigInt(now));
    }, interval);
    this.timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  status(now = Date.now()): LoopHealthStatus {
    return readLoopHealth(this.buffer, this.opts, now);
  }
}

/** The health of the loop whose heartbeat writes `buffer` (any thread may call this). */
export function readLoopHealth(buffer: SharedArrayBuffer, opts: LoopHealthOptions, now = Date.now()): LoopHealthStatus {
  const slots = new BigInt64Array(buffer);
  const interval = opts.intervalMs ?? 100;
  const lagMs = Math.max(0, now - Number(Atomics.load(slots, LAST_TICK)) - interval);
  if (lagMs > opts.maxLagMs) return { ok: false, lagMs, details: `the event loop has been blocked for ${Math.round(lagMs)} ms` };
  const stallEnd = Number(Atomics.load(slots, LAST_STALL_END));
  if (stallEnd > 0 && now - stallEnd < (opts.rememberMs ?? 30_000))
    return {
      ok: false,
      lagMs,
      details: `the event loop was blocked for ${Number(Atomics.load(slots, LAST_STALL_MS))} ms ${Math.round((now - stallEnd) / 1000)} s ago`,
    };
  return { ok: true, lagMs };
}
