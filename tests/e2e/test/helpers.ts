import { execFile } from "node:child_process";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { apiClient, type EngramProcess, type FakeGitHub, REPO_ROOT, startEngram, waitFor } from "@engram/testing";

export type Api = ReturnType<typeof apiClient>;

/** Polls a v5 document until it reaches a final state. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- documents are arbitrary JSON in tests
export async function waitDone(api: Api, namespace: string, id: string, timeoutMs = 20_000): Promise<Record<string, any>> {
  return waitFor(
    async () => {
      const r = await api("GET", `/ns/${namespace}/document/${encodeURIComponent(id)}`);
      if (r.status !== 200) throw new Error(`GET returned ${r.status}: ${JSON.stringify(r.body)}`);
      const status = r.body.system.status;
      return status === "done" || status === "failed" ? r.body : undefined;
    },
    { timeoutMs, what: `document ${id} to finish` },
  );
}

export function expectErrorBody(body: unknown): void {
  expect(body).toEqual(expect.objectContaining({ error: expect.any(String) }));
  const keys = Object.keys(body as object);
  expect(keys.every((k) => k === "error" || k === "details")).toBe(true);
}

/** A stack serving two tenants to the tests of the enclosing describe (see `twoTenantStack`). */
export interface TwoTenantStack {
  /** The stack running now. */
  readonly engram: EngramProcess;
  /** Clients of the stack running now: `a` with the stack's own key, `b` with the key of tenant "tenant-b". */
  readonly a: Api;
  readonly b: Api;
  /** Starts the stack again on `dataDir` (once the test has stopped it). */
  restart(dataDir: string): Promise<void>;
}

/**
 * Starts a stack before the tests of the enclosing describe and stops it after
 * them: its own key is `keyA`, and `keyB` is a key of tenant "tenant-b"; `env` adds to its environment.
 */
export function twoTenantStack(keyA: string, keyB: string, env: Record<string, string> = {}): TwoTenantStack {
  let engram: EngramProcess | undefined;
  const start = async (dataDir?: string) => {
    engram = await startEngram({ dataDir, apiKey: keyA, env: { ENGRAM_API_KEYS: `${keyB}=tenant-b`, ...env } });
  };
  const running = (): EngramProcess => {
    if (!engram) throw new Error("the stack has not started");
    return engram;
  };
  const client =
    (key: string): Api =>
    (method, p, body, headers) =>
      apiClient(running().url, key)(method, p, body, headers);
  beforeAll(() => start());
  afterAll(() => stopQuietly(engram));
  return {
    get engram() {
      return running();
    },
    a: client(keyA),
    b: client(keyB),
    restart: (dataDir) => start(dataDir),
  };
}

export async function stopQuietly(p: EngramProcess | undefined): Promise<void> {
  if (p) await p.stop("SIGTERM");
}

/** A TCP port of 127.0.0.1 free now (for a server the test starts soon after). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** A connection's last sync run, as GET /v3/connections/{id} shows it. */
export type Run = { status: string; startedAt: string; completedAt?: string; errorCode: string | null; error: string | null };

export async function lastRun(api: Api, id: string): Promise<Run | undefined> {
  return (await api("GET", `/v3/connections/${id}`)).body.lastSyncRun as Run | undefined;
}

/** Waits for a sync run of the connection that started after `after` to finish (neither queued nor running), and returns it. */
export function finishedRun(api: Api, id: string, after = ""): Promise<Run> {
  return waitFor(
    async () => {
      const run = await lastRun(api, id);
      return run && run.startedAt > after && run.status !== "running" && run.status !== "queued" ? run : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: "the sync run to finish" },
  );
}

/** The chunks a documents search of `containerTag` finds for `q` (threshold 0; `filters` when given). */
export async function documentChunks(api: Api, containerTag: string, q: string, filters?: unknown): Promise<string[]> {
  const r = await api("POST", "/v4/search", { q, containerTag, searchMode: "documents", threshold: 0, ...(filters ? { filters } : {}) });
  return (r.body.results as { chunk: string }[]).map((x) => x.chunk);
}

