/**
 * Foundation benchmark of the all-in-one stack: start-up time, idle memory,
 * add-to-done latency (sequential and 8 concurrent clients), search sanity
 * and graceful shutdown. Talks only to 127.0.0.1; no network, no model.
 *
 *   pnpm bench
 *   pnpm bench -- --json bench/results/foundation.json
 *
 * See bench/README.md for what each figure means and how it is measured.
 */
import { percentile, prng, round } from "./lib";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiClient, startEngram, tempDataDir, type EngramProcess } from "@engram/testing";

// ---------------------------------------------------------------- settings

const COLD_STARTS = 3;
const DOCS_PER_RUN = 200;
const CONCURRENT_CLIENTS = 8;
const POLL_INTERVAL_MS = 5;
/** A document not done within this time counts as a failure. */
const DOC_TIMEOUT_MS = 30_000;
/** Bound of a whole add-to-done run. */
const RUN_TIMEOUT_MS = 180_000;
const START_TIMEOUT_MS = 60_000;
const IDLE_MS = 2_000;
const SEARCH_REPEATS = 20;
const TARGET_DOC_BYTES = 1024;

const TARGETS = {
  addP50Ms: 250,
  addP95Ms: 600,
  sigtermMs: 10_000,
  /** "within seconds" is checked as < 10 s. */
  startupMs: 10_000,
} as const;

// ---------------------------------------------------------------- helpers

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const median = (v: readonly number[]) => percentile(v, 50);

// ---------------------------------------------------------------- corpus

const WORDS = {
  adj: `ancient quiet bright narrow patient careful restless golden hollow crowded distant gentle heavy fragile
    curious stubborn silver weathered humble sudden tidy rough lonely generous brittle hidden eager modest
    crooked vivid salty frozen dusty clever honest broad faint steep muddy polished bitter rusty`.split(/\s+/),
  noun: `harbor lantern orchard river engineer library village mountain kettle garden ledger compass bridge
    teacher market window meadow violin archive sailor bakery tunnel forest merchant chimney island letter
    glacier workshop painter clock valley festival monastery carpenter observatory vineyard canal telescope
    shepherd factory lighthouse notebook cathedral blacksmith quarry ferry pasture granary museum railway
    weaver courtyard beekeeper harvest storm almanac`.split(/\s+/),
  verb: `carried repaired watched crossed measured gathered painted followed guarded remembered polished
    described opened traded borrowed mapped questioned rebuilt counted welcomed harvested sketched carved
    delivered studied explored mended recorded sheltered abandoned`.split(/\s+/),
  adv: `slowly carefully quietly eagerly rarely often patiently suddenly gladly barely loosely firmly
    openly briefly warmly neatly`.split(/\s+/),
  time: `at dawn|before the winter|after the long rain|every autumn|during the festival|late at night|
    in the spring|once a year|before the market opened|after the storm passed|on quiet Sundays`.split(/\s*\|\s*/),
  connector: `Meanwhile|Later|Even so|Because of this|Years afterwards|In the end|For a while|Still|Nevertheless|At first`.split("|"),
};

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One ~1 KB paragraph of varied prose; each document draws from its own slice of the vocabulary. */
function makeDocument(seed: number): string {
  const r = prng(seed);
  const sub = <T>(xs: readonly T[], n: number) => Array.from({ length: n }, () => pick(r, xs));
  const adj = sub(WORDS.adj, 10);
  const noun = sub(WORDS.noun, 12);
  const verb = sub(WORDS.verb, 8);
  const np = () => `the ${pick(r, adj)} ${pick(r, noun)}`;
  const templates: (() => string)[] = [
    () => `${cap(np())} ${pick(r, verb)} ${np()} ${pick(r, WORDS.time)}.`,
    () => `${pick(r, WORDS.connector)}, ${np()} ${pick(r, WORDS.adv)} ${pick(r, verb)} ${np()}.`,
    () => `Nobody knew why ${np()} had ${pick(r, verb)} ${np()}, but ${np()} ${pick(r, verb)} it ${pick(r, WORDS.time)}.`,
    () => `${cap(np())} and ${np()} ${pick(r, verb)} ${np()} ${pick(r, WORDS.adv)}.`,
    () => `It was ${pick(r, adj)} work, and ${np()} ${pick(r, verb)} ${np()} near ${np()}.`,
  ];
  let text = "";
  while (text.length < TARGET_DOC_BYTES - 60) text += (text ? " " : "") + pick(r, templates)();
  return text;
}

