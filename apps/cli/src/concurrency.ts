/** Set `stopped` to make a running `mapLimit` start no further item. */
export interface StopSignal {
  stopped: boolean;
}

/**
 * Runs `fn` over `items` with at most `limit` calls in flight, starting them
 * in item order (p-limit ships ES modules only, which the jest setup cannot
 * load). Results come back in item order; items never started (after
 * `signal.stopped` was set) are `undefined`. A rejection of `fn` rejects the
 * whole run once the calls in flight have settled.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  signal: StopSignal = { stopped: false },
): Promise<(R | undefined)[]> {
  const results: (R | undefined)[] = new Array<R | undefined>(items.length).fill(undefined);
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async () => {
    while (!signal.stopped && !failure && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  const n = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: n }, worker));
  if (failure) throw failure.err;
  return results;
}
