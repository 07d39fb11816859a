import * as blockConstants from "./blocks";
import type { Partition, Posting } from "./partition";
import { TopK } from "./top-k";

// Module-local copies: an imported binding is read through a getter on every use once the
// module is transpiled to CommonJS (tsx, jest), which shows in the hot loops.
const { BLOCK_SHIFT, NO_LEN } = blockConstants;

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
 * `postings` = posting entries read (each step of a search counts), `scored` =
 * term contributions computed, `probes` = searches of a list for one candidate,
 * `candidates` = records fully evaluated. Plain additions at the end of a call.
 */
export const retrievalCounters = { calls: 0, postings: 0, scored: 0, probes: 0, candidates: 0 };

/** Entries read by `seek` (added to the counters by each call). */
let seekReads = 0;

/**
 * Scores are sums of per-term contributions rounded to a fixed grid (a power
 * of two chosen from the query's total weight, 2^-32 for any ordinary query),
 * so a sum is exact and the same in any order: pruning may add a record's
 * terms in whatever order suits it and still produce the score an exhaustive
 * evaluation would, ties included. Returns the rounding constant M (x + M − M
 * rounds x to the grid) for contributions below `totalWeight`; the grid step
 * is M·2^-52 at most.
 */
export function scoreGrid(totalWeight: number): number {
  const e = Math.max(20, Math.ceil(Math.log2(Math.max(totalWeight, 1))) + 1);
  return 1.5 * 2 ** e;
}

/** One term's BM25 contribution on the grid of `m` (norm = k1·(1 − b) + k1·b·length / avgLen). */
export function termScore(weight: number, tf: number, norm: number, m: number): number {
  return (weight * tf) / (tf + norm) + m - m;
}

/**
 * Slots per window of the first pass: the first window of a partition has
 * 2^FIRST_SHIFT slots and each next one twice as many, up to 2^WINDOW_SHIFT
 * (small windows while the top k is still filling, large ones once its
 * threshold prunes well).
 */
const WINDOW_SHIFT = 14;
const FIRST_SHIFT = 10;
const WINDOW = 1 << WINDOW_SHIFT;
const END = 0x7fffffff;
/** The threshold seed reads one list of at most this many postings per partition. */
const SEED_MAX_POSTINGS = 1 << 14;

/**
 * Scratch of the first pass, reused across calls (JavaScript runs one call at a
 * time; `accept` must not search). Between calls every entry is zero.
 */
const scoreBuf = new Float64Array(WINDOW);
const bits = new Int32Array(WINDOW >> 5);
const candBuf = new Int32Array(WINDOW);
const candFlag = new Uint8Array(WINDOW);

/** First index >= from in docs[0..n) with docs[i] >= d (galloping, then binary search). */
function seek(docs: Int32Array, n: number, from: number, d: number): number {
  let lo = from;
  seekReads++;
  if (lo >= n || docs[lo]! >= d) return lo;
  let step = 1;
  let hi = lo + 1;
  while (hi < n && docs[hi]! < d) {
    seekReads++;
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > n) hi = n;
  let a = lo + 1;
  let b = hi;
  while (a < b) {
    seekReads++;
    const mid = (a + b) >> 1;
    if (docs[mid]! < d) a = mid + 1;
    else b = mid;
  }
  return a;
}

/** Largest tf/(tf + norm) a set of postings can reach, from its stats (see `Posting`). */
function bestOf(maxTf: number, min1: number, min2: number, min3: number, c1: number, c2: number): number {
  let best = 0;
  if (min1 !== Infinity && min1 !== NO_LEN) best = 1 / (1 + c1 + c2 * min1);
  if (min2 !== Infinity && min2 !== NO_LEN) {
    const v = 2 / (2 + c1 + c2 * min2);
    if (v > best) best = v;
  }
  if (min3 !== Infinity && min3 !== NO_LEN) {
    const v = maxTf / (maxTf + c1 + c2 * min3);
    if (v > best) best = v;
  }
  return best;
}

/** Bounds are raised a hair (and a grid step) so that rounding can never make a real contribution exceed them. */
function inflate(bound: number, step: number): number {
  return bound * (1 + 1e-9) + step;
}

