/**
 * A partition's search structures as bytes, and back (issue #35: a restart reads them instead of
 * analysing every stored record again, ~10 s at a million chunks). Pure: the store's adapter writes
 * and reads the bytes, and decides whether they still describe its records (`decodePartition` checks
 * them against the store's live record ids).
 *
 * Written by hand: the structures are the engine's own typed arrays, which a general serialiser
 * (JSON, MessagePack, protobuf) would copy element by element; here each array is written once, as
 * is, and read back as a view over the file's bytes.
 *
 * Layout: "ENGSNAP" + format byte, u32 header length, the header (JSON) padded to 8 bytes, then the
 * sections the header lists, in its order, each padded to 8 bytes. Numbers are little-endian (the
 * platform's; a snapshot written on a big-endian machine is refused by the byte-order mark).
 */
import { BLOCK, BLOCK_SHIFT } from "./blocks";
import { Partition, type Posting } from "./partition";
import { HnswGraph } from "./hnsw";

const MAGIC = "ENGSNAP";
const FORMAT = 1;
const BYTE_ORDER = 0x01020304;

type ArrayKind = "f64" | "f32" | "i32" | "u32" | "u16" | "u8";
type Typed = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;
const CTOR: Record<ArrayKind, { new (buffer: ArrayBufferLike, offset: number, length: number): Typed; BYTES_PER_ELEMENT: number }> = {
  f64: Float64Array,
  f32: Float32Array,
  i32: Int32Array,
  u32: Uint32Array,
  u16: Uint16Array,
  u8: Uint8Array,
};

interface Header {
  format: number;
  byteOrder: number;
  key: string;
  slots: number;
  live: number;
  totalLen: number;
  dead: number;
  seqUsed: number;
  terms: number;
  /** Each model's vectors, and the scalars of its graph (hnsw.ts) when it had one: its arrays are sections `graph.<array>:<model>`. */
  models: { model: string; dims: number; rows: number; graph?: { built: number; entry: number; top: number; upperUsed: number } }[];
  sections: { name: string; kind: ArrayKind; length: number }[];
}

const pad8 = (n: number) => (8 - (n % 8)) % 8;

