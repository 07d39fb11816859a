/**
 * Rate limits and quotas (docs/api-decisions.md section 17). Pure: the clock
 * is an argument and the shared state lives behind the RateStore port.
 */

/** A token bucket: `burst` tokens, refilled at one token per `intervalMs`. */
export interface BucketRule {
  intervalMs: number;
  burst: number;
}

export interface Decision {
  allowed: boolean;
  /** When refused: milliseconds until a request would be allowed. */
  retryAfterMs: number;
}

/**
 * The token bucket as GCRA (generic cell rate algorithm): the state is one
 * number, the bucket's "theoretical arrival time" `tat` (epoch ms; absent for
 * a full bucket). A request is allowed while `tat - now` stays within
 * `(burst - 1) * intervalMs`, and then moves `tat` one interval on. Returns the
 * decision and the new `tat` (unchanged when refused).
 */
export function takeToken(tat: number | undefined, now: number, rule: BucketRule): Decision & { tat: number } {
  const t = Math.max(tat ?? now, now);
  const tolerance = (rule.burst - 1) * rule.intervalMs;
  if (t - now <= tolerance) return { allowed: true, retryAfterMs: 0, tat: t + rule.intervalMs };
  return { allowed: false, retryAfterMs: t - now - tolerance, tat: t };
}

/** A bucket allowing `perSecond` requests a second on average and `burst` at once. */
export function bucketRule(perSecond: number, burst: number): BucketRule {
  return { intervalMs: 1000 / perSecond, burst: Math.max(1, Math.floor(burst)) };
}

/** Fixed windows: the window `now` falls in, and the milliseconds until it ends. */
export function windowOf(now: number, windowMs: number): { start: number; endsInMs: number } {
  const start = now - (now % windowMs);
  return { start, endsInMs: start + windowMs - now };
}

/** Whole seconds for a Retry-After header (at least 1). */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** Shared limiter state (the gateway's store: SQLite embedded, MongoDB distributed), so limits hold across replicas. */
export interface RateStore {
  /** Takes one token from bucket `name` (created full). Atomic. */
  take(name: string, now: number, rule: BucketRule): Promise<Decision>;
  /** Adds one to counter `name` in the fixed window starting at `windowStart`; returns the new count. Atomic. */
  increment(name: string, windowStart: number, windowMs: number): Promise<number>;
  /** The counter's value in that window (0 when absent). */
  count(name: string, windowStart: number): Promise<number>;
  close(): Promise<void>;
}
