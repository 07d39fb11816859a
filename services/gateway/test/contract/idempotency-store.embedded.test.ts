import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteIdempotencyStore } from "../../src/guards/idempotency.sqlite";
import { idempotencyStoreContract } from "./idempotency-store.contract";

describe("SqliteIdempotencyStore (idempotency store contract)", () => {
  idempotencyStoreContract(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-idem-"));
    let store = new SqliteIdempotencyStore(dir);
    return {
      get store() {
        return store;
      },
      reopen: async () => {
        await store.close();
        store = new SqliteIdempotencyStore(dir);
        return store;
      },
      close: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  });

  it("two stores on one data directory (two gateway processes) share the records", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-idem-"));
    const a = new SqliteIdempotencyStore(dir);
    const b = new SqliteIdempotencyStore(dir);
    const opts = { leaseMs: 60_000, retentionMs: 3600_000 };
    const now = new Date();
    expect((await a.begin("acme", "k", "fp", now, opts)).kind).toBe("started");
    expect((await b.begin("acme", "k", "fp", now, opts)).kind).toBe("in_flight");
    await a.complete("acme", "k", "fp", { status: 201, body: "{}" }, now, 3600_000);
    expect(await b.begin("acme", "k", "fp", now, opts)).toEqual({ kind: "replay", answer: { status: 201, body: "{}" } });
    await a.close();
    await b.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
