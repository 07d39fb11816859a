import { type apiClient, type EngramProcess, waitFor } from "@engram/testing";

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

export async function stopQuietly(p: EngramProcess | undefined): Promise<void> {
  if (p) await p.stop("SIGTERM");
}
