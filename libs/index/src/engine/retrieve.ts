import type { Partition, Posting } from "./partition";
import { TopK } from "./top-k";

/** A weighted query term (weight = query-side weight × idf, computed over every queried partition). */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/** BM25 collection statistics over the queried partitions together. */
export interface CollectionStats {
  /** Live records. */
  n: number;
  avgLen: number;
}

export interface Bm25Params {
  k1: number;
  b: number;
}

/** Statistics of several partitions taken as one collection (summed counts, combined average length). */
export function collectionStats(parts: readonly Partition[]): CollectionStats {
  let n = 0;
  let len = 0;
  for (const p of parts) {
    n += p.live;
    len += p.totalLen;
  }
  return { n, avgLen: n > 0 ? len / n : 0 };
}

/** Document frequency of a term summed over partitions. */
export function documentFrequency(parts: readonly Partition[], term: string): number {
  let df = 0;
  for (const p of parts) {
    const id = p.dict.get(term);
    if (id !== undefined) df += p.postings[id]!.df;
  }
  return df;
}

/** Lucene/BM25 idf, always positive. */
export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * Work counters of the first pass, summed over calls (benches read and reset them):
 * `postings` = posting entries scored, `probes` = searches of a non-essential list
 * for one candidate, `candidates` = records evaluated. Plain additions at the end of a call.
 */
export const retrievalCounters = { calls: 0, postings: 0, probes: 0, candidates: 0 };

interface Cursor {
  docs: Int32Array;
  tfs: Uint16Array;
  n: number;
  pos: number;
  weight: number;
  ub: number;
}

/**
 * Top-k BM25 over the partitions with MaxScore dynamic pruning (Turtle &
 * Flood 1995): query terms sorted by their score upper bound; once the heap is
 * full, the terms whose bounds together cannot lift a record above the k-th
 * score become "non-essential" — they are never used to generate candidates,
 * only probed (galloping search) for records the essential terms found, and
 * the probing stops as soon as the remaining bounds cannot reach the threshold.
 * `accept` runs only for records that would enter the heap. Partitions share
 * the heap and the statistics, so scores compare across them.
 */
export function retrieveTopK(
  parts: readonly Partition[],
  terms: readonly WeightedTerm[],
  stats: CollectionStats,
  params: Bm25Params,
  k: number,
  accept?: (rid: number) => boolean,
): TopK {
  const heap = new TopK(k);
  if (k <= 0 || stats.n === 0) return heap;
  const c1 = params.k1 * (1 - params.b);
  const c2 = stats.avgLen > 0 ? (params.k1 * params.b) / stats.avgLen : 0;
  let postings = 0;
  let probes = 0;
  let candidates = 0;
  for (let pi = 0; pi < parts.length; pi++) {
    const part = parts[pi]!;
    if (part.live === 0) continue;
    const cursors: Cursor[] = [];
    for (const t of terms) {
      const id = part.dict.get(t.term);
      if (id === undefined || t.weight <= 0) continue;
      const p: Posting = part.postings[id]!;
      if (p.df === 0) continue;
      const ub = (t.weight * p.maxTf) / (p.maxTf + c1 + c2 * p.minLen);
      cursors.push({ docs: p.docs, tfs: p.tfs, n: p.n, pos: 0, weight: t.weight, ub });
    }
    if (cursors.length === 0) continue;
    cursors.sort((a, b) => a.ub - b.ub);
    const m = cursors.length;
    const cum = new Float64Array(m);
    let acc = 0;
    for (let i = 0; i < m; i++) cum[i] = acc += cursors[i]!.ub;
    const lens = part.lens;
    const alive = part.alive;
    const rids = part.rids;
    let ess = 0;
    let thr = heap.threshold;
    while (ess < m && cum[ess]! <= thr) ess++;
    while (ess < m) {
      let d = 0x7fffffff;
      for (let i = ess; i < m; i++) {
        const c = cursors[i]!;
        if (c.pos < c.n) {
          const x = c.docs[c.pos]!;
          if (x < d) d = x;
        }
      }
      if (d === 0x7fffffff) break;
      candidates++;
      const norm = c1 + c2 * lens[d]!;
      let s = 0;
      for (let i = ess; i < m; i++) {
        const c = cursors[i]!;
        if (c.pos < c.n && c.docs[c.pos] === d) {
          const tf = c.tfs[c.pos]!;
          s += (c.weight * tf) / (tf + norm);
          c.pos++;
          postings++;
        }
      }
      if (!alive[d]) continue;
      let pruned = false;
      for (let i = ess - 1; i >= 0; i--) {
        if (s + cum[i]! <= thr) {
          pruned = true;
          break;
        }
        const c = cursors[i]!;
        const docs = c.docs;
        probes++;
        // Galloping then binary search to the first entry >= d.
        let lo = c.pos;
        if (lo >= c.n) continue;
        if (docs[lo]! < d) {
          let step = 1;
          let hi = lo + 1;
          while (hi < c.n && docs[hi]! < d) {
            lo = hi;
            step *= 2;
            hi = lo + step;
          }
          if (hi > c.n) hi = c.n;
          // docs[lo] < d, answer in (lo, hi]
          let a = lo + 1;
          let b = hi;
          while (a < b) {
            const mid = (a + b) >> 1;
            if (docs[mid]! < d) a = mid + 1;
            else b = mid;
          }
          lo = a;
        }
        c.pos = lo;
        if (lo < c.n && docs[lo] === d) {
          postings++;
          const tf = c.tfs[lo]!;
          s += (c.weight * tf) / (tf + norm);
        }
      }
      if (pruned || s <= thr) continue;
      if (accept && !accept(rids[d]!)) continue;
      heap.push(s, pi, d);
      thr = heap.threshold;
      while (ess < m && cum[ess]! <= thr) ess++;
    }
  }
  retrievalCounters.calls++;
  retrievalCounters.postings += postings;
  retrievalCounters.probes += probes;
  retrievalCounters.candidates += candidates;
  return heap;
}

/** Exact BM25 of one record for weighted terms (used for single-record scoring). */
export function bm25Of(part: Partition, slot: number, terms: readonly WeightedTerm[], stats: CollectionStats, params: Bm25Params): number {
  const norm = params.k1 * (1 - params.b) + (stats.avgLen > 0 ? (params.k1 * params.b * part.lens[slot]!) / stats.avgLen : 0);
  let s = 0;
  for (const t of terms) {
    const id = part.dict.get(t.term);
    if (id === undefined) continue;
    const tf = tfIn(part.postings[id]!, slot);
    if (tf > 0) s += (t.weight * tf) / (tf + norm);
  }
  return s;
}

/** Term frequency of a slot in a posting list (binary search). */
export function tfIn(p: Posting, slot: number): number {
  let a = 0;
  let b = p.n;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (p.docs[mid]! < slot) a = mid + 1;
    else b = mid;
  }
  return a < p.n && p.docs[a] === slot ? p.tfs[a]! : 0;
}
