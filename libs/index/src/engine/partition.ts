/**
 * In-memory search structures of one partition (one tenant + namespace):
 * a term dictionary, postings with term frequencies in typed arrays, per-record
 * lengths, term sequences (for proximity and feedback features), tombstones,
 * and contiguous vector blocks for the embedder models in use.
 *
 * Records live in "slots" numbered in insertion order, so every posting list
 * is sorted by slot. Removing or replacing a record tombstones its slot
 * (statistics are corrected at once: live count, total length and each of its
 * terms' document frequency); postings and vectors of dead slots are skipped at
 * query time and dropped by `compact()`, which runs once dead slots outnumber a
 * quarter of the live ones.
 */

import * as blockConstants from "./blocks";
// Compaction rebuilds through the bulk loader (which uses this module's functions only when called).
import { BulkLoad } from "./bulk-load";
import type { HnswGraph } from "./hnsw";

export { BLOCK, BLOCK_SHIFT, NO_LEN } from "./blocks";

// Module-local copies: an imported binding is read through a getter on every use once the
// module is transpiled to CommonJS (tsx, jest), which shows in the hot loops.
const { BLOCK, BLOCK_SHIFT, NO_LEN, LEN_CAP } = blockConstants;

/**
 * Postings of one term. `docs` is sorted ascending (slot order).
 *
 * Score bounds for dynamic pruning, kept conservative on removal (a dead
 * posting may still raise a bound; compaction rebuilds them): BM25 grows with
 * tf and falls with record length, so the largest score of a set of postings
 * is at most the best of three (tf, shortest length) pairs: tf 1 with the
 * shortest record holding the term once, tf 2 likewise, and the largest tf with
 * the shortest record holding it three times or more. The list keeps them
 * overall and, once it has more than one block, per block of `BLOCK`
 * postings in `blocks` (four u16 per block: max tf, then the shortest length
 * of tf 1, tf 2 and tf ≥ 3, lengths capped at 65534, `NO_LEN` when none).
 */
export interface Posting {
  docs: Int32Array;
  tfs: Uint16Array;
  /** Entries used in docs/tfs (including dead slots until compaction). */
  n: number;
  /** Live records containing the term. */
  df: number;
  maxTf: number;
  /** Shortest record length with tf 1, tf 2, tf ≥ 3 (Infinity: none). */
  min1: number;
  min2: number;
  min3: number;
  /** Per-block stats (null while the list fits in one block: the overall stats are that block's). */
  blocks: Uint16Array | null;
}

/** Vectors of one embedder model, one row per record, rows contiguous in `data`. */
export interface VectorBlock {
  dims: number;
  data: Float32Array;
  /** Slot of each row. */
  rowSlot: Int32Array;
  rows: number;
  /** The approximate dense pass's graph over the first rows (hnsw.ts; search-engine.ts builds it), when the block is large. */
  graph?: HnswGraph;
}

const EMPTY_I32 = new Int32Array(0);
const EMPTY_U16 = new Uint16Array(0);

function growI32(a: Int32Array, need: number, fill = 0): Int32Array {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}
export function growU32(a: Uint32Array, need: number): Uint32Array {
  if (need <= a.length) return a;
  const b = new Uint32Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}
export function growU16(a: Uint16Array, need: number): Uint16Array {
  if (need <= a.length) return a;
  const b = new Uint16Array(Math.max(need, a.length * 2, 4));
  b.set(a);
  return b;
}
export function growU8(a: Uint8Array, need: number): Uint8Array {
  if (need <= a.length) return a;
  const b = new Uint8Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}
export function growF64(a: Float64Array, need: number): Float64Array {
  if (need <= a.length) return a;
  const b = new Float64Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}
/**
 * `growF32` for vector blocks: in shared memory, so a worker thread can read the rows while it builds
 * the block's graph (search-engine.ts, `GraphBuilder`) without a copy of them.
 */
function growSharedF32(a: Float32Array, need: number): Float32Array {
  if (need <= a.length) return a;
  const length = Math.max(need, a.length * 2, 16);
  const b = new Float32Array(new SharedArrayBuffer(length * Float32Array.BYTES_PER_ELEMENT));
  b.set(a);
  return b;
}

