/** Polls `fn` until it returns a truthy value or the timeout passes. */
export async function waitFor<T>(
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as T;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? "condition"}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 25));
  }
}
