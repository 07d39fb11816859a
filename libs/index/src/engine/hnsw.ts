/**
 * Approximate nearest neighbours for the dense pass of large partitions: a hierarchical navigable
 * small-world graph (Malkov & Yashunin, "Efficient and robust approximate nearest neighbor search using
 * Hierarchical Navigable Small World graphs", IEEE TPAMI 2020, arXiv:1603.09320) over the rows of one
 * vector block (partition.ts, `VectorBlock`).
 *
 * Written here rather than taken from a library. hnswlib-node, usearch and faiss-node were weighed
 * (docs/architecture.md, "Approximate dense pass"); each keeps its own copy of every vector (1.5 GB
 * beside the engine's at a million 384-dimension rows) and is built by synchronous native calls that
 * cannot stop part-way, so a large build would hold the serving thread for minutes. This graph reads
 * the block's own Float32Array and keeps only its links (about 145 bytes a row at M = 16). It is built
 * a slice at a time (`extend`), or whole on a worker thread (graph.worker.ts) over the rows in shared
 * memory, the rows in order; `built` says how far, and the caller scans the rows past it exactly, so a
 * graph under construction never hides a record.
 *
 * Similarity is the dot product (the engine's vectors are unit length: the cosine). A removed record
 * stays in the graph as a waypoint and is filtered out of results, as hnswlib does with deleted
 * elements; the partition's compaction drops it, and the graph is then built again.
 *
 * Deterministic: a row's level comes from a hash of its number, so the same rows make the same graph.
 */

/** Links per node above level 0; level 0 keeps twice as many (the paper's Mmax0 = 2M). */
export const HNSW_M = 16;
/** Candidates kept while linking a new node (the paper's efConstruction). */
export const HNSW_EF_CONSTRUCTION = 100;
const MAX_LEVEL = 15;

/** A binary heap of (similarity, row): the best first when `max`, the worst first otherwise. */
class Heap {
  keys = new Float64Array(64);
  rows = new Int32Array(64);
  size = 0;

  constructor(private readonly max: boolean) {}

  clear(): void {
    this.size = 0;
  }

  get topSim(): number {
    return this.max ? this.keys[0]! : -this.keys[0]!;
  }

  get topRow(): number {
    return this.rows[0]!;
  }

  push(sim: number, row: number): void {
    if (this.size === this.keys.length) {
      const k = new Float64Array(this.size * 2);
      k.set(this.keys);
      this.keys = k;
      const r = new Int32Array(this.size * 2);
      r.set(this.rows);
      this.rows = r;
    }
    const key = this.max ? sim : -sim;
    const keys = this.keys;
    const rows = this.rows;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! >= key) break;
      keys[i] = keys[parent]!;
      rows[i] = rows[parent]!;
      i = parent;
    }
    keys[i] = key;
    rows[i] = row;
  }

  /** Removes the top entry. */
  pop(): void {
    const n = --this.size;
    if (n <= 0) return;
    const keys = this.keys;
    const rows = this.rows;
    const key = keys[n]!;
    const row = rows[n]!;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && keys[r]! > keys[l]! ? r : l;
      if (keys[c]! <= key) break;
      keys[i] = keys[c]!;
      rows[i] = rows[c]!;
      i = c;
    }
    keys[i] = key;
    rows[i] = row;
  }
}

function dot(a: Float32Array, ao: number, b: Float32Array, bo: number, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dims; i += 4) {
    s0 += a[ao + i]! * b[bo + i]!;
    s1 += a[ao + i + 1]! * b[bo + i + 1]!;
    s2 += a[ao + i + 2]! * b[bo + i + 2]!;
    s3 += a[ao + i + 3]! * b[bo + i + 3]!;
  }
  for (; i < dims; i++) s0 += a[ao + i]! * b[bo + i]!;
  return s0 + s1 + s2 + s3;
}

/** A row's level: geometric with ratio 1/M (the paper's mL = 1/ln M), from a hash of the row number. */
function levelOf(row: number): number {
  // splitmix32-style mixing: a uniform value in (0, 1] per row.
  let h = (row + 0x9e3779b9) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  const u = ((h >>> 0) + 1) / 4294967296;
  return Math.min(MAX_LEVEL, Math.floor(-Math.log(u) / Math.log(HNSW_M)));
}

