/**
 * Bounded caches for API key lookups. Valid keys and unknown keys are kept
 * apart, each with its own bound: a spray of made-up keys fills the negative
 * cache only and never evicts a working key.
 */

/** A map with a size bound and a per-entry lifetime; the least recently used entry goes first when full. */
export class LruCache<V> {
  private readonly map = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get(key: string, now: number): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (hit.until <= now) {
      this.map.delete(key);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V, now: number): void {
    if (this.maxEntries <= 0 || this.ttlMs <= 0) return;
    this.map.delete(key);
    while (this.map.size >= this.maxEntries) this.map.delete(this.map.keys().next().value as string);
    this.map.set(key, { value, until: now + this.ttlMs });
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}

/** Positive and negative key lookups, bounded separately. */
export class KeyLookupCache<P> {
  readonly valid: LruCache<P>;
  readonly unknown: LruCache<true>;

  constructor(opts: { ttlMs: number; maxValid?: number; maxUnknown?: number }) {
    this.valid = new LruCache<P>(opts.maxValid ?? 10_000, opts.ttlMs);
    this.unknown = new LruCache<true>(opts.maxUnknown ?? 10_000, opts.ttlMs);
  }

  /** `{ principal }` for a cached valid key, `{ principal: undefined }` for a cached unknown one, undefined when not cached. */
  get(hash: string, now: number): { principal: P | undefined } | undefined {
    const p = this.valid.get(hash, now);
    if (p !== undefined) return { principal: p };
    if (this.unknown.get(hash, now)) return { principal: undefined };
    return undefined;
  }

  set(hash: string, principal: P | undefined, now: number): void {
    if (principal === undefined) {
      this.valid.delete(hash);
      this.unknown.set(hash, true, now);
    } else {
      this.unknown.delete(hash);
      this.valid.set(hash, principal, now);
    }
  }

  clear(): void {
    this.valid.clear();
    this.unknown.clear();
  }
}
