/**
 * Small helpers shared by the benches: seeded randomness, percentiles, a
 * keep-alive JSON client with little per-request overhead (so the client does
 * not eat the CPU the stack is measured on), a closed-loop load runner (with
 * the CPU per request of the stack and of the client), the resident set
 * size of a process, and a machine speed probe.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import os from "node:os";
import { type EngramProcess, prng, REPO_ROOT, tempDataDir } from "@engram/testing";

/** mulberry32: a small seeded PRNG, so every run uses the same data. */
export { prng };

/**
 * A seeded draw of sentences (`pick`) and documents of at least `chars` characters of them, ids `<prefix><i>`
 * (`doc`), sharing one random stream: the corpora the scale and backup benches grow.
 */
export function sentenceCorpus(
  sentences: readonly string[],
  seed: number,
  prefix: string,
  chars: number,
): { pick: () => string; doc: (i: number) => { id: string; content: string } } {
  const rand = prng(seed);
  const pick = () => sentences[Math.floor(rand() * sentences.length)]!;
  const doc = (i: number) => {
    let text = "";
    while (text.length < chars) text += (text ? " " : "") + pick();
    return { id: `${prefix}${i}`, content: text };
  };
  return { pick, doc };
}

/** Bytes of every file under a directory (0 when it does not exist). */
export function dirBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? dirBytes(p) : fs.statSync(p).size;
  }
  return total;
}

/** Nearest-rank percentile (p in 0..100) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const round = (n: number, d = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** d) / 10 ** d : n);

/** VmRSS of a process in MB (Linux /proc), undefined when unreadable. */
export function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process used so far, in ms (Linux /proc), undefined when unreadable. */
export function cpuMs(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks: USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/**
 * Machine speed probe: milliseconds for a fixed single-threaded workload of
 * the kinds a request costs (JSON text both ways, string hashing into a Map,
 * a numeric sort), best of five. The same code runs at different speeds on a
 * shared virtual machine from one hour to the next; printed next to a run's
 * figures, it tells a slower machine from slower code. Lower is faster.
 */
export function speedProbeMs(): number {
  const rand = prng(7);
  const records = Array.from({ length: 4_000 }, (_, i) => ({
    id: `rec_${i.toString(36)}`,
    score: rand(),
    words: Array.from({ length: 12 }, () => Math.floor(rand() * 50_000).toString(36)),
  }));
  let best = Infinity;
  for (let attempt = 0; attempt < 5; attempt++) {
    const t = performance.now();
    let sink = 0;
    for (let pass = 0; pass < 10; pass++) {
      const copy = JSON.parse(JSON.stringify(records)) as typeof records;
      const counts = new Map<string, number>();
      for (const r of copy) for (const w of r.words) counts.set(w, (counts.get(w) ?? 0) + 1);
      const scores = Float64Array.from(copy, (r) => r.score * counts.size).sort();
      sink += scores[scores.length >> 1]! + counts.size;
    }
    best = Math.min(best, performance.now() - t);
    if (sink < 0) throw new Error("unreachable");
  }
  return Math.round(best);
}

export interface JsonResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- benches read arbitrary JSON
  body: any;
}

