/**
 * Memory-like texts and their vectors from the shipped model, for the benches that need many memories
 * without spending hours in the model (`bench:ann`, `bench:memories-scale`).
 *
 * Real rows: LoCoMo turns, then MS MARCO passage sentences (../shared/datasets), embedded once and
 * cached under `cache` (a rerun skips the model). Queries: LoCoMo questions and MS MARCO queries,
 * embedded as queries. Past the real rows, synthetic ones (`grow`): a real vector plus a third of
 * another and a little noise, renormalised (cosine about 0.85 to its base), with the base's text, so a
 * large set keeps the clusters and near-duplicates of real memories.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LocalModelEmbedder } from "@engram/embed-model";
import { loadLocomo } from "./memory/locomo";
import { DATASETS_DIR, loadDataset } from "./quality/datasets";
import { prng } from "./lib";

export interface MemoryVectors {
  /** The model's id as the stack records it (`local:<model>`). */
  model: string;
  dims: number;
  texts: string[];
  /** One row per text. */
  rows: Float32Array;
  queryTexts: string[];
  queries: Float32Array;
}

export const DEFAULT_VECTOR_CACHE = path.join(os.tmpdir(), "engram-ann-cache");

async function embedCached(
  embedder: LocalModelEmbedder,
  cache: string,
  name: string,
  texts: string[],
  kind: "document" | "query",
  log: (msg: string) => void,
): Promise<Float32Array> {
  const file = path.join(cache, `${embedder.id.replace(/[^a-z0-9.-]+/gi, "_")}-${name}-${texts.length}.f32`);
  const dims = embedder.dimensions;
  if (fs.existsSync(file)) {
    const buf = fs.readFileSync(file);
    if (buf.byteLength === texts.length * dims * 4) return new Float32Array(buf.buffer, buf.byteOffset, texts.length * dims).slice();
  }
  const out = new Float32Array(texts.length * dims);
  const batch = 64;
  const started = Date.now();
  for (let i = 0; i < texts.length; i += batch) {
    const vs = await embedder.embed(texts.slice(i, i + batch), kind);
    vs.forEach((v, j) => out.set(v, (i + j) * dims));
    if ((i / batch) % 50 === 0) log(`embedding ${name}: ${i}/${texts.length} (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  fs.mkdirSync(cache, { recursive: true });
  fs.writeFileSync(file, Buffer.from(out.buffer));
  return out;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 20);
}

/** `real` texts and `queries` query texts, embedded (or read from the cache). */
export async function memoryVectors(opts: { real: number; queries: number; cache?: string; log?: (msg: string) => void }): Promise<MemoryVectors> {
  const log = opts.log ?? (() => {});
  const convs = loadLocomo(path.join(DATASETS_DIR, "locomo"));
  const msmarco = loadDataset("msmarco");
  const all: string[] = [];
  for (const c of convs) for (const s of c.sessions) for (const t of s.turns) all.push(t.text);
  for (const d of msmarco.docs) for (const s of sentences(d.text)) all.push(s);
  const texts = all.slice(0, opts.real);
  const queryTexts = [...convs.flatMap((c) => c.questions.map((q) => q.question)), ...msmarco.queries.map((q) => q.text)];
  const step = Math.max(1, Math.floor(queryTexts.length / opts.queries));
  const chosen = queryTexts.filter((_, i) => i % step === 0).slice(0, opts.queries);
  const embedder = new LocalModelEmbedder();
  try {
    const cache = opts.cache ?? DEFAULT_VECTOR_CACHE;
    const rows = await embedCached(embedder, cache, "rows", texts, "document", log);
    const queries = await embedCached(embedder, cache, "queries", chosen, "query", log);
    return { model: embedder.id, dims: embedder.dimensions, texts, rows, queryTexts: chosen, queries };
  } finally {
    await embedder.close();
  }
}

/** `size` rows: the real ones, then synthetic ones; `base[row]` is the real row whose text a row has. */
export function grow(real: Float32Array, dims: number, size: number): { rows: Float32Array; base: Int32Array } {
  const n = real.length / dims;
  const rows = new Float32Array(size * dims);
  const base = new Int32Array(size);
  rows.set(real.subarray(0, Math.min(n, size) * dims));
  for (let row = 0; row < Math.min(n, size); row++) base[row] = row;
  const rand = prng(7);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  for (let row = n; row < size; row++) {
    const ai = Math.floor(rand() * n);
    base[row] = ai;
    const a = ai * dims;
    const b = Math.floor(rand() * n) * dims;
    const o = row * dims;
    let s = 0;
    for (let i = 0; i < dims; i++) {
      const x = real[a + i]! + 0.33 * real[b + i]! + 0.03 * gauss();
      rows[o + i] = x;
      s += x * x;
    }
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < dims; i++) rows[o + i]! *= inv;
  }
  return { rows, base };
}
