/**
 * Memory search over one container of many memories (issue #35: p95 ≤ 25 ms at a million memories),
 * through the all-in-one stack at its defaults, without the hours the model would take to embed a
 * million memories here: the memories are written straight through the embedded memory store, with
 * vectors from `memory-vectors.ts` (real rows embedded by the shipped model, then synthetic rows made
 * from them, recorded under the model's own id so the stack's query vectors compare with them).
 *
 * Then the stack starts on that data directory and, in order:
 *   1. the first search (the container's records and search structures load from SQLite);
 *   2. searches while the container's graph builds in the background (the dense pass scans every
 *      vector meanwhile), one client;
 *   3. the wait until the stack logs "dense graph built";
 *   4. searches with the graph, one client and 8 clients, and the process's RSS.
 * Queries: LoCoMo questions and MS MARCO queries (`--queries`), searchMode memories, default limit
 * and threshold.
 *
 *   pnpm bench:memories-scale [--memories 1000000] [--real 20000] [--queries 300] [--cache DIR] [--json FILE] [--keep DIR]
 */
import fs from "node:fs";
import { createEmbeddedMemoryStore, createMemory, loadMemoriesConfig } from "@engram/memories";
import type { MemoryRecord } from "@engram/memory-model";
import { SearchEngine, MEMORY_RANKING } from "@engram/index";
import { type EngramProcess, startEngram } from "@engram/testing";
import { benchDataDir, closedLoop, dirBytes, jsonClient, type LoadResult, machineFacts, round, rssMb, speedProbeMs } from "./lib";
import { DEFAULT_VECTOR_CACHE, grow, memoryVectors } from "./memory-vectors";

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
}
const MEMORIES = Number(arg("memories", "1000000"));
const REAL = Number(arg("real", "20000"));
const QUERIES = Number(arg("queries", "300"));
const CACHE = arg("cache", DEFAULT_VECTOR_CACHE);
const JSON_OUT = arg("json", "");
const KEEP = arg("keep", "");
const TENANT = "default";
const CONTAINER = "bench-memories-scale";
const ENV = { LOG_LEVEL: "info" };

