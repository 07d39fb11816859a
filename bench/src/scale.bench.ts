/**
 * Scale on one node (issue #22): one container of the all-in-one stack (offline default, hashing
 * embedder) grown to 1,000,000 chunks in steps, through the REST gateway like any client. At each
 * step it prints:
 *
 *   - the ingest rate of the step (documents/s and chunks/s, from the first batch sent until nothing
 *     is processing), and its ratio to the first step's (target ≥ 80 % at the last step);
 *   - hybrid, documents and memories search p50/p95 with 8 closed-loop clients (target: hybrid p95
 *     ≤ 60 ms at 1M chunks), after a warm-up;
 *   - RSS of the stack process (target ≤ 2.5 GB) and the data directory's size;
 *   - cold start: the stack stopped and started again on that data directory, seconds until ready
 *     (target ≤ 20 s), and until the first hybrid search answered.
 *
 *   pnpm bench:scale                                   # 100k, 250k, 500k, 1M chunks (~25-30 minutes here)
 *   pnpm bench:scale -- --steps 20000,50000 --requests 300 --json bench/results/scale-small.json
 *
 * Documents are ~3,600 characters of shuffled dataset sentences, taskType=superrag (chunks only; memory
 * formation has its own bench), 128-token chunks with 16 overlapping. Memories: 20,000 written once
 * through /v4/memories into their own container before the first step. Tests never assert on these
 * figures; a missed target prints MISS.
 */
import fs from "node:fs";
import { type EngramProcess, startEngram } from "@engram/testing";
import {
  batchAdd,
  sentenceCorpus,
  benchDataDir,
  dirBytes,
  closedLoop,
  jsonClient,
  type JsonClient,
  type LoadResult,
  machineFacts,
  round,
  rssMb,
  speedProbeMs,
  waitIdle,
} from "./lib";
import { datasetText } from "./quality/datasets";

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
}
const STEPS = arg("steps", "100000,250000,500000,1000000").split(",").map(Number);
const REQUESTS = Number(arg("requests", "1000"));
const WARMUP = Number(arg("warmup", "300"));
const MEMORIES = Number(arg("memories", "20000"));
const JSON_OUT = arg("json", "");
const CLIENTS = 8;
const DOC_CHARS = 3_600;
const TARGETS = { ingestRatio: 0.8, hybridP95Ms: 60, rssMb: 2560, readySeconds: 20 };
const ENV = { LOG_LEVEL: "warn", EMBEDDER: "hashing", CHUNK_MAX_TOKENS: "128", CHUNK_OVERLAP_TOKENS: "16" };