/** Appends a posting with its final tf and keeps the list's score bounds. */
function appendPosting(p: Posting, slot: number, tf: number, len: number): void {
  const n = p.n;
  if (n === p.docs.length) {
    const cap = Math.max(4, n * 2);
    const d = new Int32Array(cap);
    d.set(p.docs);
    p.docs = d;
    p.tfs = growU16(p.tfs, cap);
  }
  p.docs[n] = slot;
  p.tfs[n] = tf;
  p.n = n + 1;
  p.df++;
  if (n === BLOCK) {
    // A second block starts: the first block's stats are the overall ones so far.
    p.blocks = new Uint16Array(16);
    p.blocks[0] = p.maxTf;
    p.blocks[1] = capLen(p.min1);
    p.blocks[2] = capLen(p.min2);
    p.blocks[3] = capLen(p.min3);
  }
  if (tf > p.maxTf) p.maxTf = tf;
  if (tf === 1) {
    if (len < p.min1) p.min1 = len;
  } else if (tf === 2) {
    if (len < p.min2) p.min2 = len;
  } else if (len < p.min3) p.min3 = len;
  const blocks = p.blocks;
  if (blocks === null) return;
  const o = (n >> BLOCK_SHIFT) << 2;
  if ((n & (BLOCK - 1)) === 0) {
    if (o + 4 > blocks.length) {
      const b = new Uint16Array(blocks.length * 2);
      b.set(blocks);
      p.blocks = b;
    }
    const b = p.blocks!;
    b[o] = 0;
    b[o + 1] = NO_LEN;
    b[o + 2] = NO_LEN;
    b[o + 3] = NO_LEN;
  }
  const b = p.blocks!;
  const l = len < LEN_CAP ? len : LEN_CAP;
  if (tf > b[o]!) b[o] = tf;
  const g = o + (tf >= 3 ? 3 : tf);
  if (l < b[g]!) b[g] = l;
}

function capLen(len: number): number {
  return len === Infinity ? NO_LEN : Math.min(len, LEN_CAP);
}

export class Partition {
  /** term -> term id (ids index `postings` and `termText`). */
  readonly dict = new Map<string, number>();
  termText: string[] = [];
  postings: Posting[] = [];
  /** Per-term scratch marks (distinct-term walks). */
  private mark: Int32Array = EMPTY_I32;
  /** Per-term scratch index (-1 = none), see `termIndexScratch`. */
  private termIndex: Int32Array = EMPTY_I32;
  /** Per-term scratch counts and distinct-term list of `add` (zero between uses). */
  private counts: Uint32Array = new Uint32Array(0);
  private distinct: Uint32Array = new Uint32Array(0);
  private markGen = 0;

  /** Per slot. */
  rids: Float64Array = new Float64Array(0);
  lens: Uint32Array = new Uint32Array(0);
  alive: Uint8Array = new Uint8Array(0);
  seqStart: Uint32Array = new Uint32Array(0);
  /** Term ids of every record in text order, records back to back. */
  seq: Uint32Array = new Uint32Array(0);
  seqUsed = 0;

  readonly slotOf = new Map<number, number>();
  slots = 0;
  live = 0;
  totalLen = 0;
  dead = 0;

  /** model -> vectors, only for the models in `vectorModels`. */
  readonly vectors = new Map<string, VectorBlock>();
  /** Row of each slot in each model's block (-1: none). */
  readonly vectorRow = new Map<string, Int32Array>();

  /** Bumped by every change; caches keyed on it stay valid while it is unchanged. */
  version = 0;
  private normCache: { version: number; c1: number; c2: number; norms: Float64Array } | undefined;

  constructor(
    readonly key: string,
    /** Embedder models whose vectors this partition keeps (others are dropped on arrival). */
    readonly vectorModels: ReadonlySet<string>,
  ) {}

  termId(term: string): number {
    let id = this.dict.get(term);
    if (id === undefined) {
      id = this.termText.length;
      this.dict.set(term, id);
      this.termText.push(term);
      // Empty until its first posting (a bulk load replaces every list anyway).
      this.postings.push({
        docs: EMPTY_I32,
        tfs: EMPTY_U16,
        n: 0,
        df: 0,
        maxTf: 0,
        min1: Infinity,
        min2: Infinity,
        min3: Infinity,
        blocks: null,
      });
    }
    return id;
  }