/** A JSON client over one keep-alive agent (node:http: cheaper per request than fetch). */
export function jsonClient(baseUrl: string, apiKey: string, maxSockets = 16) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const call = (method: string, path: string, body?: unknown): Promise<JsonResponse> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          agent,
          headers: { authorization: `Bearer ${apiKey}`, ...(payload ? { "content-type": "application/json", "content-length": payload.length } : {}) },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on("data", (c: Buffer) => parts.push(c));
          res.on("end", () => {
            const text = Buffer.concat(parts).toString("utf8");
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              /* not JSON */
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  return Object.assign(call, { close: () => agent.destroy() });
}

export type JsonClient = ReturnType<typeof jsonClient>;

export interface LoadResult {
  requests: number;
  errors: number;
  firstError?: string;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  rps: number;
  /** CPU the measured process (the stack) spent per request, when its pid was given. */
  serverCpuMsPerRequest?: number;
  /** CPU this (client) process spent per request. */
  clientCpuMsPerRequest: number;
}

/**
 * Closed-loop load: `clients` workers each send the next request as soon as
 * their previous one answered, until `total` requests were sent. Latency is
 * measured per request from send to full response.
 */
export async function closedLoop(clients: number, total: number, send: (i: number) => Promise<JsonResponse>, serverPid?: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const serverCpu0 = serverPid === undefined ? undefined : cpuMs(serverPid);
  const clientCpu0 = process.cpuUsage();
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const res = await send(i).catch((err: Error) => ({ status: 0, body: String(err) }));
        latencies.push(performance.now() - t);
        if (res.status !== 200) {
          errors++;
          firstError ??= `${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const serverCpu1 = serverPid === undefined ? undefined : cpuMs(serverPid);
  const clientCpu = process.cpuUsage(clientCpu0);
  return {
    requests: latencies.length,
    errors,
    firstError,
    p50: round(percentile(latencies, 50), 2),
    p95: round(percentile(latencies, 95), 2),
    p99: round(percentile(latencies, 99), 2),
    max: round(Math.max(...latencies), 1),
    rps: round(latencies.length / seconds, 0),
    ...(serverCpu0 !== undefined && serverCpu1 !== undefined ? { serverCpuMsPerRequest: round((serverCpu1 - serverCpu0) / latencies.length, 2) } : {}),
    clientCpuMsPerRequest: round((clientCpu.user + clientCpu.system) / 1000 / latencies.length, 2),
  };
}

/** The machine a bench ran on, for its JSON (each bench adds its speed probe and load figures). */
export function machineFacts(): { date: string; node: string; cpus: number; cpu?: string; memMb: number } {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memMb: Math.round(os.totalmem() / 1048576),
  };
}

/** The commit and the uncommitted paths the stack ran from (read-only git: no optional locks, nothing written). */
export function sourceState(): { commit?: string; uncommitted?: string[] } {
  const git = (...args: string[]) => execFileSync("git", ["--no-optional-locks", ...args], { cwd: REPO_ROOT, encoding: "utf8", timeout: 10_000 }).trimEnd();
  try {
    return {
      commit: git("rev-parse", "HEAD"),
      uncommitted: git("status", "--porcelain")
        .split("\n")
        .filter(Boolean)
        .map((l) => l.slice(3)),
    };
  } catch {
    return {};
  }
}

/**
 * `--provider-url <OpenAI-compatible /v1 root> --provider-model <name>`: the stack's environment to embed
 * with that provider (EMBEDDER=openai; EMBEDDING_API_KEY from this process's environment); undefined without one.
 */
export function providerEnv(url: string | undefined, model: string | undefined): Record<string, string> | undefined {
  if (!!url !== !!model) throw new Error("--provider-url and --provider-model go together");
  if (!url) return undefined;
  return {
    EMBEDDER: "openai",
    EMBEDDING_BASE_URL: url,
    EMBEDDING_MODEL: model!,
    ...(process.env.EMBEDDING_API_KEY ? { EMBEDDING_API_KEY: process.env.EMBEDDING_API_KEY } : {}),
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until no document of the tenant is processing, printing how many are left every 10 s. */
export async function waitIdle(api: JsonClient, progress: (msg: string) => void, what: string): Promise<void> {
  let last = 0;
  for (;;) {
    const res = await api("GET", "/v3/documents/processing");
    if (res.status !== 200) throw new Error(`processing list answered ${res.status}`);
    if (res.body.totalCount === 0) return;
    if (performance.now() - last > 10_000) {
      progress(`${what}: ${res.body.totalCount} documents still processing`);
      last = performance.now();
    }
    await pause(250);
  }
}

/** Adds documents through the batch endpoint, 600 per request, two requests at a time. */
export async function batchAdd(api: JsonClient, ns: string, docs: { id: string; content: string }[], taskType: "memory" | "superrag"): Promise<void> {
  const BATCH = 600;
  let next = 0;
  await Promise.all(
    Array.from({ length: 2 }, async () => {
      while (next < docs.length) {
        const from = next;
        next = Math.min(docs.length, next + BATCH);
        const res = await api("POST", `/ns/${ns}/document/batch?taskType=${taskType}`, { documents: docs.slice(from, next) });
        if (res.status !== 200 || res.body.failed) throw new Error(`batch answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      }
    }),
  );
}

/**
 * A fresh data directory for a bench's stack, and the clean-up that kills the
 * stack (whichever `running()` returns) and removes the directory, also on Ctrl-C.
 * With `keep` (a bench's --keep), that directory instead, created if needed and kept.
 */
export function benchDataDir(prefix: string, running: () => EngramProcess | undefined, keep = ""): { dataDir: string; cleanUp: () => void } {
  if (keep) fs.mkdirSync(keep, { recursive: true });
  const dataDir = keep || tempDataDir(prefix);
  const cleanUp = () => {
    const engram = running();
    if (engram && engram.child.exitCode === null) engram.child.kill("SIGKILL");
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  process.once("SIGINT", () => (cleanUp(), process.exit(130)));
  return { dataDir, cleanUp };
}
