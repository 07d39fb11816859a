/**
 * A small map from term id (≥ 0) to an index, by open addressing in two
 * typed arrays sized to the query (a few cache lines), for per-record lookups
 * of every term of a record; a dictionary-sized array would miss the cache on
 * most of them.
 */
export class IdTable {
  private readonly keys: Int32Array;
  private readonly vals: Int32Array;
  private readonly mask: number;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 4) size *= 2;
    this.keys = new Int32Array(size).fill(-1);
    this.vals = new Int32Array(size);
    this.mask = size - 1;
  }

  set(id: number, value: number): void {
    let h = Math.imul(id, 0x9e3779b1) & this.mask;
    while (this.keys[h] !== -1 && this.keys[h] !== id) h = (h + 1) & this.mask;
    this.keys[h] = id;
    this.vals[h] = value;
  }

  /** The index of an id, or -1. */
  get(id: number): number {
    let h = Math.imul(id, 0x9e3779b1) & this.mask;
    for (;;) {
      const k = this.keys[h]!;
      if (k === id) return this.vals[h]!;
      if (k === -1) return -1;
      h = (h + 1) & this.mask;
    }
  }
}
