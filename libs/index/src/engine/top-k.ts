/**
 * Bounded heap of the best `k` (score, partition, slot) entries seen so far,
 * ordered by score, then by (partition, slot) ascending: of two equal scores
 * the entry with the lower partition and slot is the better one, so the set
 * kept is exactly the first `k` of that order whatever order entries come in.
 * `threshold` is the score a newcomer must beat once the heap is full (dynamic
 * pruning reads it): the first pass offers records in (partition, slot) order,
 * so a newcomer that only ties the worst entry comes after it and stays out.
 */
export class TopK {
  readonly scores: Float64Array;
  readonly parts: Int32Array;
  readonly slots: Int32Array;
  size = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
    this.parts = new Int32Array(k);
    this.slots = new Int32Array(k);
  }

  get threshold(): number {
    return this.size < this.k ? -Infinity : this.scores[0]!;
  }

  /** True when entry a ranks below (score, part, slot) b. */
  private below(a: number, score: number, part: number, slot: number): boolean {
    const s = this.scores[a]!;
    if (s !== score) return s < score;
    const p = this.parts[a]!;
    return p !== part ? p > part : this.slots[a]! > slot;
  }

  push(score: number, part: number, slot: number): void {
    if (this.k === 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        // Parents rank below their children (the root is the worst entry).
        if (this.below(parent, score, part, slot)) break;
        this.move(parent, i);
        i = parent;
      }
      this.set(i, score, part, slot);
      return;
    }
    // Full: the root is the worst entry; a newcomer must rank above it.
    if (!this.below(0, score, part, slot)) return;
    let i = 0;
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.below(r, this.scores[l]!, this.parts[l]!, this.slots[l]!) ? r : l;
      if (!this.below(c, score, part, slot)) break;
      this.move(c, i);
      i = c;
    }
    this.set(i, score, part, slot);
  }

  private move(from: number, to: number): void {
    this.scores[to] = this.scores[from]!;
    this.parts[to] = this.parts[from]!;
    this.slots[to] = this.slots[from]!;
  }

  private set(i: number, score: number, part: number, slot: number): void {
    this.scores[i] = score;
    this.parts[i] = part;
    this.slots[i] = slot;
  }

  /** Entries best first (ties: lower partition, then lower slot first). */
  sorted(): { score: number; part: number; slot: number }[] {
    const out: { score: number; part: number; slot: number }[] = [];
    for (let i = 0; i < this.size; i++) out.push({ score: this.scores[i]!, part: this.parts[i]!, slot: this.slots[i]! });
    return out.sort((a, b) => b.score - a.score || a.part - b.part || a.slot - b.slot);
  }
}
