import { ConflictError } from "@engram/kernel";
import { metrics } from "@engram/observability";

/**
 * Attempts of one read-decide-write of memories before it gives up. A
 * conflict means another replica (or request) changed what this one read; the
 * next attempt reads again and decides on the newer state. Five attempts ride
 * out any realistic burst on one memory; more would only hold the caller.
 */
export const WRITE_ATTEMPTS = 5;

/** What an attempt returns to have the read-decide-write run again. */
export const RETRY = Symbol("retry on conflict");

const conflicts = metrics.counter("engram_memory_write_conflicts_total", "Memory writes refused by a concurrent change and decided again, by operation", [
  "operation",
]);

/**
 * Runs `attempt` (which reads, decides and writes conditionally) until it
 * returns a value; RETRY (a conflicting write: nothing was written) runs it
 * again, at most `attempts` times in all, then fails with a ConflictError the
 * caller may retry (gRPC ABORTED, HTTP 409; the bus redelivers the event).
 */
export async function retryOnConflict<T>(operation: string, attempt: () => Promise<T | typeof RETRY>, attempts = WRITE_ATTEMPTS): Promise<T> {
  for (let i = 1; ; i++) {
    const result = await attempt();
    if (result !== RETRY) return result;
    conflicts.labels(operation).inc();
    if (i >= attempts)
      throw new ConflictError(
        `${operation}: the memories involved kept changing concurrently (${attempts} attempts)`,
        "nothing was written by the last attempt; send the request again",
      );
  }
}