/** The partition as byte chunks to write one after the other (views of its arrays, not copies). */
export function encodePartition(p: Partition): Uint8Array[] {
  const terms = p.termText.length;
  const postingN = new Uint32Array(terms);
  const postingDf = new Uint32Array(terms);
  const postingStats = new Float64Array(4 * terms);
  const blockLen = new Uint32Array(terms);
  let total = 0;
  let blocksTotal = 0;
  for (let id = 0; id < terms; id++) {
    const q = p.postings[id]!;
    postingN[id] = q.n;
    postingDf[id] = q.df;
    postingStats[4 * id] = q.maxTf;
    postingStats[4 * id + 1] = q.min1;
    postingStats[4 * id + 2] = q.min2;
    postingStats[4 * id + 3] = q.min3;
    const bl = q.blocks === null ? 0 : ((q.n + BLOCK - 1) >> BLOCK_SHIFT) << 2;
    blockLen[id] = bl;
    total += q.n;
    blocksTotal += bl;
  }
  const sections: { name: string; kind: ArrayKind; data: Typed }[] = [
    { name: "terms", kind: "u8", data: new TextEncoder().encode(p.termText.join("\u0000")) },
    { name: "postingN", kind: "u32", data: postingN },
    { name: "postingDf", kind: "u32", data: postingDf },
    { name: "postingStats", kind: "f64", data: postingStats },
    { name: "blockLen", kind: "u32", data: blockLen },
    { name: "rids", kind: "f64", data: p.rids.subarray(0, p.slots) },
    { name: "lens", kind: "u32", data: p.lens.subarray(0, p.slots) },
    { name: "alive", kind: "u8", data: p.alive.subarray(0, p.slots) },
    { name: "seqStart", kind: "u32", data: p.seqStart.subarray(0, p.slots) },
    { name: "seq", kind: "u32", data: p.seq.subarray(0, p.seqUsed) },
  ];
  // Every list's entries back to back (lists are views or arrays of their own, so each is written in turn).
  const docParts: Typed[] = [];
  const tfParts: Typed[] = [];
  const blockParts: Typed[] = [];
  for (const q of p.postings) {
    docParts.push(q.docs.subarray(0, q.n));
    tfParts.push(q.tfs.subarray(0, q.n));
    if (q.blocks !== null) blockParts.push(q.blocks.subarray(0, ((q.n + BLOCK - 1) >> BLOCK_SHIFT) << 2));
  }
  const models: Header["models"] = [];
  const vectorSections: { name: string; kind: ArrayKind; data: Typed }[] = [];
  for (const [model, block] of p.vectors) {
    const g = block.graph?.state();
    models.push({ model, dims: block.dims, rows: block.rows, ...(g ? { graph: { built: g.built, entry: g.entry, top: g.top, upperUsed: g.upperUsed } } : {}) });
    vectorSections.push({ name: `vectors:${model}`, kind: "f32", data: block.data.subarray(0, block.rows * block.dims) });
    vectorSections.push({ name: `rowSlot:${model}`, kind: "i32", data: block.rowSlot.subarray(0, block.rows) });
    if (g)
      vectorSections.push(
        { name: `graph.levels:${model}`, kind: "u8", data: g.levels },
        { name: `graph.links0:${model}`, kind: "i32", data: g.links0 },
        { name: `graph.count0:${model}`, kind: "u8", data: g.count0 },
        { name: `graph.upperAt:${model}`, kind: "i32", data: g.upperAt },
        { name: `graph.upper:${model}`, kind: "i32", data: g.upper },
      );
  }
  const header: Header = {
    format: FORMAT,
    byteOrder: BYTE_ORDER,
    key: p.key,
    slots: p.slots,
    live: p.live,
    totalLen: p.totalLen,
    dead: p.dead,
    seqUsed: p.seqUsed,
    terms,
    models,
    sections: [
      ...sections.map((s) => ({ name: s.name, kind: s.kind, length: s.data.length })),
      { name: "docs", kind: "i32", length: total },
      { name: "tfs", kind: "u16", length: total },
      { name: "blocks", kind: "u16", length: blocksTotal },
      ...vectorSections.map((s) => ({ name: s.name, kind: s.kind, length: s.data.length })),
    ],
  };
  const out: Uint8Array[] = [];
  const json = new TextEncoder().encode(JSON.stringify(header));
  const lead = new Uint8Array(12);
  lead.set(new TextEncoder().encode(MAGIC), 0);
  lead[7] = FORMAT;
  new DataView(lead.buffer).setUint32(8, json.length, true);
  out.push(lead, json, new Uint8Array(pad8(12 + json.length)));
  const bytesOf = (a: Typed) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const put = (parts: Typed[]) => {
    let bytes = 0;
    for (const a of parts) {
      out.push(bytesOf(a));
      bytes += a.byteLength;
    }
    out.push(new Uint8Array(pad8(bytes)));
  };
  for (const s of sections) put([s.data]);
  put(docParts);
  put(tfParts);
  put(blockParts);
  for (const s of vectorSections) put([s.data]);
  return out;
}

/**
 * The partition the bytes describe, or undefined when they cannot serve: another format, byte
 * order or key, vectors missing for a model the engine keeps, or, when the store gives its live
 * record ids (`liveRids`, ascending), live records other than those: the snapshot is then out of
 * date. The arrays are views over `bytes`, which must stay unchanged.
 */
