/**
 * Recall speed of the all-in-one stack (offline default) through the REST
 * gateway, against issue #4's targets:
 *
 *   - /v4/search hybrid over 100,000 chunks, 8 concurrent clients: p50 ≤ 15 ms, p95 ≤ 40 ms
 *   - /v4/search memories mode over 50,000 memories, 8 clients: same targets
 *   - /v4/profile of a container with 5,000 memories: p95 ≤ 50 ms
 *   - memory formation: 1,000 conversation-style documents (taskType=memory) all done,
 *     with memories, at ≥ 50 documents/s
 *   - RSS of the all-in-one process at 100,000 chunks (reported)
 *
 *   pnpm bench:recall                         # everything (~10 minutes on 2 cores)
 *   pnpm bench:recall -- --warmup 200         # time each load after only 200 requests (see WARMUP)
 *   pnpm bench:recall -- --chunks 20000 --memories 10000 --json bench/results/recall.json
 *
 * Text comes from the two quality datasets (sentences shuffled with a seeded PRNG), queries
 * from their judged queries. Chunks are passage-sized (CHUNK_MAX_TOKENS 128, overlap 16).
 * Latency is measured in this process from send to full response; the client runs on the
 * same 2 cores as the stack. Each load also prints the CPU the stack and the client spent per
 * request (less noisy than latency on a shared machine: with 8 clients and 2 cores, p50 ≈
 * 8 × CPU per request / 2 once the cores are busy), and a floor: the same load searching an
 * empty container, i.e. the request path alone. A fixed CPU workload is timed before and after
 * the run (speedProbeMs), so runs made in different machine states can be told apart. Tests never
 * assert on these figures; a missed target prints MISS.
 */
import fs from "node:fs";
import os from "node:os";
import { type EngramProcess, startEngram } from "@engram/testing";
import { batchAdd, benchDataDir, closedLoop, jsonClient, type LoadResult, machineFacts, percentile, prng, round, rssMb, speedProbeMs, waitIdle } from "./lib";
import { datasetText } from "./quality/datasets";

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}
const jsonOut = (() => {
  const i = process.argv.indexOf("--json");
  return i > 0 ? process.argv[i + 1] : undefined;
})();

const CHUNKS = arg("chunks", 100_000);
const MEMORIES = arg("memories", 50_000);
const PROFILE_MEMORIES = arg("profile-memories", 5_000);
const FORMATION_DOCS = arg("formation-docs", 1_000);
const CLIENTS = 8;
const REQUESTS = arg("requests", 3_000);
/**
 * Requests sent before each load is timed. A server runs for hours; the first thousands of requests
 * after start run partly unoptimised code (V8 compiles hot functions as they become hot, in both the
 * stack and this client). Measured: the first 3,000 hybrid searches after a 300-request warm-up cost
 * ~25 % more stack CPU per request than the next 3,000, which cost the same as the 3,000 after them.
 */
const WARMUP = arg("warmup", 3_000);
const DOC_CHARS = 3_600;
const TARGETS = { searchP50: 15, searchP95: 40, profileP95: 50, formationDocsPerS: 50 };