// ---------------------------------------------------------------- /proc

interface ProcInfo {
  pid: number;
  ppid: number;
  cmdline: string;
  rssKb: number;
  hwmKb: number;
}

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // comm (field 2) is parenthesised and may contain spaces: parse after the last ')'.
    const after = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ppid = Number(after[1]);
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return { pid, ppid, cmdline, rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") };
  } catch {
    return undefined; // gone, or not Linux
  }
}

/** The process and all its descendants (walks /proc/<pid>/stat of every process). */
function processTree(root: number): ProcInfo[] {
  let all: ProcInfo[] = [];
  try {
    all = fs
      .readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .map((d) => readProc(Number(d)))
      .filter((p): p is ProcInfo => p !== undefined);
  } catch {
    return [];
  }
  const out: ProcInfo[] = [];
  const self = all.find((p) => p.pid === root);
  if (!self) return [];
  const queue = [self];
  while (queue.length) {
    const p = queue.shift()!;
    out.push(p);
    queue.push(...all.filter((c) => c.ppid === p.pid));
  }
  return out;
}

interface MemoryReading {
  spawnedPid: number;
  /** The process actually running main.ts (deepest node process whose command line names main.ts). */
  appPid: number;
  appCmdline: string;
  appRssMb: number;
  appPeakRssMb: number;
  /** Sum over the spawned process and every descendant. */
  treeRssMb: number;
  treeProcesses: number;
}

function readMemory(spawnedPid: number): MemoryReading | undefined {
  const tree = processTree(spawnedPid);
  if (!tree.length) return undefined;
  const candidates = tree.filter((p) => p.cmdline.includes("all-in-one/src/main.ts"));
  const app = candidates[candidates.length - 1] ?? tree[0]!; // BFS order: last = deepest
  const mb = (kb: number) => round(kb / 1024, 1);
  return {
    spawnedPid,
    appPid: app.pid,
    appCmdline: app.cmdline.replace(process.cwd(), "."),
    appRssMb: mb(app.rssKb),
    appPeakRssMb: mb(app.hwmKb),
    treeRssMb: mb(tree.reduce((s, p) => s + p.rssKb, 0)),
    treeProcesses: tree.length,
  };
}

// ---------------------------------------------------------------- child bookkeeping

const live = new Set<EngramProcess>();
const dataDirs: string[] = [];

function isAlive(p: EngramProcess): boolean {
  return p.child.exitCode === null && p.child.signalCode === null;
}

/**
 * SIGKILLs every process this bench started: all descendants of this process (which also
 * covers a stack still starting, whose handle startEngram has not returned yet), plus
 * the known children in case /proc is unavailable. Synchronous: usable from 'exit'.
 */
function killAll(): void {
  const pids = new Set(
    processTree(process.pid)
      .map((p) => p.pid)
      .filter((pid) => pid !== process.pid)
      .reverse(), // deepest first
  );
  for (const p of live) if (isAlive(p) && p.child.pid !== undefined) pids.add(p.child.pid);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
  live.clear();
}

/** Kills the children and removes the temporary data dirs; synchronous and idempotent. */
function cleanup(): void {
  killAll();
  for (const d of dataDirs.splice(0)) {
    try {
      fs.rmSync(d, { recursive: true, force: true });
    } catch {
      /* best effort */
    }
  }
}

process.on("exit", cleanup);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(sig, () => {
    process.stderr.write(`\nbench: ${sig}, killing children\n`);
    cleanup();
    process.exit(130);
  });
}

