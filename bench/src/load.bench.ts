/**
 * Load on the all-in-one stack at its default settings (issue #14, hardening), through the REST
 * gateway, from this process. Only 127.0.0.1 is contacted. Two phases on one stack:
 *
 *   A. Mixed load: `--clients` (50) closed-loop clients for `--seconds` (60) s, each request drawn
 *      with a seeded PRNG from a mix of 70 % search (/v4/search in its default mode, hybrid and
 *      documents; /v3/search), 15 % add (/v3/documents, /ns/{ns}/document; texts of 100 B to 12 KB)
 *      and 15 % get (/v3/documents/{id}, /ns/{ns}/document/{id} of documents added earlier), over
 *      several tenants (API keys) with the same container tags. Prints throughput and p50/p95/p99
 *      per operation, errors by status, RSS of the stack at start/peak/end, and whether the
 *      pipeline drained afterwards (backlog at the end, time to drain, final state of every document).
 *   B. The target "search p95 under 8 concurrent clients ≤ 40 ms while 20 adds per second are
 *      processed": `--search-clients` (8) closed-loop search clients for `--seconds` while an
 *      open-loop adder submits `--add-rate` (20) documents/s of 1–3 KB on a fixed schedule; the
 *      processed rate comes from the processing list, polled every second. Before it, the same
 *      search clients run `--baseline-seconds` (20) without adds. Ends with a verdict line.
 *
 * Other options: --a-seconds / --b-seconds (per phase), --tenants 4, --containers 3, --seed-docs 30
 * (per container), --drain-seconds 120, --warmup 1000, --seed 42, --log-level warn.
 *
 *   pnpm bench:load                           # both phases, 60 s each (~3 minutes on 2 cores)
 *   pnpm bench:load -- --seconds 10           # a smoke run
 *   pnpm bench:load -- --phase b --b-seconds 120 --add-rate 30 --json /tmp/load.json
 *
 * The stack is started as the other benches start it (startEngram, a fresh data dir, LOG_LEVEL
 * warn); nothing else is set, so search modes, thresholds, limits and taskType are the defaults.
 * A fixed CPU workload (speedProbeMs) is timed before and after each phase. Figures are written
 * as JSON to bench/results/load.json (`--json FILE`). A missed target prints MISS; the exit code
 * is 1 only when the bench could not run (the stack failed to start or died, seeding failed).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type EngramProcess, REPO_ROOT, startEngram, tempDataDir } from "@engram/testing";
import { cpuMs, jsonClient, type JsonClient, type JsonResponse, machineFacts, percentile, prng, round, rssMb, sourceState, speedProbeMs } from "./lib";
import { datasetText } from "./quality/datasets";

// ---------------------------------------------------------------------------------------------
// Options

function opt(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
function num(name: string, def: number): number {
  const v = opt(name);
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} wants a number, got ${v}`);
  return n;
}

const SECONDS = num("seconds", 60);
const A_SECONDS = num("a-seconds", SECONDS);
const B_SECONDS = num("b-seconds", SECONDS);
const CLIENTS = Math.max(1, Math.floor(num("clients", 50)));
const SEARCH_CLIENTS = Math.max(1, Math.floor(num("search-clients", 8)));
const ADD_RATE = num("add-rate", 20);
const TENANTS = Math.min(8, Math.max(1, Math.floor(num("tenants", 4))));
const CONTAINERS = Math.min(6, Math.max(1, Math.floor(num("containers", 3))));
const SEED_DOCS = Math.floor(num("seed-docs", 30)); // per tenant and container
const DRAIN_SECONDS = num("drain-seconds", 120);
const WARMUP = Math.floor(num("warmup", 1_000)); // search requests before phase B, not timed
const BASELINE_SECONDS = num("baseline-seconds", 20); // phase B's searches alone, before it (0: skip)
const SEED = Math.floor(num("seed", 42));
const PHASE = (opt("phase") ?? "both").toLowerCase();
const LOG_LEVEL = opt("log-level") ?? "warn";
const JSON_OUT = path.resolve(REPO_ROOT, opt("json") ?? "bench/results/load.json");
if (!["a", "b", "both"].includes(PHASE)) throw new Error("--phase wants a, b or both");
const RUN_A = PHASE !== "b";
const RUN_B = PHASE !== "a";

const TARGETS = { searchP95Ms: 40, addsPerS: ADD_RATE, errors: 0 };
/** Limits that bound every loop besides its clock. */
const MAX_REQUESTS_PER_S = 20_000;
const MAX_IN_FLIGHT_ADDS = 200;
const CENSUS_PAGE = 1_100;
const CENSUS_MAX_PAGES = 200;
/** The whole run: start-up, seeding, both phases, both drains, plus margin. Past this the stack is killed. */
const HARD_LIMIT_MS = (120 + A_SECONDS + B_SECONDS + BASELINE_SECONDS + 2 * DRAIN_SECONDS + 240) * 1000;