const started = performance.now();
const progress = (msg: string) => process.stderr.write(`[scale ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);
const verdict = (ok: boolean) => (ok ? "ok" : "MISS");

interface StepResult {
  chunks: number;
  documents: number;
  ingest: { seconds: number; docsPerS: number; chunksPerS: number; ratioToFirst: number };
  search: { hybrid: LoadResult; documents: LoadResult; memories: LoadResult };
  rssMb: number;
  dataDirMb: number;
  coldStart: { readySeconds: number; firstSearchSeconds: number };
}

async function main(): Promise<void> {
  const { sentences, queries } = datasetText();
  const { pick, doc } = sentenceCorpus(sentences, 7, "scale-", DOC_CHARS);
  let engram: EngramProcess | undefined;
  const { dataDir, cleanUp } = benchDataDir("engram-bench-scale-", () => engram);
  const probe: { before: number; after?: number } = { before: speedProbeMs() };
  const steps: StepResult[] = [];
  try {
    engram = await startEngram({ dataDir, timeoutMs: 120_000, env: ENV });
    const apiKey = engram.apiKey;
    let api: JsonClient = jsonClient(engram.url, apiKey);
    const countChunks = async () => (await api("POST", "/ns/bench-scale/list/chunks?limit=1", {})).body.pagination?.totalItems as number;

    progress(`memories: writing ${MEMORIES}`);
    for (let i = 0; i < MEMORIES; i += 100) {
      const memories = Array.from({ length: Math.min(100, MEMORIES - i) }, (_, j) => ({ content: `${pick()} (memory ${i + j})` }));
      const res = await api("POST", "/v4/memories", { containerTag: "bench-scale-memories", memories });
      if (res.status !== 201) throw new Error(`memories answered ${res.status}`);
    }

    let docs = 0;
    let chunks = 0;
    let perDoc = 0;
    for (const target of STEPS) {
      // How many chunks a document gives is measured on the first batch, then each step is sized to land on its target.
      const t0 = performance.now();
      const docsBefore = docs;
      if (perDoc === 0) {
        await batchAdd(
          api,
          "bench-scale",
          Array.from({ length: 600 }, (_, i) => doc(docs + i)),
          "superrag",
        );
        docs += 600;
        await waitIdle(api, progress, "first batch");
        perDoc = (await countChunks()) / docs;
        progress(`${perDoc.toFixed(2)} chunks per document`);
      }
      const more = Math.max(0, Math.round((target - docs * perDoc) / perDoc));
      progress(`step ${target}: adding ${more} documents`);
      for (let from = 0; from < more; from += 6000) {
        const n = Math.min(6000, more - from);
        await batchAdd(
          api,
          "bench-scale",
          Array.from({ length: n }, (_, i) => doc(docs + i)),
          "superrag",
        );
        docs += n;
      }
      await waitIdle(api, progress, `step ${target}`);
      const seconds = (performance.now() - t0) / 1000;
      const before = chunks;
      chunks = await countChunks();
      const docsPerS = (docs - docsBefore) / seconds;
      const ingest = {
        seconds: round(seconds, 1),
        docsPerS: round(docsPerS, 1),
        chunksPerS: round((chunks - before) / seconds, 0),
        ratioToFirst: steps.length ? round(docsPerS / steps[0]!.ingest.docsPerS, 2) : 1,
      };
      progress(`step ${target}: ${chunks} chunks, ingest ${JSON.stringify(ingest)}`);

      const q = (i: number) => queries[i % queries.length]!;
      const pid = engram.child.pid!;
      const load = async (name: string, send: (i: number) => ReturnType<JsonClient>) => {
        await closedLoop(CLIENTS, WARMUP, send);
        const r = await closedLoop(CLIENTS, REQUESTS, send, pid);
        progress(`step ${target}: ${name} ${JSON.stringify(r)}`);
        return r;
      };
      const search = {
        hybrid: await load("hybrid", (i) => api("POST", "/v4/search", { q: q(i), containerTag: "bench-scale", searchMode: "hybrid" })),
        documents: await load("documents", (i) => api("POST", "/v4/search", { q: q(i), containerTag: "bench-scale", searchMode: "documents" })),
        memories: await load("memories", (i) => api("POST", "/v4/search", { q: q(i), containerTag: "bench-scale-memories" })),
      };
      const rss = round(rssMb(pid) ?? NaN);
      api.close();
      await engram.stop("SIGTERM");
      const dataDirMb = round(dirBytes(dataDir) / 1024 / 1024);
      // Cold start on the same data directory: until ready, then until the first search over the whole container answered.
      const s0 = performance.now();
      engram = await startEngram({ dataDir, apiKey, timeoutMs: 300_000, env: ENV });
      const readySeconds = (performance.now() - s0) / 1000;
      api = jsonClient(engram.url, apiKey);
      await api("POST", "/v4/search", { q: "first search", containerTag: "bench-scale", searchMode: "hybrid" });
      const coldStart = { readySeconds: round(readySeconds, 1), firstSearchSeconds: round((performance.now() - s0) / 1000, 1) };
      steps.push({ chunks, documents: docs, ingest, search, rssMb: rss, dataDirMb, coldStart });
      progress(`step ${target}: rss ${rss} MB, data ${dataDirMb} MB, cold start ${JSON.stringify(coldStart)}`);
    }
    api.close();
    probe.after = speedProbeMs();

    console.log(`Scale, one container, all-in-one offline default (${machineFacts().cpus} cores); ${CLIENTS} clients, ${REQUESTS} requests per load`);
    console.log(
      "| chunks | docs/s (ratio to first) | hybrid p50/p95 ms | documents p50/p95 ms | memories p50/p95 ms | RSS MB | data MB | ready s | first search s |",
    );
    console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const s of steps)
      console.log(
        `| ${s.chunks} | ${s.ingest.docsPerS} (${s.ingest.ratioToFirst}) | ${s.search.hybrid.p50}/${s.search.hybrid.p95} | ${s.search.documents.p50}/${s.search.documents.p95} | ${s.search.memories.p50}/${s.search.memories.p95} | ${s.rssMb} | ${s.dataDirMb} | ${s.coldStart.readySeconds} | ${s.coldStart.firstSearchSeconds} |`,
      );
    const last = steps.at(-1)!;
    console.log(`\ntargets at the last step (${last.chunks} chunks):`);
    console.log(
      `  ingest rate ≥ ${TARGETS.ingestRatio * 100} % of the first step's: ${round(last.ingest.ratioToFirst * 100, 0)} % ${verdict(last.ingest.ratioToFirst >= TARGETS.ingestRatio)}`,
    );
    console.log(`  hybrid p95 ≤ ${TARGETS.hybridP95Ms} ms: ${last.search.hybrid.p95} ms ${verdict(last.search.hybrid.p95 <= TARGETS.hybridP95Ms)}`);
    console.log(`  RSS ≤ ${TARGETS.rssMb} MB: ${last.rssMb} MB ${verdict(last.rssMb <= TARGETS.rssMb)}`);
    console.log(
      `  ready ≤ ${TARGETS.readySeconds} s after a restart: ${last.coldStart.readySeconds} s ${verdict(last.coldStart.readySeconds <= TARGETS.readySeconds)}`,
    );
    console.log(`speed probe: ${probe.before} ms before, ${probe.after} ms after (a fixed CPU workload; compare runs made in the same machine state)`);
    if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify({ machine: { ...machineFacts(), speedProbeMs: probe }, steps, targets: TARGETS }, null, 2));
  } finally {
    cleanUp();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