/** Waits (60 s at most) until a documents search of `containerTag` for `q` finds a chunk containing `text`. */
export function waitSearchable(api: Api, containerTag: string, q: string, text: string): Promise<true> {
  return waitFor(async () => ((await documentChunks(api, containerTag, q)).some((c) => c.includes(text)) ? true : undefined), {
    timeoutMs: 60_000,
    what: `"${text}" to be searchable`,
  });
}

/**
 * `twoTenantStack` for a connector's test against a provider fake: before the
 * stack, the fake starts and a port is chosen for the stack (its public URL,
 * where OAuth callbacks and webhooks come back); `providerEnv` gives the
 * stack's variables for the fake's base URL and that port. Webhooks are not
 * debounced and the scheduler looks every 200 ms; `env` is the stack's
 * environment (filled in before the stack starts). The fake stops after the stack.
 */
export function fakeProviderStack(
  fake: { start(): Promise<string>; stop(): Promise<void> },
  keyA: string,
  keyB: string,
  providerEnv: (url: string, port: number) => Record<string, string>,
): TwoTenantStack & { readonly env: Record<string, string> } {
  const env: Record<string, string> = { WEBHOOK_DEBOUNCE_MS: "0", SYNC_SCHEDULER_INTERVAL_MS: "200" };
  beforeAll(async () => {
    const url = await fake.start();
    const port = await freePort();
    Object.assign(env, { PORT: String(port), ENGRAM_PUBLIC_URL: `http://127.0.0.1:${port}`, ...providerEnv(url, port) });
  });
  const stack = twoTenantStack(keyA, keyB, env);
  afterAll(() => fake.stop());
  return Object.assign(stack, { env });
}

/** The stack's variables that point GitHub's endpoints and Engram's GitHub application at a FakeGitHub (for fakeProviderStack). */
export const gitHubEnv = (fake: FakeGitHub) => (url: string) => ({
  GITHUB_API_URL: url,
  GITHUB_WEB_URL: url,
  GITHUB_CLIENT_ID: fake.clientId,
  GITHUB_CLIENT_SECRET: fake.clientSecret,
});

/** Issue #30's container about one person: six facts, and six plain questions with the word of the memory that answers each. */
export const MIRELA_MEMORIES = [
  { content: "Mirela Horvat moved to Ljubljana in March 2024." },
  { content: "Mirela Horvat is a veterinary surgeon." },
  { content: "Mirela Horvat keeps three hens in her garden." },
  { content: "Mirela Horvat sings in a jazz choir." },
  { content: "Mirela Horvat gave up alcohol in 2021." },
  { content: "Mirela Horvat's son Luka turned nine in May." },
];
export const MIRELA_QUESTIONS: [question: string, word: string][] = [
  ["where does Mirela live", "Ljubljana"],
  ["does Mirela have animals", "hens"],
  ["what music is Mirela into", "jazz"],
  ["does Mirela drink", "alcohol"],
  ["how old is Mirela's child", "Luka"],
  ["what does Mirela do for a living", "veterinary"],
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- CLI answers are arbitrary JSON in tests
export type CliRun = { code: number; out: Record<string, any>; stderr: string };

/**
 * The `engram` CLI as a user runs it (a child process on the sources, `--json` output parsed; the raw stdout under
 * `stdout` when it is not JSON), with only PATH, HOME and `env` in its environment.
 */
export function runCliProcess(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", path.join(REPO_ROOT, "apps/cli/src/main.ts"), "--json", ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), ...env }, timeout: timeoutMs },
      (err, stdout, stderr) => {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
        let out: Record<string, any> = {};
        try {
          out = JSON.parse(stdout);
        } catch {
          out = { stdout };
        }
        resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, out, stderr });
      },
    );
  });
}