const started = performance.now();
const progress = (msg: string) => process.stderr.write(`[load ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const verdict = (ok: boolean) => (ok ? "ok" : "MISS");

// ---------------------------------------------------------------------------------------------
// Text: sentences and judged queries of the two quality datasets, conversation-style documents.

const NAMES = ["Sarah", "Omar", "Lena", "Kenji", "Ana", "Tom", "Priya", "Max", "Ines", "Yusuf", "Mia", "Carlos"];
const CITIES = ["Seattle", "Lisbon", "Osaka", "Denver", "Nairobi", "Lyon", "Austin", "Perth", "Oslo", "Quito"];
const JOBS = ["nurse", "teacher", "product manager", "welder", "pilot", "chef", "lawyer", "designer", "data engineer"];
const HOBBIES = ["hiking", "chess", "pottery", "surfing", "baking", "cycling", "painting", "running", "climbing"];
const PETS = ["dog", "cat", "parrot", "rabbit"];
const PET_NAMES = ["Rex", "Luna", "Kiwi", "Milo", "Nala", "Bruno"];
const CONTAINER_NAMES = ["user_alice", "user_bob", "team_ops", "user_carol", "team_sales", "project_x"];

interface Text {
  sentences: string[];
  queries: string[];
}

const pickOf =
  (rand: () => number) =>
  <T>(xs: readonly T[]): T =>
    xs[Math.floor(rand() * xs.length)]!;

/** Prose of about `chars` characters: dataset sentences, paragraphs of 3–6 sentences. */
function prose(text: Text, rand: () => number, chars: number): string {
  const pick = pickOf(rand);
  const paragraphs: string[] = [];
  let length = 0;
  while (length < chars) {
    const n = 3 + Math.floor(rand() * 4);
    const p: string[] = [];
    for (let i = 0; i < n && length < chars; i++) {
      const s = pick(text.sentences);
      p.push(s);
      length += s.length + 1;
    }
    paragraphs.push(p.join(" "));
  }
  return paragraphs.join("\n\n");
}

/** A conversation of at least `chars` characters with facts about one person. */
function chat(text: Text, rand: () => number, chars: number): string {
  const pick = pickOf(rand);
  const name = pick(NAMES);
  const lines = [`user: Hi, I'm ${name}. I work as a ${pick(JOBS)} and I live in ${pick(CITIES)}.`, "assistant: Nice to meet you! How can I help today?"];
  const more = [
    () => `user: I love ${pick(HOBBIES)} and I have a ${pick(PETS)} named ${pick(PET_NAMES)}.`,
    () => `user: My sister moved to ${pick(CITIES)} last month and we are meeting next Friday.`,
    () => `user: Can you explain this to me? ${pick(text.sentences)}`,
    () => `assistant: ${pick(text.sentences)} ${pick(text.sentences)}`,
    () => `user: Last week I started a course about ${pick(HOBBIES)} and it is going well.`,
  ];
  let length = lines.join("\n").length;
  while (length < chars) {
    const line = pick(more)();
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n");
}

/** Phase A's documents: 35 % chats of 100 B–1.5 KB, 40 % prose of 0.5–3 KB, 25 % prose of 3–12 KB. */
function mixedDocument(text: Text, rand: () => number): { content: string; kind: string } {
  const r = rand();
  if (r < 0.35) return { content: chat(text, rand, 100 + rand() * 1_400), kind: "chat" };
  if (r < 0.75) return { content: prose(text, rand, 500 + rand() * 2_500), kind: "note" };
  return { content: prose(text, rand, 3_000 + rand() * 9_000), kind: "article" };
}

/** Phase B's documents: 1–3 KB, three in ten conversations. */
function paceDocument(text: Text, rand: () => number): { content: string; kind: string } {
  const chars = 1_000 + rand() * 2_000;
  return rand() < 0.3 ? { content: chat(text, rand, chars), kind: "chat" } : { content: prose(text, rand, chars), kind: "note" };
}

function query(text: Text, rand: () => number): string {
  const pick = pickOf(rand);
  if (rand() < 0.8) return pick(text.queries);
  const name = pick(NAMES);
  return pick([`where does ${name} live?`, `what pet does ${name} have?`, `who works as a ${pick(JOBS)}?`, `who likes ${pick(HOBBIES)}?`]);
}

// ---------------------------------------------------------------------------------------------
// Tenants, documents the bench added, statistics

interface Tenant {
  index: number;
  name: string;
  key: string;
}

interface Doc {
  tenant: number;
  ns: string;
  /** Service id (v3 add answers it). */
  serviceId?: string;
  /** Caller's id (v5 `id`, v3 `customId`). */
  customId?: string;
  content: string;
}

class Registry {
  readonly byTenant: Doc[][];
  /** Accepted documents per "tenant/ns". */
  readonly accepted = new Map<string, number>();
  constructor(tenants: number) {
    this.byTenant = Array.from({ length: tenants }, () => []);
  }
  add(d: Doc): void {
    this.byTenant[d.tenant]!.push(d);
    const k = `${d.tenant}/${d.ns}`;
    this.accepted.set(k, (this.accepted.get(k) ?? 0) + 1);
  }
  /** A document of the tenant: half the time one of the 20 newest (often still processing), else any. */
  pick(tenant: number, rand: () => number): Doc | undefined {
    const docs = this.byTenant[tenant]!;
    if (docs.length === 0) return undefined;
    if (rand() < 0.5) return docs[docs.length - 1 - Math.floor(rand() * Math.min(20, docs.length))]!;
    return docs[Math.floor(rand() * docs.length)]!;
  }
  get total(): number {
    return this.byTenant.reduce((n, d) => n + d.length, 0);
  }
}

interface OpFigures {
  requests: number;
  ok: number;
  reqPerS: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: Record<string, number>;
}

/** Latencies and outcomes per operation; any status outside 2xx and any network error is an error. */
class Stats {
  readonly lat = new Map<string, number[]>();
  readonly errors = new Map<string, Map<string, number>>();
  readonly samples: string[] = [];
  /** Answers that were 2xx but wrong (a get whose content differs, a search result of another tenant). */
  readonly wrong: string[] = [];
  wrongCount = 0;
  leakChecked = 0;

  record(op: string, ms: number, res: JsonResponse): void {
    let l = this.lat.get(op);
    if (!l) this.lat.set(op, (l = []));
    l.push(ms);
    if (res.status >= 200 && res.status < 300) return;
    const key = res.status === 0 ? `network ${String(res.body)}` : String(res.status);
    let e = this.errors.get(op);
    if (!e) this.errors.set(op, (e = new Map()));
    e.set(key, (e.get(key) ?? 0) + 1);
    if (this.samples.length < 10) this.samples.push(`${op}: ${key} ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  markWrong(what: string): void {
    this.wrongCount++;
    if (this.wrong.length < 10) this.wrong.push(what);
  }
  errorCount(prefix = ""): number {
    let n = 0;
    for (const [op, e] of this.errors) if (op.startsWith(prefix)) for (const c of e.values()) n += c;
    return n;
  }
  errorsByStatus(prefix = ""): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [op, e] of this.errors) if (op.startsWith(prefix)) for (const [k, c] of e) out[k] = (out[k] ?? 0) + c;
    return out;
  }
  figures(prefix: string, seconds: number): OpFigures {
    const all: number[] = [];
    for (const [op, l] of this.lat) if (op.startsWith(prefix)) for (const x of l) all.push(x);
    const errors = this.errorsByStatus(prefix);
    const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
    let max = 0;
    for (const x of all) max = Math.max(max, x);
    return {
      requests: all.length,
      ok: all.length - errorCount,
      reqPerS: round(all.length / seconds, 1),
      p50: round(percentile(all, 50), 2),
      p95: round(percentile(all, 95), 2),
      p99: round(percentile(all, 99), 2),
      max: round(max, 1),
      errors,
    };
  }
  ops(): string[] {
    return [...this.lat.keys()].sort();
  }
}

async function timed(stats: Stats, op: string, send: () => Promise<JsonResponse>): Promise<JsonResponse> {
  const t = performance.now();
  let res: JsonResponse;
  try {
    res = await send();
  } catch (err) {
    res = { status: 0, body: (err as NodeJS.ErrnoException).code ?? String(err) };
  }
  stats.record(op, performance.now() - t, res);
  return res;
}

// ---------------------------------------------------------------------------------------------
// The operations

type Op = "search v4 default" | "search v4 hybrid" | "search v4 documents" | "search v3" | "add v3" | "add v5" | "get v3" | "get v5";

/** Phase A's mix (weights in percent). */
const MIX: readonly [Op, number][] = [
  ["search v4 default", 35],
  ["search v4 hybrid", 15],
  ["search v4 documents", 10],
  ["search v3", 10],
  ["add v3", 7.5],
  ["add v5", 7.5],
  ["get v3", 7.5],
  ["get v5", 7.5],
];
const SEARCH_MIX = MIX.filter(([op]) => op.startsWith("search"));

function drawer(mix: readonly [Op, number][]): (rand: () => number) => Op {
  const total = mix.reduce((n, [, w]) => n + w, 0);
  return (rand) => {
    let r = rand() * total;
    for (const [op, w] of mix) if ((r -= w) < 0) return op;
    return mix[mix.length - 1]![0];
  };
}

interface World {
  text: Text;
  tenants: Tenant[];
  containers: string[];
  /** One client (keep-alive agent) per tenant for the measured requests. */
  api: JsonClient[];
  docs: Registry;
  stats: Stats;
  /** Ids of added documents, unique per run. */
  nextId: number;
}

/** Results whose metadata names another tenant: a cross-tenant leak. Every document the bench adds carries metadata.tenant. */
function checkTenant(w: World, tenant: number, op: string, results: unknown): void {
  if (!Array.isArray(results)) return;
  for (const r of results as { metadata?: { tenant?: unknown } | null }[]) {
    const owner = r?.metadata?.tenant;
    if (owner === undefined) continue;
    w.stats.leakChecked++;
    if (owner !== w.tenants[tenant]!.name) w.stats.markWrong(`${op} for ${w.tenants[tenant]!.name} returned a result of ${String(owner)}`);
  }
}

async function search(w: World, op: Op, tenant: number, rand: () => number): Promise<void> {
  const api = w.api[tenant]!;
  const q = query(w.text, rand);
  const containerTag = pickOf(rand)(w.containers);
  const body =
    op === "search v3"
      ? { q, containerTag }
      : op === "search v4 hybrid"
        ? { q, containerTag, searchMode: "hybrid" }
        : op === "search v4 documents"
          ? { q, containerTag, searchMode: "documents" }
          : { q, containerTag };
  const res = await timed(w.stats, op, () => api("POST", op === "search v3" ? "/v3/search" : "/v4/search", body));
  if (res.status === 200) checkTenant(w, tenant, op, res.body?.results);
}

async function add(
  w: World,
  stats: Stats,
  api: JsonClient,
  op: "add v3" | "add v5",
  tenant: number,
  ns: string,
  d: { content: string; kind: string },
): Promise<boolean> {
  const n = w.nextId++;
  const metadata = { tenant: w.tenants[tenant]!.name, bench: "load", kind: d.kind };
  if (op === "add v5") {
    const customId = `v5-${tenant}-${n}`;
    const res = await timed(stats, op, () => api("POST", `/ns/${ns}/document`, { id: customId, content: d.content, metadata }));
    if (res.status !== 200) return false;
    w.docs.add({ tenant, ns, customId, content: d.content });
    return true;
  }
  const customId = n % 2 === 0 ? `v3-${tenant}-${n}` : undefined; // half with a caller's id, half without
  const res = await timed(stats, op, () => api("POST", "/v3/documents", { content: d.content, containerTag: ns, metadata, ...(customId ? { customId } : {}) }));
  if (res.status !== 200) return false;
  w.docs.add({ tenant, ns, serviceId: res.body?.id, customId, content: d.content });
  return true;
}

async function get(w: World, op: "get v3" | "get v5", tenant: number, rand: () => number): Promise<void> {
  const d = w.docs.pick(tenant, rand);
  if (!d) return;
  const api = w.api[tenant]!;
  const res =
    op === "get v3"
      ? await timed(w.stats, op, () => api("GET", `/v3/documents/${encodeURIComponent(d.serviceId ?? d.customId!)}`))
      : await timed(w.stats, op, () => api("GET", `/ns/${d.ns}/document/${encodeURIComponent(d.customId ?? d.serviceId!)}`));
  if (res.status === 200 && res.body?.content !== d.content)
    w.stats.markWrong(`${op} ${d.customId ?? d.serviceId}: content differs (${String(res.body?.content).length} characters, added ${d.content.length})`);
}

// ---------------------------------------------------------------------------------------------
// The stack: liveness, RSS, CPU, the pipeline's backlog

class StackWatch {
  constructor(
    readonly engram: EngramProcess,
    readonly tenantsApi: JsonClient[],
  ) {}
  get pid(): number {
    return this.engram.child.pid!;
  }
  get dead(): boolean {
    return this.engram.child.exitCode !== null || this.engram.child.signalCode !== null;
  }
  assertAlive(): void {
    if (this.dead)
      throw new Error(
        `the stack exited (code ${this.engram.child.exitCode}, signal ${this.engram.child.signalCode}):\n${this.engram.output.slice(-30).join("\n")}`,
      );
  }
  rss(): number {
    return round(rssMb(this.pid) ?? NaN);
  }
  /** Documents of every tenant not in a final state (the processing list's totalCount, summed), or undefined when a list failed. */
  async backlog(): Promise<number | undefined> {
    const counts = await Promise.all(
      this.tenantsApi.map((api) =>
        api("GET", "/v3/documents/processing").then(
          (r) => (r.status === 200 && typeof r.body?.totalCount === "number" ? (r.body.totalCount as number) : undefined),
          () => undefined,
        ),
      ),
    );
    return counts.some((c) => c === undefined) ? undefined : counts.reduce((a, b) => a! + b!, 0);
  }
  /** Waits until no document is left in a non-final state, up to `seconds`; returns the wait in s and what was left. */
  async drain(seconds: number, what: string): Promise<{ drained: boolean; seconds: number; left: number | undefined }> {
    const t0 = performance.now();
    let last = t0;
    let left: number | undefined;
    for (let i = 0; i < seconds * 10 + 10; i++) {
      this.assertAlive();
      left = await this.backlog();
      if (left === 0) return { drained: true, seconds: round((performance.now() - t0) / 1000, 1), left };
      if (performance.now() - t0 > seconds * 1000) break;
      if (performance.now() - last > 10_000) {
        progress(`${what}: ${left ?? "?"} documents still processing`);
        last = performance.now();
      }
      await sleep(250);
    }
    return { drained: false, seconds: round((performance.now() - t0) / 1000, 1), left };
  }
  /** Log lines at warn (40) or above the stack wrote from `from` on. */
  problems(from: number): { count: number; samples: string[] } {
    const lines = this.engram.output.slice(from).filter((l) => /"level":(4|5|6)0/.test(l));
    const distinct = new Map<string, string>();
    for (const l of lines) {
      let key = l.slice(0, 120);
      try {
        const j = JSON.parse(l) as { msg?: string; err?: { message?: string } };
        key = `${j.msg ?? ""} ${j.err?.message ?? ""}`.trim();
      } catch {
        /* not JSON */
      }
      if (!distinct.has(key)) distinct.set(key, l.slice(0, 400));
    }
    return { count: lines.length, samples: [...distinct.values()].slice(0, 5) };
  }
}

/** CPU time all processes of the machine used so far (user + nice + system + irq + softirq + steal), in ms (Linux /proc/stat). */
function machineBusyMs(): number | undefined {
  try {
    const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f;
    return ((user + nice + system + irq + softirq + steal) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** Bytes a process caused to be written to / read from storage so far (Linux /proc/<pid>/io), in MB. */
function ioMb(pid: number): { write: number; read: number } | undefined {
  try {
    const t = fs.readFileSync(`/proc/${pid}/io`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, "m").exec(t)?.[1] ?? NaN) / 1048576;
    return { write: field("write_bytes"), read: field("read_bytes") };
  } catch {
    return undefined;
  }
}

/**
 * Where the machine's CPU went during a phase: the stack, this bench process, and everything else (other
 * work sharing the machine, which a shared 2-core box often has), in cores (CPU seconds per second).
 */
function cpuSplit(watch: StackWatch) {
  const t0 = performance.now();
  const stack0 = cpuMs(watch.pid);
  const bench0 = process.cpuUsage();
  const machine0 = machineBusyMs();
  const io0 = ioMb(watch.pid);
  return {
    stop: () => {
      const s = (performance.now() - t0) / 1000;
      const stack1 = cpuMs(watch.pid);
      const b = process.cpuUsage(bench0);
      const benchMs = (b.user + b.system) / 1000;
      const machine1 = machineBusyMs();
      const stackMs = stack0 !== undefined && stack1 !== undefined ? stack1 - stack0 : NaN;
      const machineMs = machine0 !== undefined && machine1 !== undefined ? machine1 - machine0 : NaN;
      const io1 = ioMb(watch.pid);
      return {
        stackDiskWriteMb: io0 && io1 ? round(io1.write - io0.write, 1) : undefined,
        stackDiskReadMb: io0 && io1 ? round(io1.read - io0.read, 1) : undefined,
        stackMs,
        benchMs,
        stackCores: round(stackMs / 1000 / s, 2),
        benchCores: round(benchMs / 1000 / s, 2),
        otherCores: round(Math.max(0, machineMs - stackMs - benchMs) / 1000 / s, 2),
        machineCores: os.cpus().length,
      };
    },
  };
}

/** RSS sampled every 250 ms while a phase runs (its peak), and kept every 5 s (the series in the JSON). */
function rssSampler(watch: StackWatch) {
  const t0 = performance.now();
  const start = watch.rss();
  let peak = start;
  const series: { s: number; mb: number }[] = [{ s: 0, mb: start }];
  let ticks = 0;
  const timer = setInterval(() => {
    const r = rssMb(watch.pid);
    if (r === undefined) return;
    peak = Math.max(peak, r);
    if (++ticks % 20 === 0) series.push({ s: round((performance.now() - t0) / 1000, 1), mb: round(r) });
  }, 250);
  return {
    stop: () => {
      clearInterval(timer);
      const end = watch.rss();
      series.push({ s: round((performance.now() - t0) / 1000, 1), mb: end });
      return { startMb: start, peakMb: round(Math.max(peak, end)), endMb: end, series };
    },
  };
}

/** Every document the bench added, by final state, from the v5 lists of each tenant's containers. */
async function census(w: World, listApi: JsonClient[]): Promise<{ listed: number; accepted: number; byStatus: Record<string, number>; missing: number }> {
  const byStatus: Record<string, number> = {};
  let listed = 0;
  let missing = 0;
  for (const t of w.tenants)
    for (const ns of w.containers) {
      let inNs = 0;
      for (let page = 1; page <= CENSUS_MAX_PAGES; page++) {
        const res = await listApi[t.index]!("POST", `/ns/${ns}/list/documents?limit=${CENSUS_PAGE}&page=${page}`, {});
        if (res.status !== 200) throw new Error(`list of ${t.name}/${ns} answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        const docs = res.body.documents as { system?: { status?: string } }[];
        for (const d of docs) {
          const s = d.system?.status ?? "?";
          byStatus[s] = (byStatus[s] ?? 0) + 1;
        }
        inNs += docs.length;
        if (docs.length < CENSUS_PAGE) break;
      }
      listed += inNs;
      missing += Math.max(0, (w.docs.accepted.get(`${t.index}/${ns}`) ?? 0) - inNs);
    }
  return { listed, accepted: w.docs.total, byStatus, missing };
}

// ---------------------------------------------------------------------------------------------
// Seeding

async function seed(w: World, watch: StackWatch): Promise<{ documents: number; seconds: number }> {
  const t0 = performance.now();
  const rand = prng(SEED);
  await Promise.all(
    w.tenants.map(async (t) => {
      for (const ns of w.containers) {
        const documents: { id: string; content: string; metadata: Record<string, string> }[] = [];
        const docs: Doc[] = [];
        for (let i = 0; i < SEED_DOCS; i++) {
          const d = mixedDocument(w.text, rand);
          const id = `seed-${t.index}-${ns}-${i}`;
          documents.push({ id, content: d.content, metadata: { tenant: t.name, bench: "load", kind: d.kind } });
          docs.push({ tenant: t.index, ns, customId: id, content: d.content });
        }
        if (documents.length === 0) continue;
        const res = await w.api[t.index]!("POST", `/ns/${ns}/document/batch`, { documents });
        if (res.status !== 200 || res.body.failed) throw new Error(`seed batch answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        for (const d of docs) w.docs.add(d);
      }
    }),
  );
  const drained = await watch.drain(Math.max(60, DRAIN_SECONDS), "seed");
  if (!drained.drained) throw new Error(`the seed documents were not processed within ${Math.max(60, DRAIN_SECONDS)} s (${drained.left} left)`);
  return { documents: w.docs.total, seconds: round((performance.now() - t0) / 1000, 1) };
}

// ---------------------------------------------------------------------------------------------
// Phase A

async function phaseA(w: World, watch: StackWatch, monitorApi: JsonClient[]) {
  const probeBefore = speedProbeMs();
  const logFrom = watch.engram.output.length;
  const docsBefore = w.docs.total;
  const rss = rssSampler(watch);
  const draw = drawer(MIX);
  const cpu = cpuSplit(watch);
  progress(`phase A: ${CLIENTS} clients for ${A_SECONDS} s (search 70 %, add 15 %, get 15 %), ${TENANTS} tenants × ${CONTAINERS} containers`);

  // The backlog every 2 s (outside the mix and its figures).
  const backlogs: { s: number; backlog: number }[] = [];
  const t0 = performance.now();
  const deadline = t0 + A_SECONDS * 1000;
  let monitoring = true;
  const monitor = (async () => {
    while (monitoring && performance.now() < deadline + 1_000) {
      const b = await watch.backlog();
      if (b !== undefined) backlogs.push({ s: round((performance.now() - t0) / 1000, 1), backlog: b });
      await sleep(2_000);
    }
  })();

  let sent = 0;
  const maxRequests = Math.ceil(A_SECONDS * MAX_REQUESTS_PER_S);
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      const rand = prng(SEED * 1_000 + c);
      const tenant = c % TENANTS;
      while (performance.now() < deadline && sent < maxRequests && !watch.dead) {
        sent++;
        const op = draw(rand);
        if (op.startsWith("search")) await search(w, op, tenant, rand);
        else if (op === "add v3" || op === "add v5") await add(w, w.stats, w.api[tenant]!, op, tenant, pickOf(rand)(w.containers), mixedDocument(w.text, rand));
        else await get(w, op as "get v3" | "get v5", tenant, rand);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpuFig = cpu.stop();
  monitoring = false;
  await monitor;
  watch.assertAlive();
  const backlogAtEnd = await watch.backlog();
  const rssFig = rss.stop();
  progress(`phase A: ${sent} requests in ${seconds.toFixed(1)} s; backlog ${backlogAtEnd ?? "?"}; draining (up to ${DRAIN_SECONDS} s)`);
  const drain = await watch.drain(DRAIN_SECONDS, "phase A drain");
  const rssAfterDrain = watch.rss();
  const states = await census(w, monitorApi);
  // Isolation: documents of the first tenant asked for by the next one must be 404.
  let isolationProbes = 0;
  let isolationOk = 0;
  if (TENANTS > 1)
    for (const d of w.docs.byTenant[0]!.filter((x) => x.customId).slice(-20)) {
      const r = await monitorApi[1]!("GET", `/ns/${d.ns}/document/${encodeURIComponent(d.customId!)}`);
      isolationProbes++;
      if (r.status === 404) isolationOk++;
      else w.stats.markWrong(`tenant ${w.tenants[1]!.name} read ${w.tenants[0]!.name}'s document ${d.customId}: ${r.status}`);
    }
  const probeAfter = speedProbeMs();
  const perOp: Record<string, OpFigures> = {};
  for (const op of w.stats.ops()) perOp[op] = w.stats.figures(op, seconds);
  const total = w.stats.figures("", seconds);
  return {
    settings: { clients: CLIENTS, seconds: A_SECONDS, tenants: TENANTS, containersPerTenant: CONTAINERS, mix: Object.fromEntries(MIX) },
    speedProbeMs: { before: probeBefore, after: probeAfter },
    seconds: round(seconds, 1),
    total,
    groups: { search: w.stats.figures("search", seconds), add: w.stats.figures("add", seconds), get: w.stats.figures("get", seconds) },
    perOp,
    errors: { count: w.stats.errorCount(), byStatus: w.stats.errorsByStatus(), samples: [...w.stats.samples] },
    wrongAnswers: { count: w.stats.wrongCount, samples: [...w.stats.wrong], searchResultsChecked: w.stats.leakChecked },
    isolation: { probes: isolationProbes, notFound: isolationOk },
    documentsAdded: w.docs.total - docsBefore,
    cpu: {
      stackMsPerRequest: round(cpuFig.stackMs / total.requests, 2),
      clientMsPerRequest: round(cpuFig.benchMs / total.requests, 2),
      stackCores: cpuFig.stackCores,
      benchCores: cpuFig.benchCores,
      otherProcessesCores: cpuFig.otherCores,
      machineCores: cpuFig.machineCores,
    },
    disk: { stackWriteMb: cpuFig.stackDiskWriteMb, stackReadMb: cpuFig.stackDiskReadMb },
    rss: { ...rssFig, afterDrainMb: rssAfterDrain },
    pipeline: {
      backlogMax: backlogs.reduce((m, b) => Math.max(m, b.backlog), 0),
      backlogAtEnd,
      drained: drain.drained,
      drainSeconds: drain.seconds,
      leftAfterDrain: drain.left,
      census: states,
      backlogSeries: backlogs,
    },
    stackLog: watch.problems(logFrom),
  };
}

// ---------------------------------------------------------------------------------------------
// Phase B

/** `SEARCH_CLIENTS` closed-loop clients drawing from the search mix until `deadline`; records into w.stats. */
async function searchClients(w: World, watch: StackWatch, deadline: number, seed: number): Promise<number> {
  const draw = drawer(SEARCH_MIX);
  let searches = 0;
  const maxSearches = Math.ceil(((deadline - performance.now()) / 1000) * MAX_REQUESTS_PER_S);
  await Promise.all(
    Array.from({ length: SEARCH_CLIENTS }, async (_, c) => {
      const rand = prng(seed + c);
      const tenant = c % TENANTS;
      while (performance.now() < deadline && searches < maxSearches && !watch.dead) {
        searches++;
        await search(w, draw(rand), tenant, rand);
      }
    }),
  );
  return searches;
}

async function phaseB(w: World, watch: StackWatch, monitorApi: JsonClient[]) {
  const previousStats = w.stats;
  if (WARMUP > 0) {
    progress(`phase B: ${WARMUP} warm-up searches (not timed)`);
    const draw = drawer(SEARCH_MIX);
    w.stats = new Stats();
    let n = 0;
    await Promise.all(
      Array.from({ length: SEARCH_CLIENTS }, async (_, c) => {
        const rand = prng(SEED * 7_000 + c);
        while (n < WARMUP && !watch.dead) {
          n++;
          await search(w, draw(rand), c % TENANTS, rand);
        }
      }),
    );
  }
  const probeBefore = speedProbeMs();
  const logFrom = watch.engram.output.length;
  // The same search load without adds, just before: what the adds cost the searches on this machine today.
  let baseline: { seconds: number; search: OpFigures; cpu: ReturnType<ReturnType<typeof cpuSplit>["stop"]> } | undefined;
  if (BASELINE_SECONDS > 0) {
    progress(`phase B: baseline, ${SEARCH_CLIENTS} search clients for ${BASELINE_SECONDS} s without adds`);
    w.stats = new Stats();
    const cpu = cpuSplit(watch);
    const tb = performance.now();
    await searchClients(w, watch, tb + BASELINE_SECONDS * 1000, SEED * 3_000);
    const sb = (performance.now() - tb) / 1000;
    baseline = { seconds: round(sb, 1), search: w.stats.figures("search", sb), cpu: cpu.stop() };
    watch.assertAlive();
  }
  const stats = new Stats();
  w.stats = stats; // search() and add() record here
  const docsBefore = w.docs.total;
  const backlog0 = (await watch.backlog()) ?? 0;
  const rss = rssSampler(watch);
  const cpu = cpuSplit(watch);
  progress(`phase B: ${SEARCH_CLIENTS} search clients for ${B_SECONDS} s while adding ${ADD_RATE} documents/s (backlog at start ${backlog0})`);
  const t0 = performance.now();
  const deadline = t0 + B_SECONDS * 1000;

  // Open-loop adder: add k is sent at t0 + k / rate whether or not earlier adds answered.
  const adderApi = w.tenants.map((t) => jsonClient(watch.engram.url, t.key, 64));
  let addsSent = 0;
  let addsAccepted = 0;
  let addsSkipped = 0;
  let lateMsMax = 0;
  const inFlight = new Set<Promise<void>>();
  const adder = (async () => {
    if (ADD_RATE <= 0) return;
    const rand = prng(SEED * 13 + 5);
    const interval = 1000 / ADD_RATE;
    const maxAdds = Math.ceil(B_SECONDS * ADD_RATE) + 1;
    for (let k = 0; k < maxAdds; k++) {
      const due = t0 + k * interval;
      if (due >= deadline || watch.dead) break;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      lateMsMax = Math.max(lateMsMax, performance.now() - due);
      if (inFlight.size >= MAX_IN_FLIGHT_ADDS) {
        addsSkipped++;
        continue;
      }
      const tenant = k % TENANTS;
      const ns = w.containers[Math.floor(k / TENANTS) % w.containers.length]!;
      const op = k % 2 === 0 ? "add v5" : "add v3";
      addsSent++;
      const p: Promise<void> = add(w, stats, adderApi[tenant]!, op, tenant, ns, paceDocument(w.text, rand)).then((ok) => {
        if (ok) addsAccepted++;
        inFlight.delete(p);
      });
      inFlight.add(p);
    }
  })();

  // The processing list of every tenant, once a second: processed = accepted − growth of the backlog.
  const samples: { s: number; accepted: number; backlog: number; processed: number }[] = [];
  let monitoring = true;
  const monitor = (async () => {
    for (let i = 0; monitoring && i < B_SECONDS + 30; i++) {
      const accepted = addsAccepted;
      const b = await watch.backlog();
      if (b !== undefined) samples.push({ s: round((performance.now() - t0) / 1000, 2), accepted, backlog: b, processed: accepted - (b - backlog0) });
      const next = t0 + (i + 1) * 1000;
      if (next > performance.now()) await sleep(next - performance.now());
    }
  })();

  const searches = await searchClients(w, watch, deadline, SEED * 2_000);
  const seconds = (performance.now() - t0) / 1000;
  await adder;
  const addSettle = performance.now();
  while (inFlight.size > 0 && performance.now() - addSettle < 30_000) await Promise.race([...inFlight, sleep(1_000)]);
  const addSeconds = (performance.now() - t0) / 1000;
  monitoring = false;
  await monitor;
  const cpuFig = cpu.stop();
  watch.assertAlive();
  const last = samples[samples.length - 1];
  const backlogAtEnd = await watch.backlog();
  const rssFig = rss.stop();
  // The processed rate over the phase, and over its second half (steady state).
  const processedRate = last ? round(last.processed / last.s, 1) : NaN;
  const mid = samples.find((s) => s.s >= seconds / 2);
  const steadyRate = mid && last && last.s > mid.s ? round((last.processed - mid.processed) / (last.s - mid.s), 1) : NaN;
  progress(
    `phase B: ${searches} searches, ${addsAccepted} adds in ${seconds.toFixed(1)} s; backlog ${backlogAtEnd ?? "?"}; draining (up to ${DRAIN_SECONDS} s)`,
  );
  const drain = await watch.drain(DRAIN_SECONDS, "phase B drain");
  const addedB = w.docs.total - docsBefore;
  const totalToDrain = (performance.now() - t0) / 1000;
  const states = await census(w, monitorApi);
  const probeAfter = speedProbeMs();
  for (const c of adderApi) c.close();
  w.stats = previousStats;

  const searchFig = stats.figures("search", seconds);
  const perOp: Record<string, OpFigures> = {};
  for (const op of stats.ops()) perOp[op] = stats.figures(op, op.startsWith("add") ? addSeconds : seconds);
  const errors = stats.errorCount();
  const keepsUp =
    addsAccepted / seconds >= 0.95 * ADD_RATE && processedRate >= 0.95 * ADD_RATE && backlogAtEnd !== undefined && backlogAtEnd - backlog0 <= 2 * ADD_RATE;
  return {
    baselineWithoutAdds: baseline,
    settings: {
      searchClients: SEARCH_CLIENTS,
      seconds: B_SECONDS,
      baselineSeconds: BASELINE_SECONDS,
      addRate: ADD_RATE,
      documentBytes: "1000-3000",
      searchMix: Object.fromEntries(SEARCH_MIX),
      warmup: WARMUP,
    },
    speedProbeMs: { before: probeBefore, after: probeAfter },
    seconds: round(seconds, 1),
    search: searchFig,
    perOp,
    adds: {
      sent: addsSent,
      accepted: addsAccepted,
      skippedAtInFlightLimit: addsSkipped,
      ratePerS: round(addsAccepted / seconds, 1),
      scheduleLateMsMax: round(lateMsMax, 1),
      latency: stats.figures("add", addSeconds),
    },
    processing: {
      backlogAtStart: backlog0,
      backlogAtEnd,
      backlogMax: samples.reduce((m, s) => Math.max(m, s.backlog), 0),
      processedPerS: processedRate,
      processedPerSSecondHalf: steadyRate,
      drained: drain.drained,
      drainSeconds: drain.seconds,
      leftAfterDrain: drain.left,
      addedThisPhase: addedB,
      allDoneRate: drain.drained ? round(addedB / totalToDrain, 1) : undefined,
      census: states,
      samples,
    },
    errors: { count: errors, byStatus: stats.errorsByStatus(), samples: [...stats.samples] },
    wrongAnswers: { count: stats.wrongCount, samples: [...stats.wrong], searchResultsChecked: stats.leakChecked },
    cpu: {
      stackCores: cpuFig.stackCores,
      benchCores: cpuFig.benchCores,
      otherProcessesCores: cpuFig.otherCores,
      machineCores: cpuFig.machineCores,
      stackMsPerSearch: round(cpuFig.stackMs / searchFig.requests, 2),
    },
    disk: { stackWriteMb: cpuFig.stackDiskWriteMb, stackReadMb: cpuFig.stackDiskReadMb },
    rss: rssFig,
    stackLog: watch.problems(logFrom),
    verdict: {
      searchP95: searchFig.p95 <= TARGETS.searchP95Ms,
      noErrors: errors === 0,
      keepsUp,
      met: searchFig.p95 <= TARGETS.searchP95Ms && errors === 0 && keepsUp && stats.wrongCount === 0,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Printing

const ms = (x: number) => String(x).padStart(7);
function opRow(label: string, f: OpFigures): string {
  const errs = Object.entries(f.errors)
    .map(([k, v]) => `${k}×${v}`)
    .join(", ");
  return `  ${label.padEnd(22)} ${String(f.requests).padStart(7)} req ${String(f.reqPerS).padStart(7)} req/s  p50 ${ms(f.p50)} ms  p95 ${ms(f.p95)} ms  p99 ${ms(f.p99)} ms  max ${ms(f.max)} ms  errors ${errs || 0}`;
}

function printA(a: Awaited<ReturnType<typeof phaseA>>): void {
  console.log(`\nPhase A — ${CLIENTS} closed-loop clients for ${a.seconds} s, mixed search/add/get over ${TENANTS} tenants × ${CONTAINERS} containers`);
  console.log(`machine speed probe (a fixed CPU workload; lower is faster): ${a.speedProbeMs.before} ms before, ${a.speedProbeMs.after} ms after`);
  console.log(opRow("all", a.total));
  for (const [g, f] of Object.entries(a.groups)) console.log(opRow(`${g} (all)`, f));
  for (const [op, f] of Object.entries(a.perOp)) console.log(opRow(op, f));
  console.log(
    `errors: ${a.errors.count} ${JSON.stringify(a.errors.byStatus)} [0: ${verdict(a.errors.count === 0)}]${a.errors.samples.length ? `\n  ${a.errors.samples.join("\n  ")}` : ""}`,
  );
  console.log(
    `wrong answers (2xx): ${a.wrongAnswers.count} (search results checked for their tenant: ${a.wrongAnswers.searchResultsChecked}; another tenant's documents read: ${a.isolation.probes - a.isolation.notFound} of ${a.isolation.probes})${a.wrongAnswers.samples.length ? `\n  ${a.wrongAnswers.samples.join("\n  ")}` : ""}`,
  );
  console.log(
    `CPU: stack ${a.cpu.stackMsPerRequest} ms/request, bench ${a.cpu.clientMsPerRequest} ms/request; cores busy: stack ${a.cpu.stackCores}, bench ${a.cpu.benchCores}, other processes ${a.cpu.otherProcessesCores} (of ${a.cpu.machineCores})`,
  );
  console.log(
    `disk: the stack wrote ${a.disk.stackWriteMb} MB during the phase (${round(((a.disk.stackWriteMb ?? NaN) * 1024) / a.documentsAdded, 0)} KB per added document), read ${a.disk.stackReadMb} MB`,
  );
  console.log(`RSS of the stack: start ${a.rss.startMb} MB, peak ${a.rss.peakMb} MB, end ${a.rss.endMb} MB, after draining ${a.rss.afterDrainMb} MB`);
  const p = a.pipeline;
  console.log(
    `pipeline: ${a.documentsAdded} documents added; backlog max ${p.backlogMax}, at the end ${p.backlogAtEnd}; ` +
      (p.drained ? `drained in ${p.drainSeconds} s` : `NOT drained after ${p.drainSeconds} s (${p.leftAfterDrain} left)`) +
      `; final states of all ${p.census.accepted} documents: ${JSON.stringify(p.census.byStatus)}, missing ${p.census.missing}`,
  );
  console.log(`stack log lines at warn or above: ${a.stackLog.count}${a.stackLog.samples.length ? `\n  ${a.stackLog.samples.join("\n  ")}` : ""}`);
}

function printB(b: Awaited<ReturnType<typeof phaseB>>): void {
  console.log(`\nPhase B — ${SEARCH_CLIENTS} closed-loop search clients for ${b.seconds} s while ${ADD_RATE} documents/s (1–3 KB) are added open-loop`);
  console.log(`machine speed probe (a fixed CPU workload; lower is faster): ${b.speedProbeMs.before} ms before, ${b.speedProbeMs.after} ms after`);
  console.log(opRow("search (all)", b.search) + `  [p95 ≤ ${TARGETS.searchP95Ms}: ${verdict(b.search.p95 <= TARGETS.searchP95Ms)}]`);
  for (const [op, f] of Object.entries(b.perOp)) console.log(opRow(op, f));
  if (b.baselineWithoutAdds) {
    const bl = b.baselineWithoutAdds;
    console.log(
      opRow("search, no adds", bl.search) +
        `  (baseline: the same ${SEARCH_CLIENTS} clients for ${bl.seconds} s just before; cores busy: stack ${bl.cpu.stackCores}, other processes ${bl.cpu.otherCores})`,
    );
  }
  const ad = b.adds;
  console.log(
    `adds: ${ad.accepted} accepted of ${ad.sent} sent = ${ad.ratePerS}/s (schedule late by at most ${ad.scheduleLateMsMax} ms; skipped at the in-flight limit ${ad.skippedAtInFlightLimit})`,
  );
  const pr = b.processing;
  console.log(
    `processed: ${pr.processedPerS} documents/s over the phase, ${pr.processedPerSSecondHalf}/s over its second half; backlog at start ${pr.backlogAtStart}, max ${pr.backlogMax}, at the end ${pr.backlogAtEnd}; ` +
      (pr.drained
        ? `drained ${pr.drainSeconds} s after the phase (all ${pr.addedThisPhase} done at ${pr.allDoneRate}/s)`
        : `NOT drained after ${pr.drainSeconds} s (${pr.leftAfterDrain} left)`) +
      `; final states: ${JSON.stringify(pr.census.byStatus)}, missing ${pr.census.missing}`,
  );
  console.log(`errors: ${b.errors.count} ${JSON.stringify(b.errors.byStatus)}${b.errors.samples.length ? `\n  ${b.errors.samples.join("\n  ")}` : ""}`);
  console.log(
    `wrong answers (2xx): ${b.wrongAnswers.count} (search results checked for their tenant: ${b.wrongAnswers.searchResultsChecked})${b.wrongAnswers.samples.length ? `\n  ${b.wrongAnswers.samples.join("\n  ")}` : ""}`,
  );
  console.log(
    `CPU: cores busy: stack ${b.cpu.stackCores} (${b.cpu.stackMsPerSearch} ms per search, adds' processing included), bench ${b.cpu.benchCores}, other processes ${b.cpu.otherProcessesCores} (of ${b.cpu.machineCores})`,
  );
  console.log(
    `disk: the stack wrote ${b.disk.stackWriteMb} MB during the phase (${round(((b.disk.stackWriteMb ?? NaN) * 1024) / b.adds.accepted, 0)} KB per added document), read ${b.disk.stackReadMb} MB` +
      (b.baselineWithoutAdds ? `; ${b.baselineWithoutAdds.cpu.stackDiskWriteMb} MB during the baseline without adds` : ""),
  );
  console.log(`RSS of the stack: start ${b.rss.startMb} MB, peak ${b.rss.peakMb} MB, end ${b.rss.endMb} MB`);
  console.log(`stack log lines at warn or above: ${b.stackLog.count}${b.stackLog.samples.length ? `\n  ${b.stackLog.samples.join("\n  ")}` : ""}`);
  const v = b.verdict;
  console.log(
    `verdict: search p95 ${b.search.p95} ms ≤ ${TARGETS.searchP95Ms} ms: ${verdict(v.searchP95)}; errors ${b.errors.count} = 0: ${verdict(v.noErrors)}; ` +
      `processing keeps up with ${ADD_RATE}/s (added ${ad.ratePerS}/s, processed ${pr.processedPerS}/s, backlog grew by ${(pr.backlogAtEnd ?? NaN) - pr.backlogAtStart}): ${verdict(v.keepsUp)} → target ${v.met ? "MET" : "NOT MET"}`,
  );
}

// ---------------------------------------------------------------------------------------------

/** SIGTERM, and SIGKILL when the stack has not exited within `ms`. */
async function stopWithin(engram: EngramProcess, ms: number) {
  const killer = setTimeout(() => engram.child.kill("SIGKILL"), ms);
  try {
    return await engram.stop("SIGTERM");
  } finally {
    clearTimeout(killer);
  }
}

async function main(): Promise<void> {
  const text: Text = datasetText();
  const dataDir = tempDataDir("engram-bench-load-");
  let engram: EngramProcess | undefined;
  const cleanUp = () => {
    if (engram && engram.child.exitCode === null && engram.child.signalCode === null) engram.child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => (cleanUp(), process.exit(130)));
  const hardLimit = setTimeout(() => {
    console.error(`load bench: still running after ${HARD_LIMIT_MS / 1000} s; stopping`);
    cleanUp();
    process.exit(2);
  }, HARD_LIMIT_MS);
  hardLimit.unref();

  const nonce = Math.random().toString(36).slice(2, 10);
  const tenants: Tenant[] = Array.from({ length: TENANTS }, (_, i) => ({ index: i, name: `load-t${i + 1}`, key: `sk_load_bench_${i + 1}_${nonce}` }));
  const out: Record<string, unknown> = {
    machine: {
      ...machineFacts(),
      speedProbeMsAtStart: speedProbeMs(),
      loadAverageAtStart: os.loadavg().map((x) => round(x, 2)),
    },
    source: sourceState(),
    settings: {
      phase: PHASE,
      seed: SEED,
      tenants: TENANTS,
      containersPerTenant: CONTAINERS,
      seedDocsPerContainer: SEED_DOCS,
      drainSeconds: DRAIN_SECONDS,
      stackEnv: { LOG_LEVEL },
      entry: process.env.ENGRAM_ENTRY ?? "services/all-in-one/src/main.ts (tsx)",
    },
    targets: TARGETS,
  };
  const clients: JsonClient[] = [];
  try {
    const t0 = performance.now();
    engram = await startEngram({ dataDir, timeoutMs: 60_000, env: { LOG_LEVEL, ENGRAM_API_KEYS: tenants.map((t) => `${t.key}=${t.name}`).join(",") } });
    progress(`stack ready in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${engram.url} (pid ${engram.child.pid})`);
    const api = tenants.map((t) => jsonClient(engram!.url, t.key, 64));
    const monitorApi = tenants.map((t) => jsonClient(engram!.url, t.key, 4));
    clients.push(...api, ...monitorApi);
    const watch = new StackWatch(engram, monitorApi);
    out.rssIdleMb = watch.rss();
    const w: World = { text, tenants, containers: CONTAINER_NAMES.slice(0, CONTAINERS), api, docs: new Registry(TENANTS), stats: new Stats(), nextId: 0 };

    progress(`seeding ${TENANTS} tenants × ${CONTAINERS} containers × ${SEED_DOCS} documents`);
    out.seed = await seed(w, watch);
    progress(`seeded: ${JSON.stringify(out.seed)}`);

    const src = out.source as ReturnType<typeof sourceState>;
    console.log(
      `\nEngram load bench — ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} cores, node ${process.version}, all-in-one stack at its default settings (LOG_LEVEL ${LOG_LEVEL}); ` +
        `commit ${src.commit?.slice(0, 10) ?? "?"}${src.uncommitted?.length ? ` + ${src.uncommitted.length} uncommitted paths` : ""}; load average at start ${os.loadavg()[0]!.toFixed(2)}`,
    );
    console.log(
      `seed: ${(out.seed as { documents: number }).documents} documents processed in ${(out.seed as { seconds: number }).seconds} s; RSS idle ${out.rssIdleMb} MB`,
    );
    if (RUN_A) {
      const a = await phaseA(w, watch, monitorApi);
      out.phaseA = a;
      printA(a);
    }
    if (RUN_B) {
      const b = await phaseB(w, watch, monitorApi);
      out.phaseB = b;
      printB(b);
    }
    watch.assertAlive();
    for (const c of clients) c.close();
    const stop = await stopWithin(engram, 15_000);
    out.shutdown = stop;
    console.log(`\nshutdown after the run: code ${stop.code}, signal ${stop.signal}, ${stop.ms} ms`);
    fs.mkdirSync(path.dirname(JSON_OUT), { recursive: true });
    fs.writeFileSync(JSON_OUT, JSON.stringify(out, null, 2) + "\n");
    console.log(`figures written to ${path.relative(process.cwd(), JSON_OUT) || JSON_OUT}`);
  } finally {
    for (const c of clients) c.close();
    clearTimeout(hardLimit);
    if (engram) await stopWithin(engram, 15_000).catch(() => undefined);
    cleanUp();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