const started = performance.now();
const progress = (msg: string) => process.stderr.write(`[memories-scale ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);

async function writeMemories(dataDir: string, texts: string[], rows: Float32Array, base: Int32Array, dims: number, model: string): Promise<void> {
  const store = createEmbeddedMemoryStore(
    { ...loadMemoriesConfig({}), ENGRAM_DATA_DIR: dataDir },
    (load) => new SearchEngine({ load, ranking: MEMORY_RANKING }),
  );
  const now = new Date().toISOString();
  const batch = 1000;
  for (let i = 0; i < MEMORIES; i += batch) {
    const records: MemoryRecord[] = [];
    const vectors = new Map<string, { vector: Float32Array; model: string }>();
    for (let j = i; j < Math.min(MEMORIES, i + batch); j++) {
      const id = `m${j.toString(36).padStart(6, "0")}`;
      records.push(createMemory({ id, tenantId: TENANT, namespace: CONTAINER, content: texts[base[j]!]!, isStatic: false, now }));
      vectors.set(id, { vector: rows.subarray(j * dims, (j + 1) * dims), model });
    }
    const outcome = await store.write({ records, vectors });
    if (outcome !== "written") throw new Error(`the store refused a batch: ${String(outcome)}`);
    if ((i / batch) % 100 === 99) progress(`wrote ${i + batch} memories`);
  }
  await store.close();
}

async function main(): Promise<void> {
  let engram: EngramProcess | undefined;
  const { dataDir, cleanUp } = benchDataDir("engram-bench-memories-", () => engram, KEEP);
  const probe: { before: number; after?: number } = { before: speedProbeMs() };
  try {
    const v = await memoryVectors({ real: REAL, queries: QUERIES, cache: CACHE, log: progress });
    const { rows, base } = grow(v.rows, v.dims, MEMORIES);
    if (!(KEEP && fs.existsSync(`${KEEP}/memories.db`))) {
      progress(`writing ${MEMORIES} memories (${v.texts.length} real, the rest synthetic)`);
      await writeMemories(dataDir, v.texts, rows, base, v.dims, v.model);
    }
    const apiKey = `bench-memories-${Date.now()}`;
    const s0 = performance.now();
    engram = await startEngram({ dataDir, apiKey, timeoutMs: 600_000, env: ENV });
    const readySeconds = (performance.now() - s0) / 1000;
    const api = jsonClient(engram.url, apiKey);
    const search = (i: number) => api("POST", "/v4/search", { q: v.queryTexts[i % v.queryTexts.length], containerTag: CONTAINER, searchMode: "memories" });
    const t1 = performance.now();
    const first = await search(0);
    if (first.status !== 200) throw new Error(`search answered ${first.status}: ${JSON.stringify(first.body).slice(0, 300)}`);
    const firstSearchSeconds = (performance.now() - t1) / 1000;
    progress(`ready ${round(readySeconds, 1)} s, first search ${round(firstSearchSeconds, 1)} s`);
    const pid = engram.child.pid!;
    const building = engram.output.some((l) => l.includes("dense graph built")) ? undefined : await closedLoop(1, Math.min(40, QUERIES), search, pid);
    if (building) progress(`while the graph builds: ${JSON.stringify(building)}`);
    const tb = performance.now();
    while (!engram.output.some((l) => l.includes("dense graph built"))) {
      if (engram.child.exitCode !== null) throw new Error("the stack exited");
      await new Promise((r) => setTimeout(r, 1000));
    }
    const builtLine = engram.output.find((l) => l.includes("dense graph built"))!;
    const graphSeconds = (JSON.parse(builtLine.slice(builtLine.indexOf("{"))) as { seconds: number }).seconds;
    progress(`graph built: ${builtLine.trim()} (waited ${round((performance.now() - tb) / 1000, 1)} s more)`);
    const failed = engram.output.find((l) => l.includes("dense graph build failed"));
    if (failed) progress(`the worker thread failed and the graph was built in slices: ${failed.trim()}`);
    await closedLoop(2, 40, search); // warm
    const one: LoadResult = await closedLoop(1, QUERIES, search, pid);
    const eight: LoadResult = await closedLoop(8, QUERIES * 2, search, pid);
    const rss = round(rssMb(pid) ?? NaN);
    api.close();
    await engram.stop("SIGTERM");
    probe.after = speedProbeMs();
    const result = {
      machine: { ...machineFacts(), speedProbeMs: probe },
      memories: MEMORIES,
      realRows: v.texts.length,
      queries: v.queryTexts.length,
      dataMb: round(dirBytes(dataDir) / 1048576),
      readySeconds: round(readySeconds, 1),
      firstSearchSeconds: round(firstSearchSeconds, 1),
      graphSeconds,
      whileBuilding: building,
      oneClient: one,
      eightClients: eight,
      rssMb: rss,
    };
    console.log(`Memory search over one container of ${MEMORIES} memories (${v.texts.length} real vectors), all-in-one defaults, ${machineFacts().cpus} cores`);
    console.log(
      `data ${result.dataMb} MB; ready ${result.readySeconds} s; first search ${result.firstSearchSeconds} s; graph built in ${graphSeconds} s; RSS ${rss} MB`,
    );
    console.log("| phase | clients | p50 ms | p95 ms | stack CPU ms/search |");
    console.log("|---|--:|--:|--:|--:|");
    if (building) console.log(`| graph building (exact scan) | 1 | ${building.p50} | ${building.p95} | ${building.serverCpuMsPerRequest} |`);
    console.log(`| graph built | 1 | ${one.p50} | ${one.p95} | ${one.serverCpuMsPerRequest} |`);
    console.log(`| graph built | 8 | ${eight.p50} | ${eight.p95} | ${eight.serverCpuMsPerRequest} |`);
    console.log(`speed probe: ${probe.before} ms before, ${probe.after} ms after`);
    if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(result, null, 2));
  } finally {
    cleanUp();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