async function start(dataDir?: string): Promise<{ proc: EngramProcess; wallMs: number; startupMs: number | undefined }> {
  const dir = dataDir ?? tempDataDir("engram-bench-");
  if (!dataDir) dataDirs.push(dir);
  const t0 = performance.now();
  const proc = await startEngram({ dataDir: dir, timeoutMs: START_TIMEOUT_MS });
  const wallMs = performance.now() - t0;
  live.add(proc);
  const startupMs = typeof proc.ready.startupMs === "number" ? proc.ready.startupMs : undefined;
  return { proc, wallMs, startupMs };
}

interface StopResult {
  ms: number;
  code: number | null;
  signal: string | null;
}

async function stop(proc: EngramProcess): Promise<StopResult> {
  const t0 = performance.now();
  const bound = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), TARGETS.sigtermMs + 5_000).unref());
  const r = await Promise.race([proc.stop("SIGTERM"), bound]);
  const ms = performance.now() - t0;
  if (r === "timeout") {
    for (const { pid } of processTree(proc.child.pid!).reverse()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    live.delete(proc);
    return { ms, code: null, signal: "timeout (SIGKILLed)" };
  }
  live.delete(proc);
  return { ms, code: r.code, signal: r.signal };
}

// ---------------------------------------------------------------- add-to-done

interface AddRun {
  mode: string;
  clients: number;
  docs: number;
  done: number;
  failures: number;
  failureSamples: string[];
  wallMs: number;
  throughputDocsPerS: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number; min: number; mean: number };
  addRequestMs: { p50: number; p95: number };
  pollsPerDoc: number;
  statusesSeen: Record<string, number>;
}

interface Added {
  index: number;
  id: string;
  content: string;
}