/**
 * Top-k BM25 over the partitions, exact: the same records, scores and order
 * as scoring every record (ties to the lower partition, then the lower slot).
 *
 * Block-max MaxScore over windows of slots (Turtle & Flood's MaxScore with
 * block-max bounds, Ding & Suel; windows as in Lucene's MaxScoreBulkScorer).
 * Per window, each term's bound comes from the blocks of its postings that
 * overlap the window. A window whose bounds together cannot reach the current
 * k-th score is skipped whole. Otherwise the terms whose bounds together
 * cannot lift a record past the k-th score are "non-essential": they never
 * produce candidates. The essential terms are added up term at a time into
 * the window's score buffer; the records they reach whose score plus the
 * non-essential bounds can still pass the k-th score are the candidates; the
 * non-essential terms are then added for the candidates, largest bound first,
 * each either by walking its postings in the window or, when candidates are
 * few, by searching it for each one (galloping), dropping the candidates the
 * remaining bounds can no longer lift. `accept` runs only for records that
 * would enter the heap. Partitions share the heap and the statistics, so
 * scores compare across them.
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
  let totalWeight = 0;
  for (const t of terms) if (t.weight > 0) totalWeight += t.weight;
  const M = scoreGrid(totalWeight);
  const counters = { postings: 0, scored: 0, probes: 0, candidates: 0 };
  const reads0 = seekReads;
  const perPart: { lists: Posting[]; weights: Float64Array }[] = [];
  for (let pi = 0; pi < parts.length; pi++) {
    const part = parts[pi]!;
    const lists: Posting[] = [];
    const weights: number[] = [];
    if (part.live > 0)
      for (const t of terms) {
        const id = part.dict.get(t.term);
        if (id === undefined || !(t.weight > 0)) continue;
        const p = part.postings[id]!;
        if (p.df === 0) continue;
        lists.push(p);
        weights.push(t.weight);
      }
    perPart.push({ lists, weights: Float64Array.from(weights) });
  }
  const floor = seedThreshold(parts, perPart, c1, c2, M, k, accept, counters);
  for (let pi = 0; pi < parts.length; pi++) {
    const { lists, weights } = perPart[pi]!;
    if (lists.length > 0) retrievePartition(parts[pi]!, pi, lists, weights, c1, c2, M, floor, heap, accept, counters);
  }
  retrievalCounters.calls++;
  retrievalCounters.postings += counters.postings + seekReads - reads0;
  retrievalCounters.scored += counters.scored;
  retrievalCounters.probes += counters.probes;
  retrievalCounters.candidates += counters.candidates;
  return heap;
}

/**
 * A score the k-th best record is sure to reach, known before the walk: in
 * each partition, the list with the largest bound among the shorter ones is
 * scored alone (its contribution is part of each record's score, so the k-th
 * best of these partial scores, over accepted live records, is a lower bound
 * of the k-th best score). Returned one grid step lower, so pruning against it
 * with "bound ≤ floor" only drops records scoring strictly below it: an exact
 * tie with the k-th record may still belong in the top k. −Infinity when
 * fewer than k records were seen.
 */
function seedThreshold(
  parts: readonly Partition[],
  perPart: readonly { lists: Posting[]; weights: Float64Array }[],
  c1: number,
  c2: number,
  M: number,
  k: number,
  accept: ((rid: number) => boolean) | undefined,
  counters: { postings: number; scored: number },
): number {
  const seed = new TopK(k);
  let postings = 0;
  let scored = 0;
  for (let pi = 0; pi < parts.length; pi++) {
    const part = parts[pi]!;
    const { lists, weights } = perPart[pi]!;
    let best = -1;
    let bestBound = 0;
    for (let i = 0; i < lists.length; i++) {
      const p = lists[i]!;
      if (p.n > SEED_MAX_POSTINGS) continue;
      const bound = weights[i]! * bestOf(p.maxTf, p.min1, p.min2, p.min3, c1, c2);
      if (bound > bestBound) {
        bestBound = bound;
        best = i;
      }
    }
    if (best < 0) continue;
    const p = lists[best]!;
    const w = weights[best]!;
    const norms = part.norms(c1, c2);
    const alive = part.alive;
    const rids = part.rids;
    for (let x = 0; x < p.n; x++) {
      const d = p.docs[x]!;
      if (!alive[d]) continue;
      const s = termScore(w, p.tfs[x]!, norms[d]!, M);
      scored++;
      if (s <= seed.threshold) continue;
      if (accept && !accept(rids[d]!)) continue;
      seed.push(s, pi, d);
    }
    postings += p.n;
  }
  counters.postings += postings;
  counters.scored += scored;
  return seed.size < k ? -Infinity : seed.threshold - M * 2 ** -52;
}

