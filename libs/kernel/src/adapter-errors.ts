/**
 * The adapter with every method's errors passed through `map`, whether the
 * method throws or returns a promise that rejects; results and other members
 * pass unchanged. The one wrapper behind `raiseUnavailable` (engine outages)
 * and `raiseStorageFaults` (a full or read-only disk).
 */
export function mapAdapterErrors<T extends object>(adapter: T, map: (err: unknown) => unknown): T {
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== "function" || prop === "constructor") return value;
      return function (this: unknown, ...args: unknown[]) {
        let out: unknown;
        try {
          out = (value as (...a: unknown[]) => unknown).apply(this === receiver ? target : this, args);
        } catch (err) {
          throw map(err);
        }
        if (out instanceof Promise) return out.catch((err: unknown) => Promise.reject(map(err)));
        return out;
      };
    },
  });
}
