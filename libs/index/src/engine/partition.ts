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

/** Postings of one term. `docs` is sorted ascending (slot order). */
export interface Posting {
  docs: Int32Array;
  tfs: Uint16Array;
  /** Entries used in docs/tfs (including dead slots until compaction). */
  n: number;
  /** Live records containing the term. */
  df: number;
  /** Upper bounds for score pruning: largest tf, shortest record length seen (kept conservative on removal). */
  maxTf: number;
  minLen: number;
}

/** Vectors of one embedder model, one row per record, rows contiguous in `data`. */
export interface VectorBlock {
  dims: number;
  data: Float32Array;
  /** Slot of each row. */
  rowSlot: Int32Array;
  rows: number;
}

const EMPTY_I32 = new Int32Array(0);

function growI32(a: Int32Array, need: number, fill = 0): Int32Array {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}
function growU32(a: Uint32Array, need: number): Uint32Array {
  if (need <= a.length) return a;
  const b = new Uint32Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}
function growU16(a: Uint16Array, need: number): Uint16Array {
  if (need <= a.length) return a;
  const b = new Uint16Array(Math.max(need, a.length * 2, 4));
  b.set(a);
  return b;
}
function growU8(a: Uint8Array, need: number): Uint8Array {
  if (need <= a.length) return a;
  const b = new Uint8Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}
function growF64(a: Float64Array, need: number): Float64Array {
  if (need <= a.length) return a;
  const b = new Float64Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}
function growF32(a: Float32Array, need: number): Float32Array {
  if (need <= a.length) return a;
  const b = new Float32Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
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
      this.postings.push({ docs: new Int32Array(2), tfs: new Uint16Array(2), n: 0, df: 0, maxTf: 0, minLen: 0x7fffffff });
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
    this.seq = growU32(this.seq, this.seqUsed + terms.length);
    this.rids[slot] = rid;
    this.alive[slot] = 1;
    this.seqStart[slot] = this.seqUsed;
    const len = terms.length;
    this.lens[slot] = len;
    for (const t of terms) {
      const id = this.termId(t);
      this.seq[this.seqUsed++] = id;
      const p = this.postings[id]!;
      if (p.n > 0 && p.docs[p.n - 1] === slot) {
        const tf = p.tfs[p.n - 1]!;
        if (tf < 0xffff) {
          p.tfs[p.n - 1] = tf + 1;
          if (tf + 1 > p.maxTf) p.maxTf = tf + 1;
        }
      } else {
        if (p.n === p.docs.length) {
          const cap = p.n * 2;
          const d = new Int32Array(cap);
          d.set(p.docs);
          p.docs = d;
          p.tfs = growU16(p.tfs, cap);
        }
        p.docs[p.n] = slot;
        p.tfs[p.n] = 1;
        p.n++;
        p.df++;
        if (p.maxTf < 1) p.maxTf = 1;
        if (len < p.minLen) p.minLen = len;
      }
    }
    this.slotOf.set(rid, slot);
    this.live++;
    this.totalLen += len;
    if (vector && model !== undefined && this.vectorModels.has(model)) this.addVector(slot, vector, model);
    this.version++;
  }

  private addVector(slot: number, vector: Float32Array, model: string): void {
    let block = this.vectors.get(model);
    if (!block) {
      block = { dims: vector.length, data: new Float32Array(0), rowSlot: new Int32Array(0), rows: 0 };
      this.vectors.set(model, block);
      this.vectorRow.set(model, new Int32Array(0));
    }
    // A vector of another length cannot be compared with the others of its model: it is left out.
    if (vector.length !== block.dims || block.dims === 0) return;
    const row = block.rows++;
    block.data = growF32(block.data, block.rows * block.dims);
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

    const terms: string[] = [];
    for (let s = 0; s < oldSlots; s++) {
      if (!alive[s]) continue;
      terms.length = 0;
      const start = seqStart[s]!;
      for (let i = start; i < start + lens[s]!; i++) terms.push(termText[seq[i]!]!);
      let vector: Float32Array | undefined;
      let model: string | undefined;
      this.add(rids[s]!, terms);
      const slot = this.slots - 1;
      for (const [m, block] of oldVectors) {
        const rows = oldRows.get(m)!;
        const row = s < rows.length ? rows[s]! : -1;
        if (row < 0) continue;
        vector = block.data.subarray(row * block.dims, (row + 1) * block.dims);
        model = m;
        this.addVector(slot, vector, model);
      }
    }
    // Blocks of models without any live vector are dropped with the rest.
    this.version++;
  }

  /** Approximate bytes held by the typed arrays and term dictionary (for reports). */
  bytes(): number {
    let b = this.rids.byteLength + this.lens.byteLength + this.alive.byteLength + this.seqStart.byteLength + this.seq.byteLength + this.mark.byteLength;
    for (const p of this.postings) b += p.docs.byteLength + p.tfs.byteLength + 64;
    for (const t of this.termText) b += 2 * t.length + 48;
    b += this.slotOf.size * 40;
    for (const v of this.vectors.values()) b += v.data.byteLength + v.rowSlot.byteLength;
    for (const r of this.vectorRow.values()) b += r.byteLength;
    return b;
  }
}
