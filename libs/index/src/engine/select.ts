/**
 * The median of a set of numbers in linear time (Hoare's selection with median-of-three pivots), for the
 * dense pass's baseline: the median cosine of the whole scope, tens of thousands of values per query,
 * which a sort took milliseconds to find (issue #35). Written here: a few lines, and no maintained npm
 * package selects in place over a typed array.
 */

/** Reorders `a` so that a[k] is the value a sort would put there, smaller or equal values before it, larger or equal after. */
function selectInPlace(a: Float64Array, k: number): void {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const x = a[lo]!;
    const y = a[mid]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/** The median of the values (the mean of the two middle ones for an even count; 0 for none). Reorders `a`. */
export function medianInPlace(a: Float64Array): number {
  const n = a.length;
  if (n === 0) return 0;
  const m = n >> 1;
  selectInPlace(a, m);
  if (n % 2) return a[m]!;
  // The largest value before the m-th is the (m − 1)-th.
  let below = -Infinity;
  for (let i = 0; i < m; i++) if (a[i]! > below) below = a[i]!;
  return (below + a[m]!) / 2;
}