const started = performance.now();
const progress = (msg: string) => process.stderr.write(`[recall ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);

const verdict = (ok: boolean) => (ok ? "ok" : "MISS");

async function main(): Promise<void> {
  const { sentences, queries } = datasetText();
  const rand = prng(42);
  const pick = () => sentences[Math.floor(rand() * sentences.length)]!;
  let engram: EngramProcess | undefined;
  const { dataDir, cleanUp } = benchDataDir("engram-bench-recall-", () => engram);
  const probe: { before: number; after?: number } = { before: speedProbeMs() };
  const out: Record<string, unknown> = {
    machine: { ...machineFacts(), speedProbeMs: probe },
    settings: {
      chunks: CHUNKS,
      memories: MEMORIES,
      profileMemories: PROFILE_MEMORIES,
      formationDocs: FORMATION_DOCS,
      clients: CLIENTS,
      requests: REQUESTS,
      warmup: WARMUP,
    },
    targets: TARGETS,
  };
  try {
    engram = await startEngram({
      dataDir,
      timeoutMs: 60_000,
      env: { LOG_LEVEL: "warn", EMBEDDER: "hashing", CHUNK_MAX_TOKENS: "128", CHUNK_OVERLAP_TOKENS: "16" },
    });
    const api = jsonClient(engram.url, engram.apiKey);
    const pid = engram.child.pid!;
    out.rssIdleMb = round(rssMb(pid) ?? NaN);

    // 1. Memory formation: conversation-style documents, taskType=memory.
    const names = ["Sarah", "Omar", "Lena", "Kenji", "Ana", "Tom", "Priya", "Max"];
    const cities = ["Seattle", "Lisbon", "Osaka", "Denver", "Nairobi", "Lyon", "Austin", "Perth"];
    const jobs = ["nurse", "teacher", "product manager", "welder", "pilot", "chef", "lawyer", "designer"];
    const hobbies = ["hiking", "chess", "pottery", "surfing", "baking", "cycling", "painting", "running"];
    const conv = (i: number) => {
      const r = prng(1000 + i);
      const p = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
      const name = p(names);
      return [
        `user: Hi, I'm ${name}. I work as a ${p(jobs)} and I live in ${p(cities)}.`,
        "assistant: Nice to meet you! How can I help today?",
        `user: I love ${p(hobbies)} and I have a ${p(["dog", "cat", "parrot"])} named ${p(["Rex", "Luna", "Kiwi", "Milo"])}.`,
        `user: Last week I started a course about ${pick()
          .split(" ")
          .slice(0, 6)
          .join(" ")
          .replace(/[^\w\s]/g, "")}.`,
        "assistant: That sounds great.",
        `user: My sister moved to ${p(cities)} last month and we are meeting next Friday.`,
      ].join("\n");
    };
    progress(`formation: ${FORMATION_DOCS} conversation documents (taskType=memory)`);
    const formDocs = Array.from({ length: FORMATION_DOCS }, (_, i) => ({ id: `conv-${i}`, content: conv(i) }));
    const tForm = performance.now();
    await batchAdd(api, "bench-formation", formDocs, "memory");
    await waitIdle(api, progress, "formation");
    const formSeconds = (performance.now() - tForm) / 1000;
    const formed = await api("POST", "/v4/memories/list", { containerTags: ["bench-formation"], limit: 1 });
    let withoutMemories = 0;
    for (let i = 0; i < FORMATION_DOCS; i += Math.max(1, Math.floor(FORMATION_DOCS / 50))) {
      const d = await api("GET", `/ns/bench-formation/document/conv-${i}?include=memories`);
      if (d.body.system?.status !== "done" || !(d.body.memories?.length > 0)) withoutMemories++;
    }
    out.formation = {
      documents: FORMATION_DOCS,
      seconds: round(formSeconds, 1),
      docsPerS: round(FORMATION_DOCS / formSeconds, 1),
      memories: formed.body.pagination?.totalItems,
      sampledWithoutMemories: withoutMemories,
    };
    progress(`formation: ${JSON.stringify(out.formation)}`);

    // 2. 100,000 chunks: superrag documents of ~3.6 KB. How many chunks a document gives depends on the
    // chunker's settings, so a first slice measures it and the rest is sized to land on the target count.
    const chunkDoc = (i: number) => {
      let text = "";
      while (text.length < DOC_CHARS) text += (text ? " " : "") + pick();
      return { id: `doc-${i}`, content: text };
    };
    const countChunks = async () => (await api("POST", "/ns/bench-chunks/list/chunks?limit=1", {})).body.pagination?.totalItems as number;
    const tChunks = performance.now();
    const firstSlice = Math.max(1, Math.min(1000, Math.ceil(CHUNKS / 100)));
    progress(`chunks: adding ${firstSlice} documents (~${DOC_CHARS} characters each) to measure chunks per document`);
    await batchAdd(
      api,
      "bench-chunks",
      Array.from({ length: firstSlice }, (_, i) => chunkDoc(i)),
      "superrag",
    );
    await waitIdle(api, progress, "chunks");
    const perDoc = (await countChunks()) / firstSlice;
    const docsNeeded = Math.max(firstSlice, Math.round(CHUNKS / perDoc));
    progress(`chunks: ${perDoc.toFixed(2)} chunks per document; adding ${docsNeeded - firstSlice} more`);
    await batchAdd(
      api,
      "bench-chunks",
      Array.from({ length: docsNeeded - firstSlice }, (_, i) => chunkDoc(firstSlice + i)),
      "superrag",
    );
    await waitIdle(api, progress, "chunks");
    const chunkCount = await countChunks();
    out.chunks = { documents: docsNeeded, chunks: chunkCount, ingestSeconds: round((performance.now() - tChunks) / 1000, 1) };
    progress(`chunks: ${JSON.stringify(out.chunks)}`);
    out.rssAfterChunksMb = round(rssMb(pid) ?? NaN);

    // 3. Memories: 50,000 written directly, plus a 5,000-memory container for profiles.
    progress(`memories: writing ${MEMORIES} + ${PROFILE_MEMORIES}`);
    const writeMemories = async (ns: string, n: number, staticShare: number) => {
      for (let i = 0; i < n; i += 100) {
        const memories = Array.from({ length: Math.min(100, n - i) }, (_, j) => ({ content: `${pick()} (${ns} ${i + j})`, isStatic: rand() < staticShare }));
        const res = await api("POST", "/v4/memories", { containerTag: ns, memories });
        if (res.status !== 201) throw new Error(`memories answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    };
    const tMem = performance.now();
    await writeMemories("bench-memories", MEMORIES, 0.2);
    await writeMemories("bench-profile", PROFILE_MEMORIES, 0.1);
    out.memoryWrites = { memories: MEMORIES + PROFILE_MEMORIES, seconds: round((performance.now() - tMem) / 1000, 1) };

    // Warm the in-memory partitions (first touch loads them from disk) before timing.
    for (const body of [
      { q: "warm up", containerTag: "bench-chunks", searchMode: "hybrid" },
      { q: "warm up", containerTag: "bench-memories" },
    ])
      await api("POST", "/v4/search", body);
    await api("POST", "/v4/profile", { containerTag: "bench-profile" });

    const q = (i: number) => queries[i % queries.length]!;
    const run = async (name: string, send: (i: number) => Promise<{ status: number; body: unknown }>): Promise<LoadResult> => {
      progress(`${name}: ${REQUESTS} requests, ${CLIENTS} clients`);
      await closedLoop(CLIENTS, WARMUP, send); // warm-up: the JIT settles before timing
      const r = await closedLoop(CLIENTS, REQUESTS, send, pid);
      progress(`${name}: ${JSON.stringify(r)}`);
      return r;
    };
    // The floor: a search with nothing to search (an empty container) through the same gateway, gRPC hop and
    // clients: what the request path costs before any retrieval work.
    const floor = await run("floor: search of an empty container", (i) => api("POST", "/v4/search", { q: q(i), containerTag: "bench-empty" }));
    const hybrid = await run("hybrid search (100k chunks)", (i) => api("POST", "/v4/search", { q: q(i), containerTag: "bench-chunks", searchMode: "hybrid" }));
    const documents = await run("documents search (100k chunks)", (i) =>
      api("POST", "/v4/search", { q: q(i), containerTag: "bench-chunks", searchMode: "documents" }),
    );
    const memories = await run("memories search (50k memories)", (i) => api("POST", "/v4/search", { q: q(i), containerTag: "bench-memories" }));
    const profile = await run("profile (5,000 memories)", () => api("POST", "/v4/profile", { containerTag: "bench-profile" }));
    const profileQ = await run("profile with q (5,000 memories)", (i) => api("POST", "/v4/profile", { containerTag: "bench-profile", q: q(i) }));
    const sequential: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      await api("POST", "/v4/search", { q: q(i), containerTag: "bench-chunks", searchMode: "hybrid" });
      sequential.push(performance.now() - t);
    }
    out.search = {
      floor,
      hybrid,
      documents,
      memories,
      profile,
      profileWithQuery: profileQ,
      hybridSequential: { p50: round(percentile(sequential, 50), 2), p95: round(percentile(sequential, 95), 2) },
    };
    out.rssAtEndMb = round(rssMb(pid) ?? NaN);
    api.close();
    probe.after = speedProbeMs();

    const f = out.formation as { docsPerS: number; sampledWithoutMemories: number };
    console.log(`\nEngram recall bench — ${os.cpus().length} cores, node ${process.version}, offline default (hashing embedder, offline language components)`);
    console.log(`machine speed probe (a fixed CPU workload; lower is faster): ${probe.before} ms before the run, ${probe.after} ms after`);
    console.log(`chunks: ${JSON.stringify(out.chunks)}; memories written: ${JSON.stringify(out.memoryWrites)}`);
    const row = (label: string, r: LoadResult, p50?: number, p95?: number) =>
      console.log(
        `${label.padEnd(40)} p50 ${String(r.p50).padStart(7)} ms  p95 ${String(r.p95).padStart(7)} ms  p99 ${String(r.p99).padStart(7)} ms  ${String(r.rps).padStart(5)} req/s  errors ${r.errors}` +
          `  CPU/request: stack ${r.serverCpuMsPerRequest ?? "?"} ms, client ${r.clientCpuMsPerRequest} ms` +
          (p50 !== undefined ? `  [p50 ≤ ${p50}: ${verdict(r.p50 <= p50)}]` : "") +
          (p95 !== undefined ? `  [p95 ≤ ${p95}: ${verdict(r.p95 <= p95)}]` : ""),
      );
    row("/v4/search, empty container (floor)", floor);
    row(`/v4/search hybrid, ${chunkCount} chunks`, hybrid, TARGETS.searchP50, TARGETS.searchP95);
    row(`/v4/search documents, ${chunkCount} chunks`, documents);
    row(`/v4/search memories, ${MEMORIES} memories`, memories, TARGETS.searchP50, TARGETS.searchP95);
    row(`/v4/profile, ${PROFILE_MEMORIES} memories`, profile, undefined, TARGETS.profileP95);
    row(`/v4/profile + q, ${PROFILE_MEMORIES} memories`, profileQ, undefined, TARGETS.profileP95);
    console.log(`hybrid, 1 client: p50 ${(out.search as { hybridSequential: { p50: number } }).hybridSequential.p50} ms`);
    console.log(
      `formation: ${FORMATION_DOCS} conversation documents done with memories in ${(out.formation as { seconds: number }).seconds} s = ${f.docsPerS} docs/s [≥ ${TARGETS.formationDocsPerS}: ${verdict(f.docsPerS >= TARGETS.formationDocsPerS && f.sampledWithoutMemories === 0)}] (${(out.formation as { memories: number }).memories} memories; sampled documents without memories: ${f.sampledWithoutMemories})`,
    );
    console.log(`RSS: idle ${out.rssIdleMb} MB, at ${chunkCount} chunks ${out.rssAfterChunksMb} MB, at the end ${out.rssAtEndMb} MB`);
    if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(out, null, 2) + "\n");
  } finally {
    if (engram) await engram.stop("SIGTERM").catch(() => undefined);
    cleanUp();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
