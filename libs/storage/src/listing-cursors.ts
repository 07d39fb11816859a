/**
 * Keyset paging behind the API's page/offset paging (issue #35). The API asks
 * for page N of a listing; a store that skips N × limit rows pays for every
 * row before the page, and recounting the matches on every page pays for all
 * of them. So a store remembers, per listing (its query, sort, order and page
 * size, as a string the store builds) and per offset, where the page before
 * ended: the sort key and id of its last item. The next page reads from there
 * (a range on the sort key with the id as tiebreak) and skips nothing. The
 * match count is taken on a listing's first page (offset 0), or on a later
 * page whose count is not remembered, and kept with the listing, so later pages
 * report the count as of the walk's first page.
 *
 * What the API promises, then: a walk through the pages (page 1, 2, 3, … of
 * the same query within `ttlMs`) sees every item that existed throughout,
 * once, in order, even when items are added or removed meanwhile (offset
 * paging would repeat or skip one); `total` is exact as of the first page. A
 * page asked out of order (no remembered position: another process, or the
 * entry expired) is read by offset and counted, as before.
 *
 * In memory, per process, bounded (least recently used entries go first). Pure: no I/O.
 */
export class ListingCursors<K> {
  private readonly positions = new Map<string, { key: K; at: number }>();
  private readonly totals = new Map<string, { total: number; at: number }>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(o: { maxEntries?: number; ttlMs?: number; now?: () => number } = {}) {
    this.maxEntries = o.maxEntries ?? 2000;
    this.ttlMs = o.ttlMs ?? 60_000;
    this.now = o.now ?? Date.now;
  }

  /** The key of the last item before `offset` in `listing`, when a page ending there was read recently. */
  position(listing: string, offset: number): K | undefined {
    if (offset <= 0) return undefined;
    return this.fresh(this.positions, `${listing}\u0000${offset}`)?.key;
  }

  /** Remembers that the item before `offset` in `listing` has sort key `key`. */
  rememberPosition(listing: string, offset: number, key: K): void {
    this.put(this.positions, `${listing}\u0000${offset}`, { key, at: this.now() });
  }

  /** The count taken on the listing's first page (never for offset 0: a first page counts again). */
  total(listing: string, offset: number): number | undefined {
    if (offset <= 0) return undefined;
    return this.fresh(this.totals, listing)?.total;
  }

  rememberTotal(listing: string, total: number): void {
    this.put(this.totals, listing, { total, at: this.now() });
  }

  private fresh<V extends { at: number }>(map: Map<string, V>, key: string): V | undefined {
    const v = map.get(key);
    if (!v) return undefined;
    map.delete(key);
    if (this.now() - v.at > this.ttlMs) return undefined;
    map.set(key, v); // most recently used last
    return v;
  }

  private put<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    while (map.size > this.maxEntries) map.delete(map.keys().next().value!);
  }
}

/** A listing's identity for `ListingCursors`: the JSON of what selects and orders it (stable key order not needed: built from one code path). */
export function listingKey(parts: unknown): string {
  return JSON.stringify(parts);
}

/**
 * The MongoDB condition selecting what comes after `after` in the order
 * `{ [field]: dir, _id: dir }`: a later sort key, or the same one with a later id.
 */
export function mongoKeysetAfter(field: string, dir: 1 | -1, after: { value: unknown; id: unknown }): Record<string, unknown> {
  const op = dir === 1 ? "$gt" : "$lt";
  return { $or: [{ [field]: { [op]: after.value } }, { [field]: after.value, _id: { [op]: after.id } }] };
}
