import { apiClient, type EngramProcess, startEngram, waitFor } from "@engram/testing";

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