function retrievePartition(
  part: Partition,
  pi: number,
  lists: readonly Posting[],
  w: Float64Array,
  c1: number,
  c2: number,
  M: number,
  floor: number,
  heap: TopK,
  accept: ((rid: number) => boolean) | undefined,
  counters: { postings: number; scored: number; probes: number; candidates: number },
): void {
  const m = lists.length;
  const norms = part.norms(c1, c2);
  const step = M * 2 ** -52;
  const alive = part.alive;
  const rids = part.rids;
  const pos = new Int32Array(m);
  /** Window bound of each term, and the order of the terms by it (ascending). */
  const wb = new Float64Array(m);
  const order = new Int32Array(m);
  /** Cumulative bounds of the non-essential terms in ascending order. */
  const cum = new Float64Array(m);
  const buf = scoreBuf;
  const set = bits;
  const cand = candBuf;
  const flag = candFlag;
  let postings = 0;
  let scored = 0;
  let probes = 0;
  let candidates = 0;
  let shift = FIRST_SHIFT;
  for (;;) {
    // The next window starts at the smallest slot any list still has.
    let lo = END;
    for (let i = 0; i < m; i++) {
      const p = lists[i]!;
      if (pos[i]! < p.n) {
        const d = p.docs[pos[i]!]!;
        if (d < lo) lo = d;
      }
    }
    if (lo === END) break;
    const size = 1 << shift;
    if (shift < WINDOW_SHIFT) shift++;
    const hi = lo + size;
    let thr = Math.max(heap.threshold, floor);
    // Bounds of each term over the window, from the blocks overlapping it.
    let total = 0;
    for (let i = 0; i < m; i++) {
      const p = lists[i]!;
      const at = pos[i]!;
      let bound = 0;
      if (at < p.n && p.docs[at]! < hi) {
        const blocks = p.blocks;
        if (blocks === null) bound = bestOf(p.maxTf, p.min1, p.min2, p.min3, c1, c2);
        else {
          let maxTf = 0;
          let min1 = NO_LEN;
          let min2 = NO_LEN;
          let min3 = NO_LEN;
          const docs = p.docs;
          for (let b = at >> BLOCK_SHIFT, o = b << 2; b << BLOCK_SHIFT < p.n && docs[b << BLOCK_SHIFT]! < hi; b++, o += 4) {
            if (blocks[o]! > maxTf) maxTf = blocks[o]!;
            if (blocks[o + 1]! < min1) min1 = blocks[o + 1]!;
            if (blocks[o + 2]! < min2) min2 = blocks[o + 2]!;
            if (blocks[o + 3]! < min3) min3 = blocks[o + 3]!;
          }
          bound = bestOf(maxTf, min1, min2, min3, c1, c2);
        }
        bound = inflate(bound * w[i]!, step);
      }
      wb[i] = bound;
      total += bound;
    }
    if (total <= thr) {
      // Nothing in this window can enter the top k.
      for (let i = 0; i < m; i++) {
        const p = lists[i]!;
        pos[i] = seek(p.docs, p.n, pos[i]!, hi);
      }
      continue;
    }
    // Terms by window bound, ascending (insertion sort: queries have few terms).
    for (let i = 0; i < m; i++) {
      let j = i;
      while (j > 0 && wb[order[j - 1]!]! > wb[i]!) {
        order[j] = order[j - 1]!;
        j--;
      }
      order[j] = i;
    }
    // Non-essential prefix: its bounds together cannot lift a record past the threshold.
    let ne = 0;
    let acc = 0;
    while (ne < m && acc + wb[order[ne]!]! <= thr) {
      acc += wb[order[ne]!]!;
      cum[ne] = acc;
      ne++;
    }
    const neTotal = ne > 0 ? cum[ne - 1]! : 0;
    // Essential lists, term at a time into the window's buffer.
    for (let r = ne; r < m; r++) {
      const e = order[r]!;
      const p = lists[e]!;
      const docs = p.docs;
      const tfs = p.tfs;
      const we = w[e]!;
      const n = p.n;
      let at = pos[e]!;
      for (; at < n; at++) {
        const d = docs[at]!;
        if (d >= hi) break;
        const i = d - lo;
        const tf = tfs[at]!;
        buf[i] = buf[i]! + ((we * tf) / (tf + norms[d]!) + M - M);
        set[i >> 5] = set[i >> 5]! | (1 << (i & 31));
      }
      postings += at - pos[e]!;
      scored += at - pos[e]!;
      pos[e] = at;
    }
    // Candidates, in slot order: live records the non-essential bounds can still lift past the threshold.
    let nc = 0;
    for (let wi = 0, words = size >> 5; wi < words; wi++) {
      let word = set[wi]!;
      if (word === 0) continue;
      set[wi] = 0;
      while (word !== 0) {
        const i = (wi << 5) + 31 - Math.clz32(word & -word);
        word &= word - 1;
        if (alive[lo + i] && buf[i]! + neTotal > thr) {
          cand[nc++] = i;
          flag[i] = 1;
        } else buf[i] = 0;
      }
    }
    // Non-essential lists, largest bound first, only for the candidates still in reach.
    for (let j = ne - 1; j >= 0 && nc > 0; j--) {
      const t = order[j]!;
      const q = lists[t]!;
      const docs = q.docs;
      const tfs = q.tfs;
      const wt = w[t]!;
      const end = seek(docs, q.n, pos[t]!, hi);
      const inWindow = end - pos[t]!;
      if (inWindow <= 8 * nc) {
        // Walk the list's postings in the window.
        for (let x = pos[t]!; x < end; x++) {
          const i = docs[x]! - lo;
          if (flag[i] === 1) {
            buf[i] = buf[i]! + termScore(wt, tfs[x]!, norms[lo + i]!, M);
            scored++;
          }
        }
        postings += inWindow;
      } else {
        // Few candidates: search the list for each.
        let x = pos[t]!;
        for (let c = 0; c < nc; c++) {
          const i = cand[c]!;
          x = seek(docs, end, x, lo + i);
          probes++;
          if (x < end && docs[x] === lo + i) {
            scored++;
            buf[i] = buf[i]! + termScore(wt, tfs[x]!, norms[lo + i]!, M);
          }
        }
      }
      pos[t] = end;
      // Drop the candidates the remaining bounds cannot lift past the threshold.
      const rest = j > 0 ? cum[j - 1]! : 0;
      let kept = 0;
      for (let c = 0; c < nc; c++) {
        const i = cand[c]!;
        if (buf[i]! + rest > thr) cand[kept++] = i;
        else {
          buf[i] = 0;
          flag[i] = 0;
        }
      }
      nc = kept;
    }
    for (let j = 0; j < ne; j++) {
      const t = order[j]!;
      const q = lists[t]!;
      pos[t] = seek(q.docs, q.n, pos[t]!, hi);
    }
    candidates += nc;
    for (let c = 0; c < nc; c++) {
      const i = cand[c]!;
      const s = buf[i]!;
      buf[i] = 0;
      flag[i] = 0;
      if (s <= thr) continue;
      const d = lo + i;
      if (accept && !accept(rids[d]!)) continue;
      heap.push(s, pi, d);
      thr = Math.max(heap.threshold, floor);
    }
  }
  counters.postings += postings;
  counters.scored += scored;
  counters.probes += probes;
  counters.candidates += candidates;
}