  /** Adds a record (replacing the live record of the same rid, if any). */
  add(rid: number, terms: readonly string[], vector?: Float32Array, model?: string): void {
    const old = this.slotOf.get(rid);
    if (old !== undefined) this.kill(old);
    const slot = this.slots++;
    this.rids = growF64(this.rids, this.slots);
    this.lens = growU32(this.lens, this.slots);
    this.alive = growU8(this.alive, this.slots);
    this.seqStart = growU32(this.seqStart, this.slots);
    const len = terms.length;
    const start = this.seqUsed;
    this.seq = growU32(this.seq, start + len);
    this.rids[slot] = rid;
    this.alive[slot] = 1;
    this.seqStart[slot] = start;
    this.lens[slot] = len;
    const seq = this.seq;
    for (let i = 0; i < len; i++) seq[start + i] = this.termId(terms[i]!);
    this.seqUsed = start + len;
    // Term frequencies first (distinct terms in first-occurrence order), then one posting per term.
    const counts = (this.counts = growU32(this.counts, this.termText.length));
    const distinct = (this.distinct = growU32(this.distinct, len));
    let nd = 0;
    for (let i = start; i < start + len; i++) {
      const id = seq[i]!;
      const c = counts[id]!;
      counts[id] = c + 1;
      if (c === 0) distinct[nd++] = id;
    }
    for (let j = 0; j < nd; j++) {
      const id = distinct[j]!;
      const tf = Math.min(counts[id]!, 0xffff);
      counts[id] = 0;
      appendPosting(this.postings[id]!, slot, tf, len);
    }
    this.slotOf.set(rid, slot);
    this.live++;
    this.totalLen += len;
    if (vector && model !== undefined && this.vectorModels.has(model)) this.addVector(slot, vector, model);
    this.version++;
  }

  /** Adds a slot's vector to its model's block (the slot's record is being added). */
  addVector(slot: number, vector: Float32Array, model: string): void {
    let block = this.vectors.get(model);
    if (!block) {
      block = { dims: vector.length, data: new Float32Array(0), rowSlot: new Int32Array(0), rows: 0 };
      this.vectors.set(model, block);
      this.vectorRow.set(model, new Int32Array(0));
    }
    // A vector of another length cannot be compared with the others of its model: it is left out.
    if (vector.length !== block.dims || block.dims === 0) return;
    const row = block.rows++;
    block.data = growSharedF32(block.data, block.rows * block.dims);
    block.data.set(vector, row * block.dims);
    block.rowSlot = growI32(block.rowSlot, block.rows);
    block.rowSlot[row] = slot;
    const rows = growI32(this.vectorRow.get(model)!, this.slots, -1);
    rows[slot] = row;
    this.vectorRow.set(model, rows);
  }

  /** Vector row of a live slot for a model, or -1. */
  rowOf(model: string, slot: number): number {
    const rows = this.vectorRow.get(model);
    return rows && slot < rows.length ? rows[slot]! : -1;
  }

  /** Removes a record; false when the rid is unknown. */
  remove(rid: number): boolean {
    const slot = this.slotOf.get(rid);
    if (slot === undefined) return false;
    this.kill(slot);
    this.version++;
    return true;
  }

  private kill(slot: number): void {
    this.slotOf.delete(this.rids[slot]!);
    this.alive[slot] = 0;
    this.live--;
    this.dead++;
    this.totalLen -= this.lens[slot]!;
    this.mark = growI32(this.mark, this.termText.length);
    const gen = ++this.markGen;
    const start = this.seqStart[slot]!;
    const end = start + this.lens[slot]!;
    for (let i = start; i < end; i++) {
      const id = this.seq[i]!;
      if (this.mark[id] === gen) continue;
      this.mark[id] = gen;
      this.postings[id]!.df--;
    }
  }

  /**
   * Scratch array term id -> small index, every entry -1 between uses: a caller
   * sets the entries it needs and must reset them to -1 before returning.
   */
  termIndexScratch(): Int32Array {
    if (this.termIndex.length < this.termText.length) this.termIndex = growI32(this.termIndex, this.termText.length, -1);
    return this.termIndex;
  }