/** Search results, best first. */
export interface GraphHits {
  rows: Int32Array;
  sims: Float64Array;
  n: number;
}

/** The arrays that make a graph (snapshot.ts saves and restores them). */
export interface GraphState {
  built: number;
  entry: number;
  top: number;
  levels: Uint8Array;
  links0: Int32Array;
  count0: Uint8Array;
  upperAt: Int32Array;
  upper: Int32Array;
  upperUsed: number;
}

export class HnswGraph {
  /** Rows 0 … built − 1 are in the graph. */
  built = 0;
  private entry = -1;
  private top = -1;
  private levels = new Uint8Array(0);
  /** Level-0 links: row · M0 … row · M0 + count0[row] − 1. */
  private links0 = new Int32Array(0);
  private count0 = new Uint8Array(0);
  /** Offset of a row's upper levels in `upper` (−1: none); level l ≥ 1 at offset + (l − 1)(M + 1): its count, then M links. */
  private upperAt = new Int32Array(0);
  private upper = new Int32Array(0);
  private upperUsed = 0;
  private visited = new Uint32Array(0);
  private gen = 0;
  private readonly cand = new Heap(true);
  private readonly res = new Heap(false);
  private readonly m0 = 2 * HNSW_M;
  /** Distance evaluations since construction (benches). */
  evaluations = 0;

  constructor(
    readonly dims: number,
    /** Candidates kept while linking a new node (benches try others). */
    readonly efConstruction = HNSW_EF_CONSTRUCTION,
  ) {}

  /** The graph as its arrays (for a saved copy); views, not copies. */
  state(): GraphState {
    return {
      built: this.built,
      entry: this.entry,
      top: this.top,
      levels: this.levels.subarray(0, this.built),
      links0: this.links0.subarray(0, this.built * this.m0),
      count0: this.count0.subarray(0, this.built),
      upperAt: this.upperAt.subarray(0, this.built),
      upper: this.upper.subarray(0, this.upperUsed),
      upperUsed: this.upperUsed,
    };
  }

  /** A graph from saved arrays (`state`); undefined when they do not fit together. */
  static fromState(dims: number, s: GraphState): HnswGraph | undefined {
    const n = s.built;
    const m0 = 2 * HNSW_M;
    if (
      !s.levels ||
      !s.links0 ||
      !s.count0 ||
      !s.upperAt ||
      !s.upper ||
      !(n >= 0) ||
      s.levels.length !== n ||
      s.count0.length !== n ||
      s.upperAt.length !== n ||
      s.links0.length !== n * m0 ||
      s.upper.length !== s.upperUsed ||
      s.entry < -1 ||
      s.entry >= n ||
      n > 0 !== s.entry >= 0
    )
      return undefined;
    const g = new HnswGraph(dims);
    g.built = n;
    g.entry = s.entry;
    g.top = s.top;
    g.levels = Uint8Array.from(s.levels);
    g.links0 = Int32Array.from(s.links0);
    g.count0 = Uint8Array.from(s.count0);
    g.upperAt = Int32Array.from(s.upperAt);
    g.upper = Int32Array.from(s.upper);
    g.upperUsed = s.upperUsed;
    return g;
  }

  /** Approximate bytes held. */
  bytes(): number {
    return this.levels.byteLength + this.links0.byteLength + this.count0.byteLength + this.upperAt.byteLength + this.upper.byteLength + this.visited.byteLength;
  }

  private reserve(rows: number): void {
    if (rows <= this.levels.length) return;
    const cap = Math.max(rows, Math.ceil(this.levels.length * 1.5), 1024);
    const levels = new Uint8Array(cap);
    levels.set(this.levels);
    this.levels = levels;
    const links0 = new Int32Array(cap * this.m0);
    links0.set(this.links0);
    this.links0 = links0;
    const count0 = new Uint8Array(cap);
    count0.set(this.count0);
    this.count0 = count0;
    const upperAt = new Int32Array(cap).fill(-1);
    upperAt.set(this.upperAt);
    this.upperAt = upperAt;
  }

