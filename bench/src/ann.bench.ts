/**
 * The approximate dense pass (libs/index/src/engine/hnsw.ts) against the exact scan it replaces above
 * ANN_MIN_VECTORS: build rate, time per query and recall of the exact top 10 and top 200 (the engine's
 * candidate depth), at growing sizes.
 *
 * Vectors: real sentences embedded with the shipped model (LoCoMo turns, then MS MARCO passage
 * sentences, from ../shared/datasets; cached under --cache so a rerun skips the model), and past those,
 * synthetic rows made from them: a real vector plus a third of another and noise, renormalised (cosine
 * about 0.85 to its base), so large sizes keep the clusters and near-duplicates of real memories.
 * Queries: LoCoMo questions and MS MARCO queries, embedded as queries.
 *
 *   pnpm bench:ann [--sizes 20000,100000,1000000] [--real 20000] [--queries 300] [--cache DIR] [--json]
 *
 * Timings are of this process alone; the stack's figures are `bench:scale`'s.
 */
import { HnswGraph } from "@engram/index";
import { percentile, round } from "./lib";
import { DEFAULT_VECTOR_CACHE, grow, memoryVectors } from "./memory-vectors";

const args = process.argv.slice(2);
const arg = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : def;
};
const SIZES = arg("sizes", "20000,100000,1000000").split(",").map(Number);
const REAL = Number(arg("real", "20000"));
const QUERIES = Number(arg("queries", "300"));
const CACHE = arg("cache", DEFAULT_VECTOR_CACHE);
const JSON_OUT = args.includes("--json");
/** Construction depth (default: the engine's, HNSW_EF_CONSTRUCTION) and search depth (default: the engine's, ANN_EF_SEARCH). */
const EF_CONSTRUCTION = Number(arg("ef-construction", "0")) || undefined;
const EF_SEARCH = Number(arg("ef", "0")) || 200;
/** The engine's dense candidate depth (DEFAULT_RANKING.candidates) and the usual page. */
const DEPTHS = [10, 200];

function log(msg: string): void {
  if (!JSON_OUT) console.error(msg);
}

function exactTop(data: Float32Array, dims: number, rows: number, q: Float32Array, k: number): Int32Array {
  const sims = new Float64Array(k).fill(-Infinity);
  const ids = new Int32Array(k).fill(-1);
  for (let r = 0; r < rows; r++) {
    let s = 0;
    const o = r * dims;
    for (let i = 0; i < dims; i++) s += q[i]! * data[o + i]!;
    if (s <= sims[k - 1]!) continue;
    let j = k - 1;
    while (j > 0 && sims[j - 1]! < s) {
      sims[j] = sims[j - 1]!;
      ids[j] = ids[j - 1]!;
      j--;
    }
    sims[j] = s;
    ids[j] = r;
  }
  return ids;
}

async function main(): Promise<void> {
  const { dims, rows: real, texts, queries, queryTexts } = await memoryVectors({ real: REAL, queries: QUERIES, cache: CACHE, log });
  const nq = queryTexts.length;
  log(`${texts.length} real rows, ${nq} queries, ${dims} dimensions`);

  const results: Record<string, unknown>[] = [];
  for (const size of SIZES) {
    const data = grow(real, dims, size).rows;
    const graph = new HnswGraph(dims, EF_CONSTRUCTION);
    const t0 = performance.now();
    for (let done = false; !done;) {
      done = graph.extend(data, size, performance.now() + 1000);
      if (!done) log(`size ${size}: built ${graph.built} (${Math.round((performance.now() - t0) / 1000)} s)`);
    }
    const buildS = (performance.now() - t0) / 1000;
    const buildEvals = graph.evaluations;
    const row: Record<string, unknown> = {
      size,
      buildSeconds: round(buildS, 1),
      rowsPerSecond: Math.round(size / buildS),
      evaluationsPerRow: Math.round(buildEvals / size),
      graphMb: round(graph.bytes() / 1e6, 1),
    };
    for (const k of DEPTHS) {
      const annMs: number[] = [];
      const exactMs: number[] = [];
      let overlap = 0;
      let first = 0;
      const e0 = graph.evaluations;
      for (let qi = 0; qi < nq; qi++) {
        const q = queries.subarray(qi * dims, (qi + 1) * dims);
        let t = performance.now();
        const hits = graph.search(data, q, Math.max(k, EF_SEARCH));
        annMs.push(performance.now() - t);
        t = performance.now();
        const exact = exactTop(data, dims, size, q, k);
        exactMs.push(performance.now() - t);
        const got = new Set(Array.from(hits.rows.subarray(0, k)));
        for (const id of exact) if (got.has(id)) overlap++;
        if (hits.rows[0] === exact[0]) first++;
      }
      row[`recall@${k}`] = round(overlap / (nq * k), 4);
      row[`first@${k}`] = round(first / nq, 4);
      row[`annP50Ms@${k}`] = round(percentile(annMs, 50), 2);
      row[`annP95Ms@${k}`] = round(percentile(annMs, 95), 2);
      row[`exactP50Ms@${k}`] = round(percentile(exactMs, 50), 2);
      row[`evaluationsPerQuery@${k}`] = Math.round((graph.evaluations - e0) / nq);
    }
    results.push(row);
    log(JSON.stringify(row));
  }
  if (JSON_OUT) console.log(JSON.stringify({ real: texts.length, queries: nq, results }, null, 2));
  else {
    console.log("| rows | build s (rows/s) | graph MB | recall@10 | same first | recall@200 | ANN p50/p95 ms (ef 200) | exact scan p50 ms |");
    console.log("|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (const r of results)
      console.log(
        `| ${r.size} | ${r.buildSeconds} (${r.rowsPerSecond}) | ${r.graphMb} | ${r["recall@10"]} | ${r["first@10"]} | ${r["recall@200"]} | ${r["annP50Ms@200"]}/${r["annP95Ms@200"]} | ${r["exactP50Ms@10"]} |`,
      );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
