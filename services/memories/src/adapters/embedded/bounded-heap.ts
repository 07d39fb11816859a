/**
 * The first `capacity` items of a stream in the order `before` defines,
 * without sorting the whole stream: a binary heap whose root is the item that
 * would be dropped next.
 */
export class Bounded<T> {
  private readonly heap: T[] = [];
  constructor(
    private readonly capacity: number,
    private readonly before: (a: T, b: T) => boolean,
  ) {}

  offer(x: T): void {
    const h = this.heap;
    if (this.capacity <= 0) return;
    if (h.length < this.capacity) {
      h.push(x);
      let i = h.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.before(h[parent]!, h[i]!)) break;
        [h[parent], h[i]] = [h[i]!, h[parent]!];
        i = parent;
      }
      return;
    }
    if (!this.before(x, h[0]!)) return;
    h[0] = x;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && this.before(h[worst]!, h[l]!)) worst = l;
      if (r < h.length && this.before(h[worst]!, h[r]!)) worst = r;
      if (worst === i) break;
      [h[worst], h[i]] = [h[i]!, h[worst]!];
      i = worst;
    }
  }

  sorted(): T[] {
    return [...this.heap].sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
  }
}