  private nextGen(rows: number): number {
    if (this.visited.length < rows) {
      const v = new Uint32Array(Math.max(rows, Math.ceil(this.visited.length * 1.5), 1024));
      this.visited = v;
      this.gen = 0;
    }
    if (this.gen === 0xffffffff) {
      this.visited.fill(0);
      this.gen = 0;
    }
    return ++this.gen;
  }

  /**
   * Inserts the next rows of `data` (up to `rows`) until `deadline` (a `performance.now()` time) has
   * passed; true when all `rows` are in.
   */
  extend(data: Float32Array, rows: number, deadline = Infinity): boolean {
    this.reserve(rows);
    while (this.built < rows) {
      this.insert(data, this.built);
      this.built++;
      if (deadline !== Infinity && performance.now() > deadline) break;
    }
    return this.built >= rows;
  }

  /** Where a node's links at `level` start in its level's array, and that array. */
  private linksOf(row: number, level: number): { arr: Int32Array; at: number; count: number } {
    if (level === 0) return { arr: this.links0, at: row * this.m0, count: this.count0[row]! };
    const base = this.upperAt[row]! + (level - 1) * (HNSW_M + 1);
    return { arr: this.upper, at: base + 1, count: this.upper[base]! };
  }

  private setCount(row: number, level: number, count: number): void {
    if (level === 0) this.count0[row] = count;
    else this.upper[this.upperAt[row]! + (level - 1) * (HNSW_M + 1)] = count;
  }

  /** From `from`, moves to a better neighbour at `level` while there is one (ef = 1). */
  private greedy(q: Float32Array, qo: number, data: Float32Array, from: number, level: number): number {
    const dims = this.dims;
    let best = from;
    let bestSim = dot(q, qo, data, from * dims, dims);
    this.evaluations++;
    for (let moved = true; moved;) {
      moved = false;
      const arr = level === 0 ? this.links0 : this.upper;
      const at = level === 0 ? best * this.m0 : this.upperAt[best]! + (level - 1) * (HNSW_M + 1) + 1;
      const count = level === 0 ? this.count0[best]! : this.upper[at - 1]!;
      for (let i = 0; i < count; i++) {
        const n = arr[at + i]!;
        const s = dot(q, qo, data, n * dims, dims);
        this.evaluations++;
        if (s > bestSim) {
          bestSim = s;
          best = n;
          moved = true;
        }
      }
    }
    return best;
  }

  /**
   * The paper's SEARCH-LAYER: the `ef` best nodes reachable at `level` from `from`, into `res` (a
   * worst-first heap). With `ok`, only nodes it accepts become results; the others still lead on.
   */
  private searchLayer(q: Float32Array, qo: number, data: Float32Array, from: number, ef: number, level: number, ok?: (row: number) => boolean): void {
    const dims = this.dims;
    const gen = this.nextGen(this.built + 1);
    const visited = this.visited;
    const cand = this.cand;
    const res = this.res;
    cand.clear();
    res.clear();
    const s0 = dot(q, qo, data, from * dims, dims);
    this.evaluations++;
    visited[from] = gen;
    cand.push(s0, from);
    if (!ok || ok(from)) res.push(s0, from);
    while (cand.size > 0) {
      const s = cand.topSim;
      const c = cand.topRow;
      if (res.size >= ef && s < res.topSim) break;
      cand.pop();
      const arr = level === 0 ? this.links0 : this.upper;
      const at = level === 0 ? c * this.m0 : this.upperAt[c]! + (level - 1) * (HNSW_M + 1) + 1;
      const count = level === 0 ? this.count0[c]! : this.upper[at - 1]!;
      for (let i = 0; i < count; i++) {
        const n = arr[at + i]!;
        if (visited[n] === gen) continue;
        visited[n] = gen;
        const sn = dot(q, qo, data, n * dims, dims);
        this.evaluations++;
        if (res.size < ef || sn > res.topSim) {
          cand.push(sn, n);
          if (!ok || ok(n)) {
            res.push(sn, n);
            if (res.size > ef) res.pop();
          }
        }
      }
    }
  }

