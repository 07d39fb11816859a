import * as blockConstants from "./blocks";
import { growF64, growU32, growU8, type Partition, type Posting } from "./partition";

// Module-local copies: an imported binding is read through a getter on every use once the
// module is transpiled to CommonJS (tsx, jest), which shows in the hot loops.
const { BLOCK, BLOCK_SHIFT, NO_LEN, LEN_CAP } = blockConstants;

/**
 * Term ids of stored analyses (`analyzeForStorage`: stems joined by single
 * spaces) read straight from the string: each term is hashed from its
 * characters and found in an open-addressing table, so loading creates a
 * string only for a term the partition has not seen (split() would create one
 * per occurrence, and a Map lookup hashes each of them again).
 */
class TermTable {
  /** Pairs (hash, term id), id -1 for a free entry. */
  private entries: Int32Array;
  private size = 0;
  /** Characters of every term back to back, and where each term id's start (terms contiguous, so id + 1 ends it). */
  private chars = new Uint16Array(1 << 14);
  private charsUsed = 0;
  private start = new Int32Array(1024);
  /** Term ids below this are in the table (terms the partition got otherwise are added on the next miss). */
  private known = 0;

  constructor(private readonly part: Partition) {
    let cap = 1024;
    while (cap < part.termText.length * 2) cap *= 2;
    this.entries = TermTable.empty(cap);
    this.catchUp();
  }

  private catchUp(): void {
    while (this.known < this.part.termText.length) this.insert(this.known++);
  }

  private static empty(cap: number): Int32Array {
    const e = new Int32Array(2 * cap);
    for (let i = 1; i < e.length; i += 2) e[i] = -1;
    return e;
  }

  /** Id of s[start, end), whose hash is h, creating the term when new. */
  idOf(s: string, start: number, end: number, h: number): number {
    const e = this.entries;
    const mask = (e.length >> 1) - 1;
    const chars = this.chars;
    const len = end - start;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const id = e[2 * at + 1]!;
      if (id < 0) break;
      if (e[2 * at] !== h) continue;
      const from = this.start[id]!;
      if (this.start[id + 1]! - from !== len) continue;
      let k = 0;
      while (k < len && chars[from + k] === s.charCodeAt(start + k)) k++;
      if (k === len) return id;
    }
    if (this.known < this.part.termText.length) {
      this.catchUp();
      return this.idOf(s, start, end, h);
    }
    const id = this.part.termId(s.slice(start, end));
    this.catchUp();
    return id;
  }

  /** Adds the partition's term `id` (ids are added in order, each right after the one before). */
  private insert(id: number): void {
    const t = this.part.termText[id]!;
    if (this.charsUsed + t.length > this.chars.length) {
      const c = new Uint16Array(Math.max(this.chars.length * 2, this.charsUsed + t.length));
      c.set(this.chars);
      this.chars = c;
    }
    for (let k = 0; k < t.length; k++) this.chars[this.charsUsed + k] = t.charCodeAt(k);
    if (id + 2 > this.start.length) {
      const st = new Int32Array(this.start.length * 2);
      st.set(this.start);
      this.start = st;
    }
    this.start[id] = this.charsUsed;
    this.charsUsed += t.length;
    this.start[id + 1] = this.charsUsed;
    this.place(hashOf(t, 0, t.length), id);
  }

  private place(h: number, id: number): void {
    if ((this.size + 1) * 4 > this.entries.length) this.rehash();
    const e = this.entries;
    const mask = (e.length >> 1) - 1;
    let at = h & mask;
    while (e[2 * at + 1] !== -1) at = (at + 1) & mask;
    e[2 * at] = h;
    e[2 * at + 1] = id;
    this.size++;
  }

  private rehash(): void {
    const old = this.entries;
    this.entries = TermTable.empty(old.length);
    this.size = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i + 1]! >= 0) this.place(old[i]!, old[i + 1]!);
  }
}

