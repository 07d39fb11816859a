/**
 * Bounded min-heap of the best `k` (score, partition, slot) entries seen so
 * far. `threshold` is the score a newcomer must beat once the heap is full
 * (dynamic pruning reads it); ties keep the entry that came first.
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

  push(score: number, part: number, slot: number): void {
    if (this.k === 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (this.scores[parent]! <= score) break;
        this.move(parent, i);
        i = parent;
      }
      this.set(i, score, part, slot);
      return;
    }
    if (score <= this.scores[0]!) return;
    // Sift the newcomer down from the root.
    let i = 0;
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.scores[r]! < this.scores[l]! ? r : l;
      if (this.scores[c]! >= score) break;
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
