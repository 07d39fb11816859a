/**
 * Serialises work per key inside this process (one namespace's memory
 * writes): deciding whether a memory is new, a duplicate or an update reads
 * the namespace and then writes, so two such decisions of this process do not
 * interleave and conflict (memory formation holds it for its write only, and
 * decides again under it when the namespace moved since its reads). An optimisation only, never the guard: other
 * replicas do not see it, so every such write is conditional on what was read
 * (MemoryWrite.expect / expectNoDuplicate) and decided again on a conflict.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const result = prev.then(fn, fn);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
