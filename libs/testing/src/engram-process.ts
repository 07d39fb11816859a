import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const REPO_ROOT = path.resolve(__dirname, "../../..");
const MAIN = path.join(REPO_ROOT, "services/all-in-one/src/main.ts");

export interface StartOptions {
  /** Data directory; a fresh temporary one when omitted. */
  dataDir?: string;
  apiKey?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface EngramProcess {
  url: string;
  port: number;
  apiKey: string;
  dataDir: string;
  child: ChildProcess;
  /** Every stdout/stderr line so far. */
  output: string[];
  /** The "engram ready" log record. */
  ready: Record<string, unknown>;
  /** Sends the signal and resolves when the process exited. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

export function tempDataDir(prefix = "engram-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Starts the all-in-one stack as a child process (`node --import tsx services/all-in-one/src/main.ts`)
 * on a free port and resolves once it logged "engram ready".
 */
export function startEngram(opts: StartOptions = {}): Promise<EngramProcess> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const apiKey = opts.apiKey ?? `test-key-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  // One process: node loads tsx as a module hook (no wrapper process), so pid and RSS are the stack's own.
  // ENGRAM_NODE_ARGS adds node flags to the stack process (e.g. --cpu-prof for profiling a bench);
  // ENGRAM_ENTRY runs a built entry instead (`pnpm build`, then ENGRAM_ENTRY=dist/all-in-one.js: the deployed bundle).
  const nodeArgs = (process.env.ENGRAM_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const entry = process.env.ENGRAM_ENTRY ? [path.resolve(REPO_ROOT, process.env.ENGRAM_ENTRY)] : ["--import", "tsx", MAIN];
  const child = spawn(process.execPath, [...nodeArgs, ...entry], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ENGRAM_DATA_DIR: dataDir, ENGRAM_API_KEY: apiKey, LOG_LEVEL: "info", ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`engram did not become ready within ${opts.timeoutMs ?? 30_000} ms:\n${output.slice(-30).join("\n")}`));
    }, opts.timeoutMs ?? 30_000);
    let buffered = "";
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let i: number;
      while ((i = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 1);
        output.push(line);
        if (line.includes('"engram ready"')) {
          clearTimeout(timer);
          const ready = JSON.parse(line) as Record<string, unknown>;
          const port = ready.httpPort as number;
          resolve({
            url: `http://127.0.0.1:${port}`,
            port,
            apiKey,
            dataDir,
            child,
            output,
            ready,
            async stop(signal: NodeJS.Signals = "SIGTERM") {
              const started = Date.now();
              if (child.exitCode === null && child.signalCode === null) child.kill(signal);
              const r = await exited;
              return { ...r, ms: Date.now() - started };
            },
          });
        }
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`engram exited before ready (code ${code}, signal ${signal}):\n${output.slice(-30).join("\n")}`));
    });
  });
}

/** Minimal JSON client for tests and benches. */
export function apiClient(base: string, apiKey: string) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
  return async function api<T = any>(
    method: string,
    p: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
}
