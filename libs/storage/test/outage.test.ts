import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asUnavailable, InvalidArgumentError, isOutage, outageReason, raiseUnavailable, UnavailableError } from "@engram/kernel";
import { openSqlite } from "../src";

/** Engine outages are recognised by the shapes the drivers give their errors (real ones where this machine can make them). */
describe("engine outages (outageReason, raiseUnavailable)", () => {
  it("a busy SQLite file (another connection holds the write lock) is an outage", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-outage-"));
    try {
      const a = openSqlite({ dataDir: dir, name: "x", migrations: ["CREATE TABLE t (v INTEGER)"] });
      const b = openSqlite({ dataDir: dir, name: "x", migrations: ["CREATE TABLE t (v INTEGER)"] });
      b.pragma("busy_timeout = 0");
      a.exec("BEGIN IMMEDIATE");
      let caught: unknown;
      try {
        b.prepare("INSERT INTO t VALUES (1)").run();
      } catch (err) {
        caught = err;
      }
      a.exec("ROLLBACK");
      expect((caught as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
      expect(outageReason(caught)).toMatch(/database busy \(SQLITE_BUSY/);
      a.close();
      b.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("network failures, driver outages and engine 5xx are outages, along the cause chain; ordinary errors are not", () => {
    const net = (code: string) => Object.assign(new Error(`connect ${code}`), { code });
    const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...extra });
    for (const e of [
      net("ECONNREFUSED"),
      net("ETIMEDOUT"),
      net("ENOTFOUND"),
      Object.assign(new TypeError("fetch failed"), { cause: net("ECONNREFUSED") }),
      named("MongoServerSelectionError"),
      named("MongoNetworkTimeoutError"),
      named("MongoServerError", { code: 10107 }),
      named("MongoServerError", { code: 112, errorLabels: ["TransientTransactionError"] }),
      named("MongoBulkWriteError", { errorResponse: named("MongoTopologyClosedError") }),
      named("KafkaJSConnectionError"),
      named("KafkaJSNumberOfRetriesExceeded"),
      named("QdrantClientTimeoutError"),
      named("ApiError", { status: 503 }),
      named("TimeoutError"),
      Object.assign(new Error("SQLITE_LOCKED"), { code: "SQLITE_LOCKED_SHAREDCACHE" }),
    ])
      expect([e.message, isOutage(e)]).toEqual([e.message, true]);
    for (const e of [
      new Error("boom"),
      net("ENOENT"),
      named("MongoServerError", { code: 11000 }),
      named("ApiError", { status: 400 }),
      Object.assign(new Error("constraint"), { code: "SQLITE_CONSTRAINT_UNIQUE" }),
      new InvalidArgumentError("bad", "x"),
      // A domain error is never re-classified, whatever its cause.
      new UnavailableError("x", undefined, { cause: net("ECONNREFUSED") }),
      undefined,
      "ECONNREFUSED",
    ])
      expect([String(e), isOutage(e)]).toEqual([String(e), false]);
  });

  it("asUnavailable names the engine and keeps the cause; raiseUnavailable does it for every method of an adapter", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:27017"), { code: "ECONNREFUSED" });
    const mapped = asUnavailable(refused, "MongoDB") as UnavailableError;
    expect(mapped).toBeInstanceOf(UnavailableError);
    expect(mapped.kind).toBe("unavailable");
    expect(mapped.message).toBe("MongoDB is unavailable");
    expect(mapped.cause).toBe(refused);
    const plain = new Error("bug");
    expect(asUnavailable(plain, "MongoDB")).toBe(plain);

    class Store {
      calls = 0;
      private readonly secret = 42;
      async read(): Promise<number> {
        this.calls++;
        return this.secret;
      }
      async down(): Promise<number> {
        throw refused;
      }
      syncDown(): number {
        throw refused;
      }
      async bug(): Promise<number> {
        throw plain;
      }
      async viaOther(): Promise<number> {
        return this.down().catch(() => -1);
      }
    }
    const store = raiseUnavailable(new Store(), "Qdrant");
    expect(store).toBeInstanceOf(Store);
    await expect(store.read()).resolves.toBe(42);
    expect(store.calls).toBe(1);
    await expect(store.down()).rejects.toMatchObject({ name: "UnavailableError", message: "Qdrant is unavailable", cause: refused });
    expect(() => store.syncDown()).toThrow(UnavailableError);
    await expect(store.bug()).rejects.toBe(plain);
    // Inside the adapter the raw error is still seen (its own handling is unchanged).
    await expect(store.viaOther()).resolves.toBe(-1);
  });
});