  /**
   * BM25 length normalisation of every slot, c1 + c2 · length (k1·(1 − b) and
   * k1·b / average length of the queried collection), kept while the partition
   * and the constants are unchanged.
   */
  norms(c1: number, c2: number): Float64Array {
    const c = this.normCache;
    if (c && c.version === this.version && c.c1 === c1 && c.c2 === c2) return c.norms;
    const norms = c && c.norms.length >= this.slots ? c.norms : new Float64Array(Math.max(this.slots, 16));
    const lens = this.lens;
    for (let i = 0; i < this.slots; i++) norms[i] = c1 + c2 * lens[i]!;
    this.normCache = { version: this.version, c1, c2, norms };
    return norms;
  }

  /** Term ids of a slot in text order (a view into the sequence pool). */
  termsOf(slot: number): Uint32Array {
    const start = this.seqStart[slot]!;
    return this.seq.subarray(start, start + this.lens[slot]!);
  }

  /** True when enough slots are dead for a rebuild to pay off. */
  needsCompaction(): boolean {
    return this.dead >= 64 && this.dead * 4 > this.live;
  }

  /**
   * Rebuilds postings, sequences and vector blocks from the live records only
   * (slots renumbered in their old order, so results keep their tie order).
   */
  compact(): void {
    const oldSlots = this.slots;
    const alive = this.alive;
    const rids = this.rids;
    const lens = this.lens;
    const seqStart = this.seqStart;
    const seq = this.seq;
    const termText = this.termText;
    const oldVectors = new Map(this.vectors);
    const oldRows = new Map(this.vectorRow);

    this.dict.clear();
    this.termText = [];
    this.postings = [];
    this.mark = EMPTY_I32;
    this.termIndex = EMPTY_I32;
    this.counts = new Uint32Array(0);
    this.rids = new Float64Array(this.live);
    this.lens = new Uint32Array(this.live);
    this.alive = new Uint8Array(this.live);
    this.seqStart = new Uint32Array(this.live);
    this.seq = new Uint32Array(this.totalLen);
    this.seqUsed = 0;
    this.slotOf.clear();
    this.slots = 0;
    this.live = 0;
    this.totalLen = 0;
    this.dead = 0;
    this.vectors.clear();
    this.vectorRow.clear();

    // Term ids are given anew in first-occurrence order over the live records (terms no live record holds go).
    const remap = new Int32Array(termText.length).fill(-1);
    const bulk = new BulkLoad(this);
    for (let s = 0; s < oldSlots; s++) {
      if (!alive[s]) continue;
      const from = seqStart[s]!;
      const len = lens[s]!;
      const start = this.seqUsed;
      for (let i = 0; i < len; i++) {
        const old = seq[from + i]!;
        let id = remap[old]!;
        if (id < 0) remap[old] = id = this.termId(termText[old]!);
        this.seq[start + i] = id;
      }
      bulk.pushSequence(rids[s]!, start, len);
      const slot = this.slots - 1;
      for (const [m, block] of oldVectors) {
        const rows = oldRows.get(m)!;
        const row = s < rows.length ? rows[s]! : -1;
        if (row < 0) continue;
        this.addVector(slot, block.data.subarray(row * block.dims, (row + 1) * block.dims), m);
      }
    }
    for (const _ of bulk.build());
    // Blocks of models without any live vector are dropped with the rest.
    this.version++;
  }

  /** Approximate bytes held by the typed arrays and term dictionary (for reports). */
  bytes(): number {
    let b = this.rids.byteLength + this.lens.byteLength + this.alive.byteLength + this.seqStart.byteLength + this.seq.byteLength + this.mark.byteLength;
    for (const p of this.postings) b += p.docs.byteLength + p.tfs.byteLength + (p.blocks?.byteLength ?? 0) + 64;
    for (const t of this.termText) b += 2 * t.length + 48;
    b += this.slotOf.size * 40 + (this.normCache?.norms.byteLength ?? 0);
    for (const v of this.vectors.values()) b += v.data.byteLength + v.rowSlot.byteLength + (v.graph?.bytes() ?? 0);
    for (const r of this.vectorRow.values()) b += r.byteLength;
    return b;
  }
}