  /** `res` drained, best first. */
  private drain(): GraphHits {
    const res = this.res;
    const n = res.size;
    const rows = new Int32Array(n);
    const sims = new Float64Array(n);
    for (let i = n - 1; i >= 0; i--) {
      rows[i] = res.topRow;
      sims[i] = res.topSim;
      res.pop();
    }
    return { rows, sims, n };
  }

  /**
   * The paper's heuristic neighbour selection: of the candidates (best first), a node is kept when it
   * is closer to the new one than to every node kept before it, so links reach out in several
   * directions instead of into one cluster; the rest fill any places left.
   */
  private select(data: Float32Array, found: GraphHits, m: number): number[] {
    const dims = this.dims;
    const kept: number[] = [];
    const skipped: number[] = [];
    for (let i = 0; i < found.n && kept.length < m; i++) {
      const c = found.rows[i]!;
      const sim = found.sims[i]!;
      let good = true;
      for (const r of kept) {
        this.evaluations++;
        if (dot(data, c * dims, data, r * dims, dims) > sim) {
          good = false;
          break;
        }
      }
      if (good) kept.push(c);
      else skipped.push(c);
    }
    for (let i = 0; kept.length < m && i < skipped.length; i++) kept.push(skipped[i]!);
    return kept;
  }

  /** Links `to` from `row` at `level`; a full list drops its least similar link if `to` is more similar. */
  private link(data: Float32Array, row: number, to: number, level: number): void {
    const cap = level === 0 ? this.m0 : HNSW_M;
    const { arr, at, count } = this.linksOf(row, level);
    if (count < cap) {
      arr[at + count] = to;
      this.setCount(row, level, count + 1);
      return;
    }
    const dims = this.dims;
    let worst = -1;
    let worstSim = dot(data, row * dims, data, to * dims, dims);
    for (let i = 0; i < count; i++) {
      const s = dot(data, row * dims, data, arr[at + i]! * dims, dims);
      if (s < worstSim) {
        worstSim = s;
        worst = i;
      }
    }
    this.evaluations += count + 1;
    if (worst >= 0) arr[at + worst] = to;
  }

  private insert(data: Float32Array, row: number): void {
    const level = levelOf(row);
    this.levels[row] = level;
    this.count0[row] = 0;
    if (level > 0) {
      const need = level * (HNSW_M + 1);
      if (this.upperUsed + need > this.upper.length) {
        const u = new Int32Array(Math.max(this.upperUsed + need, this.upper.length * 2, 1024));
        u.set(this.upper);
        this.upper = u;
      }
      this.upperAt[row] = this.upperUsed;
      this.upper.fill(0, this.upperUsed, this.upperUsed + need);
      this.upperUsed += need;
    } else this.upperAt[row] = -1;
    if (this.entry < 0) {
      this.entry = row;
      this.top = level;
      return;
    }
    const qo = row * this.dims;
    let ep = this.entry;
    for (let l = this.top; l > level; l--) ep = this.greedy(data, qo, data, ep, l);
    for (let l = Math.min(level, this.top); l >= 0; l--) {
      this.searchLayer(data, qo, data, ep, this.efConstruction, l);
      const found = this.drain();
      const chosen = this.select(data, found, HNSW_M);
      const { arr, at } = this.linksOf(row, l);
      for (let i = 0; i < chosen.length; i++) arr[at + i] = chosen[i]!;
      this.setCount(row, l, chosen.length);
      for (const n of chosen) this.link(data, n, row, l);
      if (found.n > 0) ep = found.rows[0]!;
    }
    if (level > this.top) {
      this.top = level;
      this.entry = row;
    }
  }

  /**
   * The `ef` rows most similar to `q` (unit length) among those `ok` accepts, best first: fewer when the
   * graph holds fewer acceptable rows within reach. Only rows below `built` are searched.
   */
  search(data: Float32Array, q: Float32Array, ef: number, ok?: (row: number) => boolean): GraphHits {
    if (this.entry < 0 || ef <= 0) return { rows: new Int32Array(0), sims: new Float64Array(0), n: 0 };
    let ep = this.entry;
    for (let l = this.top; l > 0; l--) ep = this.greedy(q, 0, data, ep, l);
    this.searchLayer(q, 0, data, ep, ef, 0, ok);
    return this.drain();
  }
}
