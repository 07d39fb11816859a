import fs from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { rootLogger } from "@engram/observability";
import { SqliteApiKeyStore } from "../../src/auth/api-key.sqlite";
import { KeyService } from "../../src/auth/keys.service";
import { createApp, type StorageParts } from "../../src/http/app";
import { backendsAt } from "../../src/http/backends";
import { worstStates } from "../../src/module";

/** /readyz and /healthz of the gateway's app, with the backends' readiness and storage parts set by the test. */
describe("gateway readiness (/readyz per storage part, /healthz)", () => {
  let server: http.Server;
  let base = "";
  let ready = true;
  let parts: StorageParts = {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-readyz-"));
  const store = new SqliteApiKeyStore(dir);
  const backends = backendsAt("127.0.0.1:1", 2000);

  beforeAll(async () => {
    const app = createApp({
      backends,
      keys: new KeyService(store, 0),
      logger: rootLogger({ level: "silent" }),
      jsonLimitBytes: 1 << 20,
      uploadLimitBytes: 1 << 20,
      defaultNamespace: "default",
      uploadSpoolDir: path.join(dir, "spool"),
      ready: () => ready,
      storageParts: () => parts,
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    backends.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = async (p: string) => {
    const res = await fetch(base + p);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("is ready with every part ok, listing the parts", async () => {
    ready = true;
    parts = { store: "ok", fileStore: "ok", index: "ok", bus: "ok" };
    expect(await get("/readyz")).toEqual({ status: 200, body: { status: "ready", parts } });
  });

  it("answers 503 naming each part that cannot write, with the API's error fields; liveness stays 200", async () => {
    ready = false;
    parts = { store: "full", fileStore: "unwritable", index: "ok", bus: "low" };
    const r = await get("/readyz");
    expect(r).toEqual({
      status: 503,
      body: {
        status: "not_ready",
        error: "Not ready",
        details:
          "the document and memory store (store) cannot write: its disk is full; the file store (fileStore) cannot write: its storage is read-only or not writable; the event log (bus) is low on disk space",
        parts,
      },
    });
    expect(await get("/healthz")).toEqual({ status: 200, body: { status: "ok" } });
  });

  it("fails on a part even while the backends still say serving (a gateway that probed before them)", async () => {
    ready = true;
    parts = { store: "ok", index: "full" };
    expect((await get("/readyz")).status).toBe(503);
  });

  it("keeps the old reason when no part is failing (a backend not serving, or shutting down), and works without parts", async () => {
    ready = false;
    parts = {};
    expect(await get("/readyz")).toEqual({
      status: 503,
      body: { status: "not_ready", error: "Not ready", details: "a backend service is not serving yet or the gateway is shutting down", parts: {} },
    });
  });

  it("worstStates keeps, per part, the worst state any backend reports", () => {
    expect(
      worstStates([
        { store: "ok", bus: "ok" },
        { store: "full", fileStore: "ok" },
        { store: "low", bus: "unwritable" },
      ]),
    ).toEqual({ store: "full", bus: "unwritable", fileStore: "ok" });
    expect(worstStates([])).toEqual({});
  });
});