async function addRun(
  api: ReturnType<typeof apiClient>,
  namespace: string,
  contents: string[],
  clients: number,
  mode: string,
): Promise<{ run: AddRun; added: Added[] }> {
  const latencies: number[] = [];
  const addMs: number[] = [];
  const failures: string[] = [];
  const added: Added[] = [];
  const statuses: Record<string, number> = {};
  let polls = 0;
  let next = 0;
  const runDeadline = performance.now() + RUN_TIMEOUT_MS;

  const one = async (index: number) => {
    const content = contents[index]!;
    const t0 = performance.now();
    const res = await api<{ id: string; status: string }>("POST", `/ns/${namespace}/document`, {
      content,
      metadata: { bench: "foundation", index },
    });
    const tAdded = performance.now();
    addMs.push(tAdded - t0);
    if (res.status >= 300 || !res.body?.id) {
      failures.push(`#${index}: add → HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      return;
    }
    const id = res.body.id;
    added.push({ index, id, content });
    if (res.body.status === "done") {
      latencies.push(tAdded - t0);
      return;
    }
    const deadline = Math.min(t0 + DOC_TIMEOUT_MS, runDeadline);
    for (;;) {
      await sleep(POLL_INTERVAL_MS);
      const g = await api<{ system?: { status?: string; failureReason?: string } }>("GET", `/ns/${namespace}/document/${encodeURIComponent(id)}`);
      const tPoll = performance.now();
      polls++;
      const status = g.body?.system?.status ?? `http-${g.status}`;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (g.status < 300 && status === "done") {
        latencies.push(tPoll - t0);
        return;
      }
      if (status === "failed") {
        failures.push(`#${index} ${id}: failed (${g.body?.system?.failureReason ?? "no reason"})`);
        return;
      }
      if (g.status >= 300 && g.status !== 404) {
        failures.push(`#${index} ${id}: get → HTTP ${g.status} ${JSON.stringify(g.body).slice(0, 200)}`);
        return;
      }
      if (tPoll > deadline) {
        failures.push(`#${index} ${id}: not done after ${Math.round(tPoll - t0)} ms (last status ${status})`);
        return;
      }
    }
  };

  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < contents.length && performance.now() < runDeadline) {
        const i = next++;
        try {
          await one(i);
        } catch (err) {
          failures.push(`#${i}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const skipped = contents.length - next;
  if (skipped > 0) failures.push(`${skipped} documents not attempted: run exceeded ${RUN_TIMEOUT_MS} ms`);
  const failureCount = failures.length - (skipped > 0 ? 1 : 0) + skipped;

  return {
    added: added.sort((a, b) => a.index - b.index),
    run: {
      mode,
      clients,
      docs: contents.length,
      done: latencies.length,
      failures: failureCount,
      failureSamples: failures.slice(0, 5),
      wallMs: round(wallMs),
      throughputDocsPerS: round((latencies.length / wallMs) * 1000, 1),
      latencyMs: {
        min: round(Math.min(...latencies)),
        p50: round(percentile(latencies, 50)),
        p95: round(percentile(latencies, 95)),
        p99: round(percentile(latencies, 99)),
        max: round(Math.max(...latencies)),
        mean: round(latencies.reduce((s, x) => s + x, 0) / Math.max(1, latencies.length)),
      },
      addRequestMs: { p50: round(percentile(addMs, 50)), p95: round(percentile(addMs, 95)) },
      pollsPerDoc: round(polls / Math.max(1, added.length), 1),
      statusesSeen: statuses,
    },
  };
}

// ---------------------------------------------------------------- search

interface SearchCheck {
  namespace: string;
  phrase: string;
  expectedId: string;
  found: boolean;
  rank: number | null;
  results: number;
  firstMs: number;
  warmMedianMs: number;
  warmP95Ms: number;
  serverTiming: unknown;
}

async function searchCheck(api: ReturnType<typeof apiClient>, namespace: string, target: Added, repeats: number): Promise<SearchCheck> {
  const words = target.content.replace(/[.,]/g, "").split(/\s+/);
  const from = Math.floor(words.length / 2);
  const phrase = words.slice(from, from + 8).join(" ");
  const body = { q: phrase, containerTag: namespace, searchMode: "documents" };
  type R = { results?: { id: string; chunk?: string }[]; timing?: unknown; total?: number };
  const t0 = performance.now();
  const first = await api<R>("POST", "/v4/search", body);
  const firstMs = performance.now() - t0;
  if (first.status >= 300) throw new Error(`search → HTTP ${first.status} ${JSON.stringify(first.body).slice(0, 300)}`);
  const results = first.body?.results ?? [];
  const idx = results.findIndex((r) => r.id === target.id);
  const warm: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    await api("POST", "/v4/search", body);
    warm.push(performance.now() - t);
  }
  return {
    namespace,
    phrase,
    expectedId: target.id,
    found: idx >= 0,
    rank: idx >= 0 ? idx + 1 : null,
    results: results.length,
    firstMs: round(firstMs),
    warmMedianMs: round(median(warm)),
    warmP95Ms: round(percentile(warm, 95)),
    serverTiming: first.body?.timing,
  };
}

// ---------------------------------------------------------------- report

type Row = [metric: string, value: string, target: string, verdict: string];

function verdict(ok: boolean | undefined): string {
  return ok === undefined ? "" : ok ? "ok" : "MISS";
}

function table(rows: (Row | string)[]): string {
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.filter((r): r is Row => Array.isArray(r)).map((r) => (r[c] ?? "").length)));
  const line = (r: Row) =>
    r
      .map((cell, i) => (i === 1 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const total = widths.reduce((s, w) => s + w, 0) + 6;
  return rows.map((r) => (typeof r === "string" ? `\n${r}\n${"-".repeat(Math.max(total, r.length))}` : line(r))).join("\n");
}

const ms = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? "n/a" : `${round(n, 0)} ms`);

// ---------------------------------------------------------------- main

function parseArgs(argv: string[]): { json?: string } {
  const out: { json?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") continue; // `pnpm bench -- --json x` may forward the separator
    if (a === "--json") {
      out.json = argv[++i];
      if (!out.json) throw new Error("--json needs a file name");
    } else if (a.startsWith("--json=")) out.json = a.slice("--json=".length);
    else if (a === "--help" || a === "-h") {
      process.stdout.write("usage: pnpm bench [-- --json <file>]\n");
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
  const hardProblems: string[] = [];

  // 1. cold starts on fresh data dirs; the last one stays up for the workload.
  const cold: { wallMs: number; startupMs: number | undefined; sigterm?: StopResult }[] = [];
  let workload: EngramProcess | undefined;
  for (let i = 0; i < COLD_STARTS; i++) {
    const s = await start();
    log(`cold start ${i + 1}/${COLD_STARTS}: ${ms(s.wallMs)} (startupMs ${s.startupMs})`);
    const entry: (typeof cold)[number] = { wallMs: round(s.wallMs), startupMs: s.startupMs };
    cold.push(entry);
    if (i < COLD_STARTS - 1) entry.sigterm = await stop(s.proc);
    else workload = s.proc;
  }
  const proc = workload!;
  const pid = proc.child.pid!;

  // 2. idle memory
  await sleep(IDLE_MS);
  const idleMemory = readMemory(pid);
  log(`idle RSS: ${idleMemory ? `${idleMemory.appRssMb} MB (pid ${idleMemory.appPid})` : "n/a"}`);

  // 3. add-to-done
  const api = apiClient(proc.url, proc.apiKey);
  const seqDocs = Array.from({ length: DOCS_PER_RUN }, (_, i) => makeDocument(1_000 + i));
  const concDocs = Array.from({ length: DOCS_PER_RUN }, (_, i) => makeDocument(50_000 + i));
  const avgBytes = round([...seqDocs, ...concDocs].reduce((s, d) => s + Buffer.byteLength(d), 0) / (2 * DOCS_PER_RUN), 0);
  log(`adding ${DOCS_PER_RUN} documents sequentially (avg ${avgBytes} B)…`);
  const seq = await addRun(api, "bench-seq", seqDocs, 1, "sequential");
  log(`sequential: p50 ${ms(seq.run.latencyMs.p50)}, ${seq.run.throughputDocsPerS} docs/s, ${seq.run.failures} failures`);
  log(`adding ${DOCS_PER_RUN} documents with ${CONCURRENT_CLIENTS} concurrent clients…`);
  const conc = await addRun(api, "bench-conc", concDocs, CONCURRENT_CLIENTS, `${CONCURRENT_CLIENTS} concurrent`);
  log(`concurrent: p50 ${ms(conc.run.latencyMs.p50)}, ${conc.run.throughputDocsPerS} docs/s, ${conc.run.failures} failures`);
  const loadedMemory = readMemory(pid);

  // 5. search sanity
  let search: SearchCheck | undefined;
  const target = seq.added[Math.min(42, seq.added.length - 1)];
  if (target) {
    search = await searchCheck(api, "bench-seq", target, SEARCH_REPEATS);
    log(`search: found=${search.found} rank=${search.rank} first ${ms(search.firstMs)}`);
  } else hardProblems.push("no document was added, nothing to search");

  // 4. graceful shutdown of the loaded stack
  const sigterm = await stop(proc);
  log(`SIGTERM: exited in ${ms(sigterm.ms)} with code ${sigterm.code} signal ${sigterm.signal}`);

  // 1b. restart on the existing (now populated) data dir, and check the data survived
  const r = await start(proc.dataDir);
  log(`restart: ${ms(r.wallMs)} (startupMs ${r.startupMs})`);
  await sleep(IDLE_MS);
  const restartMemory = readMemory(r.proc.child.pid!);
  let searchAfterRestart: SearchCheck | undefined;
  if (target) searchAfterRestart = await searchCheck(apiClient(r.proc.url, r.proc.apiKey), "bench-seq", target, 0);
  const restartSigterm = await stop(r.proc);

  // ------------------------------------------------------------ figures
  const coldWall = cold.map((c) => c.wallMs);
  const coldStartup = cold.map((c) => c.startupMs).filter((x): x is number => x !== undefined);
  const allSigterms = [...cold.map((c) => c.sigterm).filter((s): s is StopResult => !!s), sigterm, restartSigterm];
  const cleanExit = (s: StopResult) => s.code === 0 && s.signal === null;

  for (const run of [seq.run, conc.run]) if (run.failures > 0) hardProblems.push(`${run.mode}: ${run.failures} failed documents`);
  if (search && !search.found) hardProblems.push("search sanity: document not found");
  if (searchAfterRestart && !searchAfterRestart.found) hardProblems.push("search after restart: document not found");
  for (const s of allSigterms) if (!cleanExit(s)) hardProblems.push(`SIGTERM: exit code ${s.code} signal ${s.signal}`);

  const figures = {
    machine: {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? "unknown",
      totalMemoryMb: Math.round(os.totalmem() / 2 ** 20),
    },
    settings: {
      coldStarts: COLD_STARTS,
      docsPerRun: DOCS_PER_RUN,
      avgDocBytes: avgBytes,
      concurrentClients: CONCURRENT_CLIENTS,
      pollIntervalMs: POLL_INTERVAL_MS,
      docTimeoutMs: DOC_TIMEOUT_MS,
      idleMs: IDLE_MS,
    },
    targets: TARGETS,
    startup: {
      cold: cold.map((c) => ({ wallMs: c.wallMs, startupMs: c.startupMs })),
      coldWallMs: { min: round(Math.min(...coldWall)), median: round(median(coldWall)) },
      coldStartupMs: { min: Math.min(...coldStartup), median: median(coldStartup) },
      restart: { wallMs: round(r.wallMs), startupMs: r.startupMs, docsInDataDir: seq.run.done + conc.run.done },
    },
    memory: { idle: idleMemory, afterLoad: loadedMemory, idleAfterRestart: restartMemory },
    addToDone: { sequential: seq.run, concurrent: conc.run },
    search,
    searchAfterRestart,
    shutdown: {
      loaded: { ...sigterm, ms: round(sigterm.ms) },
      idle: allSigterms.filter((s) => s !== sigterm).map((s) => ({ ...s, ms: round(s.ms) })),
    },
    problems: hardProblems,
  };

  // ------------------------------------------------------------ table
  const m = figures.machine;
  const rows: (Row | string)[] = [];
  rows.push(`Start-up (spawn → "engram ready"), ${COLD_STARTS} fresh data dirs + 1 restart`);
  rows.push([
    "cold start, wall (min / median)",
    `${ms(figures.startup.coldWallMs.min)} / ${ms(figures.startup.coldWallMs.median)}`,
    "within seconds",
    verdict(figures.startup.coldWallMs.median < TARGETS.startupMs),
  ]);
  rows.push(["cold start, each run", coldWall.map((x) => ms(x)).join(", "), "", ""]);
  rows.push(["cold start, startupMs (min / median)", `${ms(figures.startup.coldStartupMs.min)} / ${ms(figures.startup.coldStartupMs.median)}`, "", ""]);
  rows.push([
    `restart on data dir (${figures.startup.restart.docsInDataDir} docs), wall`,
    ms(r.wallMs),
    "within seconds",
    verdict(r.wallMs < TARGETS.startupMs),
  ]);
  rows.push(["restart, startupMs", ms(r.startupMs), "", ""]);
  rows.push(`Memory (VmRSS of pid ${idleMemory?.appPid ?? "?"}, the node process running main.ts)`);
  rows.push(["idle RSS (after 2 s)", idleMemory ? `${idleMemory.appRssMb} MB` : "n/a", "", ""]);
  rows.push(["  process tree RSS / processes", idleMemory ? `${idleMemory.treeRssMb} MB / ${idleMemory.treeProcesses}` : "n/a", "", ""]);
  rows.push(["RSS after 400 adds (peak VmHWM)", loadedMemory ? `${loadedMemory.appRssMb} MB (${loadedMemory.appPeakRssMb} MB)` : "n/a", "", ""]);
  rows.push(["idle RSS after restart", restartMemory ? `${restartMemory.appRssMb} MB` : "n/a", "", ""]);
  for (const run of [seq.run, conc.run]) {
    rows.push(`Add-to-done, ${run.mode} (${run.docs} docs of ~${avgBytes} B, polled every ${POLL_INTERVAL_MS} ms)`);
    rows.push(["p50", ms(run.latencyMs.p50), `≤ ${TARGETS.addP50Ms} ms`, verdict(run.latencyMs.p50 <= TARGETS.addP50Ms)]);
    rows.push(["p95", ms(run.latencyMs.p95), `≤ ${TARGETS.addP95Ms} ms`, verdict(run.latencyMs.p95 <= TARGETS.addP95Ms)]);
    rows.push(["p99", ms(run.latencyMs.p99), "", ""]);
    rows.push(["max", ms(run.latencyMs.max), "", ""]);
    rows.push(["throughput", `${run.throughputDocsPerS} docs/s`, "", ""]);
    rows.push(["add request alone (p50 / p95)", `${ms(run.addRequestMs.p50)} / ${ms(run.addRequestMs.p95)}`, "", ""]);
    rows.push(["failures", `${run.failures} / ${run.docs}`, "0", run.failures === 0 ? "ok" : "FAIL"]);
  }
  rows.push(`Search sanity (searchMode documents, 8-word phrase of document #${target?.index ?? "?"})`);
  rows.push([
    "found (rank)",
    search ? `${search.found ? "yes" : "NO"} (${search.rank ?? "-"} of ${search.results})` : "n/a",
    "found",
    search?.found ? "ok" : "FAIL",
  ]);
  rows.push(["latency, first query", ms(search?.firstMs), "", ""]);
  rows.push([`latency, warm median / p95 of ${SEARCH_REPEATS}`, search ? `${ms(search.warmMedianMs)} / ${ms(search.warmP95Ms)}` : "n/a", "", ""]);
  rows.push([
    "found after restart",
    searchAfterRestart ? (searchAfterRestart.found ? "yes" : "NO") : "n/a",
    "found",
    searchAfterRestart?.found ? "ok" : "FAIL",
  ]);
  rows.push("Graceful shutdown (SIGTERM → exit)");
  rows.push([
    "after the workload",
    `${ms(sigterm.ms)}, code ${sigterm.code}${sigterm.signal ? ` (${sigterm.signal})` : ""}`,
    `≤ ${TARGETS.sigtermMs / 1000} s, code 0`,
    cleanExit(sigterm) && sigterm.ms <= TARGETS.sigtermMs ? "ok" : "MISS",
  ]);
  const others = figures.shutdown.idle;
  rows.push([
    "other runs (max)",
    `${ms(Math.max(...others.map((s) => s.ms)))}, codes ${others.map((s) => s.code).join(",")}`,
    `≤ ${TARGETS.sigtermMs / 1000} s, code 0`,
    others.every((s) => cleanExit(s) && s.ms <= TARGETS.sigtermMs) ? "ok" : "MISS",
  ]);

  const out = [
    "",
    `Engram foundation benchmark — ${m.date}`,
    `${m.platform}, ${m.cpus} CPUs (${m.cpuModel}), ${m.totalMemoryMb} MB RAM, node ${m.node}`,
    table(rows),
    "",
    hardProblems.length ? `PROBLEMS:\n${hardProblems.map((p) => `  - ${p}`).join("\n")}` : "No failures.",
    ...[seq.run, conc.run].flatMap((run) => (run.failureSamples.length ? [`${run.mode} failure samples:`, ...run.failureSamples.map((f) => `  ${f}`)] : [])),
    "",
  ].join("\n");
  process.stdout.write(out);

  if (args.json) {
    fs.mkdirSync(path.dirname(path.resolve(args.json)), { recursive: true });
    fs.writeFileSync(args.json, `${JSON.stringify(figures, null, 2)}\n`);
    process.stdout.write(`figures written to ${args.json}\n`);
  }
  if (hardProblems.length) process.exitCode = 1;
}

(async () => {
  try {
    await main();
  } catch (err) {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  } finally {
    cleanup();
  }
})();