/** FNV-1a over UTF-16 code units. */
function hashOf(s: string, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** Temporary arrays of a load grow in chunks of this many entries: growing never copies (no long pauses). */
const CHUNK_SHIFT = 16;
const CHUNK = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK - 1;

/**
 * Loads records into an empty partition in bulk (a partition's first load,
 * and compaction). `push` (or `pushSequence`) takes records in slot order and
 * maps their terms to ids; `build` then sizes every posting list exactly,
 * fills all of them in slot order in flat arrays (one allocation for all
 * lists, views per term) and makes the lists, in steps: a caller may run it
 * to the end at once or spread it over turns of the event loop. The
 * partition ends up as `add` of the same records one by one would leave it,
 * and must not be searched (nor changed otherwise) before `build` is done.
 */
export class BulkLoad {
  private table: TermTable | undefined;
  /** Term ids of the records given to `push`, back to back, in chunks (`build` joins them into the partition's sequence). */
  private seqChunks: Uint32Array[] = [];
  private seqUsed = 0;
  /** Records given to `pushSequence` already have their ids in the partition's sequence. */
  private inPlace = false;
  /** Distinct (term, tf) pairs of every slot, slots back to back, in chunks; pairStart has slots + 1 entries. */
  private pairIds: Uint32Array[] = [];
  private pairTfs: Uint16Array[] = [];
  private pairsUsed = 0;
  private pairStart: Uint32Array = new Uint32Array(1 << 10);
  /** Per term: postings (dead slots included) and live records. */
  private count: Uint32Array = new Uint32Array(1024);
  private df: Uint32Array = new Uint32Array(1024);
  /** Scratch: per-term counts of the record being added (zero between records) and its distinct terms. */
  private tf: Uint32Array = new Uint32Array(1024);
  private distinct: Uint32Array = new Uint32Array(256);
  /** Scratch: the term ids of the record being added. */
  private ids: Uint32Array = new Uint32Array(256);

  constructor(private readonly part: Partition) {
    if (part.slots !== 0) throw new Error("bulk loading needs an empty partition");
  }

  /** Adds a record: its stored analysis (stems joined by spaces) or its terms; a repeated rid replaces the earlier record. */
  push(rid: number, terms: string | readonly string[], vector?: Float32Array, model?: string): void {
    if (this.inPlace) throw new Error("push after pushSequence");
    const part = this.part;
    // The record's term ids first.
    let ids = this.ids;
    let len = 0;
    if (typeof terms === "string") {
      // Same terms as parseStoredTerms: split(" "), the empty string has none.
      const s = terms;
      if (s.length > 0) {
        const table = (this.table ??= new TermTable(part));
        for (let from = 0; ;) {
          let end = from;
          let h = 0x811c9dc5 | 0;
          for (; end < s.length; end++) {
            const c = s.charCodeAt(end);
            if (c === 32) break;
            h = Math.imul(h ^ c, 0x01000193);
          }
          if (len === ids.length) ids = this.ids = growU32(ids, len + 1);
          ids[len++] = table.idOf(s, from, end, h);
          if (end >= s.length) break;
          from = end + 1;
        }
      }
    } else {
      if (terms.length > ids.length) ids = this.ids = growU32(ids, terms.length);
      for (const t of terms) ids[len++] = part.termId(t);
    }
    // Then appended to the sequence and counted.
    if (part.termText.length > this.tf.length) this.growTerms(part.termText.length);
    if (len > this.distinct.length) this.distinct = growU32(this.distinct, len);
    const { tf, distinct } = this;
    const start = this.seqUsed;
    let chunk = this.seqChunks[start >>> CHUNK_SHIFT];
    let nd = 0;
    for (let i = 0; i < len; i++) {
      const at = (start + i) & CHUNK_MASK;
      if (at === 0) this.seqChunks.push((chunk = new Uint32Array(CHUNK)));
      const id = ids[i]!;
      chunk![at] = id;
      const c = tf[id]!;
      tf[id] = c + 1;
      if (c === 0) distinct[nd++] = id;
    }
    this.seqUsed = start + len;
    this.record(rid, start, len, nd);
    if (vector && model !== undefined && part.vectorModels.has(model)) part.addVector(part.slots - 1, vector, model);
  }

  /**
   * Adds a record whose `len` term ids are already at seq[start...] of the
   * partition, right after the records before it (compaction writes its
   * sequences there itself).
   */
  pushSequence(rid: number, start: number, len: number): void {
    if (this.seqUsed > 0) throw new Error("pushSequence after push");
    this.inPlace = true;
    const part = this.part;
    if (part.termText.length > this.tf.length) this.growTerms(part.termText.length);
    if (len > this.distinct.length) this.distinct = growU32(this.distinct, len);
    const { tf, distinct } = this;
    const seq = part.seq;
    let nd = 0;
    for (let i = start; i < start + len; i++) {
      const id = seq[i]!;
      const c = tf[id]!;
      tf[id] = c + 1;
      if (c === 0) distinct[nd++] = id;
    }
    part.seqUsed = start + len;
    this.record(rid, start, len, nd);
  }

  private growTerms(n: number): void {
    this.tf = growU32(this.tf, n);
    this.count = growU32(this.count, n);
    this.df = growU32(this.df, n);
  }

  /** Takes a slot for the record whose distinct terms and their counts are in the scratch. */
  private record(rid: number, start: number, len: number, nd: number): void {
    const part = this.part;
    const old = part.slotOf.get(rid);
    if (old !== undefined) this.kill(old);
    const slot = part.slots++;
    if (slot >= part.rids.length) {
      part.rids = growF64(part.rids, slot + 1);
      part.lens = growU32(part.lens, slot + 1);
      part.alive = growU8(part.alive, slot + 1);
      part.seqStart = growU32(part.seqStart, slot + 1);
    }
    part.rids[slot] = rid;
    part.lens[slot] = len;
    part.alive[slot] = 1;
    part.seqStart[slot] = start;
    part.slotOf.set(rid, slot);
    part.live++;
    part.totalLen += len;
    if (slot + 2 > this.pairStart.length) this.pairStart = growU32(this.pairStart, slot + 2);
    const { tf, distinct, count, df } = this;
    let at = this.pairsUsed;
    for (let j = 0; j < nd; j++) {
      const id = distinct[j]!;
      const n = tf[id]!;
      const k = at & CHUNK_MASK;
      if (k === 0) {
        this.pairIds.push(new Uint32Array(CHUNK));
        this.pairTfs.push(new Uint16Array(CHUNK));
      }
      this.pairIds[at >>> CHUNK_SHIFT]![k] = id;
      this.pairTfs[at >>> CHUNK_SHIFT]![k] = n < 0xffff ? n : 0xffff;
      at++;
      tf[id] = 0;
      count[id]!++;
      df[id]!++;
    }
    this.pairStart[slot] = this.pairsUsed;
    this.pairsUsed = at;
    this.pairStart[slot + 1] = at;
    part.version++;
  }

  private kill(slot: number): void {
    const part = this.part;
    part.slotOf.delete(part.rids[slot]!);
    part.alive[slot] = 0;
    part.live--;
    part.dead++;
    part.totalLen -= part.lens[slot]!;
    for (let j = this.pairStart[slot]!; j < this.pairStart[slot + 1]!; j++) this.df[this.pairIds[j >>> CHUNK_SHIFT]![j & CHUNK_MASK]!]!--;
  }

  /** Makes the posting lists; yields every `step` slots or so (run to the end, the partition is searchable). */
  *build(step = 256): Generator<void, void, undefined> {
    const part = this.part;
    if (!this.inPlace) {
      // The sequence, joined from its chunks.
      const seq = new Uint32Array(this.seqUsed);
      for (let i = 0; i < this.seqChunks.length; i++) {
        const c = this.seqChunks[i]!;
        seq.set(i === this.seqChunks.length - 1 ? c.subarray(0, this.seqUsed - i * CHUNK) : c, i * CHUNK);
        if (i % 8 === 7) yield;
      }
      this.seqChunks = [];
      part.seq = seq;
      part.seqUsed = this.seqUsed;
      yield;
    }
    const terms = part.termText.length;
    const count = this.count;
    // One array for every list's slots and tfs, one for the block stats of the lists longer than a block.
    const offset = new Uint32Array(terms + 1);
    const blockOffset = new Uint32Array(terms + 1);
    for (let id = 0; id < terms; id++) {
      const n = count[id]!;
      offset[id + 1] = offset[id]! + n;
      blockOffset[id + 1] = blockOffset[id]! + (n > BLOCK ? ((n + BLOCK - 1) >> BLOCK_SHIFT) << 2 : 0);
    }
    const docs = new Int32Array(offset[terms]!);
    yield;
    const tfs = new Uint16Array(offset[terms]!);
    yield;
    const blocks = new Uint16Array(blockOffset[terms]!);
    for (let o = 0; o < blocks.length; o += 4) {
      blocks[o + 1] = NO_LEN;
      blocks[o + 2] = NO_LEN;
      blocks[o + 3] = NO_LEN;
    }
    yield;
    const cursor = offset.slice(0, terms);
    const maxTf = new Uint16Array(terms);
    const min = new Float64Array(3 * terms).fill(Infinity);
    const { pairIds, pairTfs, pairStart } = this;
    const lens = part.lens;
    for (let slot = 0; slot < part.slots; slot++) {
      const len = lens[slot]!;
      const capped = len < LEN_CAP ? len : LEN_CAP;
      for (let j = pairStart[slot]!; j < pairStart[slot + 1]!; j++) {
        const id = pairIds[j >>> CHUNK_SHIFT]![j & CHUNK_MASK]!;
        const tf = pairTfs[j >>> CHUNK_SHIFT]![j & CHUNK_MASK]!;
        const at = cursor[id]!++;
        docs[at] = slot;
        tfs[at] = tf;
        if (tf > maxTf[id]!) maxTf[id] = tf;
        const g = tf >= 3 ? 2 : tf - 1;
        if (len < min[3 * id + g]!) min[3 * id + g] = len;
        if (count[id]! > BLOCK) {
          const o = blockOffset[id]! + (((at - offset[id]!) >> BLOCK_SHIFT) << 2);
          if (tf > blocks[o]!) blocks[o] = tf;
          if (capped < blocks[o + 1 + g]!) blocks[o + 1 + g] = capped;
        }
      }
      if ((slot + 1) % step === 0) yield;
    }
    this.pairIds = [];
    this.pairTfs = [];
    const postings: Posting[] = new Array<Posting>(terms);
    for (let id = 0; id < terms; id++) {
      if ((id + 1) % (16 * step) === 0) yield;
      const n = count[id]!;
      postings[id] = {
        docs: docs.subarray(offset[id]!, offset[id + 1]!),
        tfs: tfs.subarray(offset[id]!, offset[id + 1]!),
        n,
        df: this.df[id]!,
        maxTf: maxTf[id]!,
        min1: min[3 * id]!,
        min2: min[3 * id + 1]!,
        min3: min[3 * id + 2]!,
        blocks: n > BLOCK ? blocks.subarray(blockOffset[id]!, blockOffset[id + 1]!) : null,
      };
    }
    part.postings = postings;
    part.version++;
  }
}