export function decodePartition(bytes: Uint8Array, key: string, vectorModels: ReadonlySet<string>, liveRids?: ArrayLike<number>): Partition | undefined {
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 7)) !== MAGIC || bytes[7] !== FORMAT) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLen = view.getUint32(8, true);
  if (12 + jsonLen > bytes.length) return undefined;
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + jsonLen))) as Header;
  } catch {
    return undefined;
  }
  if (header.format !== FORMAT || header.byteOrder !== BYTE_ORDER || header.key !== key) return undefined;
  for (const m of vectorModels) if (!header.models.some((h) => h.model === m)) return undefined;
  if ((bytes.byteOffset + 12 + jsonLen + pad8(12 + jsonLen)) % 8 !== 0) bytes = bytes.slice(); // views need aligned offsets
  const arrays = new Map<string, Typed>();
  let at = 12 + jsonLen + pad8(12 + jsonLen);
  for (const s of header.sections) {
    const ctor = CTOR[s.kind];
    const size = s.length * ctor.BYTES_PER_ELEMENT;
    if (at + size > bytes.length) return undefined;
    arrays.set(s.name, new ctor(bytes.buffer, bytes.byteOffset + at, s.length));
    at += size + pad8(size);
  }
  const get = <T extends Typed>(name: string) => arrays.get(name) as T;

  // The store's live records must be exactly the snapshot's (slots are in rid order, ascending).
  const rids = get<Float64Array>("rids");
  const alive = get<Uint8Array>("alive");
  if (liveRids) {
    let k = 0;
    for (let s = 0; s < header.slots; s++) {
      if (!alive[s]) continue;
      if (k >= liveRids.length || liveRids[k] !== rids[s]) return undefined;
      k++;
    }
    if (k !== liveRids.length) return undefined;
  }

  const p = new Partition(key, new Set(vectorModels));
  p.termText = header.terms === 0 ? [] : new TextDecoder().decode(get<Uint8Array>("terms")).split("\u0000");
  if (p.termText.length !== header.terms) return undefined;
  for (let id = 0; id < p.termText.length; id++) p.dict.set(p.termText[id]!, id);
  // Per-slot arrays are copied (they grow in place as records are added); postings stay views (an append copies a list).
  p.rids = Float64Array.from(rids);
  p.lens = Uint32Array.from(get<Uint32Array>("lens"));
  p.alive = Uint8Array.from(alive);
  p.seqStart = Uint32Array.from(get<Uint32Array>("seqStart"));
  p.seq = get<Uint32Array>("seq");
  p.seqUsed = header.seqUsed;
  p.slots = header.slots;
  p.live = header.live;
  p.totalLen = header.totalLen;
  p.dead = header.dead;
  for (let s = 0; s < header.slots; s++) if (p.alive[s]) p.slotOf.set(p.rids[s]!, s);
  const postingN = get<Uint32Array>("postingN");
  const postingDf = get<Uint32Array>("postingDf");
  const stats = get<Float64Array>("postingStats");
  const blockLen = get<Uint32Array>("blockLen");
  const docs = get<Int32Array>("docs");
  const tfs = get<Uint16Array>("tfs");
  const blocks = get<Uint16Array>("blocks");
  const postings: Posting[] = new Array<Posting>(header.terms);
  let d = 0;
  let b = 0;
  for (let id = 0; id < header.terms; id++) {
    const n = postingN[id]!;
    const bl = blockLen[id]!;
    postings[id] = {
      docs: docs.subarray(d, d + n),
      tfs: tfs.subarray(d, d + n),
      n,
      df: postingDf[id]!,
      maxTf: stats[4 * id]!,
      min1: stats[4 * id + 1]!,
      min2: stats[4 * id + 2]!,
      min3: stats[4 * id + 3]!,
      blocks: bl === 0 ? null : blocks.subarray(b, b + bl),
    };
    d += n;
    b += bl;
  }
  if (d !== docs.length || b !== blocks.length) return undefined;
  p.postings = postings;
  for (const m of header.models) {
    if (!vectorModels.has(m.model)) continue;
    const rowSlot = get<Int32Array>(`rowSlot:${m.model}`);
    // A graph that does not fit its saved arrays is left out: the engine builds it again.
    const g = m.graph;
    const graph =
      g && g.built <= m.rows
        ? HnswGraph.fromState(m.dims, {
            ...g,
            levels: get<Uint8Array>(`graph.levels:${m.model}`),
            links0: get<Int32Array>(`graph.links0:${m.model}`),
            count0: get<Uint8Array>(`graph.count0:${m.model}`),
            upperAt: get<Int32Array>(`graph.upperAt:${m.model}`),
            upper: get<Int32Array>(`graph.upper:${m.model}`),
          })
        : undefined;
    p.vectors.set(m.model, { dims: m.dims, data: get<Float32Array>(`vectors:${m.model}`), rowSlot, rows: m.rows, ...(graph ? { graph } : {}) });
    const rows = new Int32Array(header.slots).fill(-1);
    for (let r = 0; r < m.rows; r++) rows[rowSlot[r]!] = r;
    p.vectorRow.set(m.model, rows);
  }
  p.version++;
  return p;
}
