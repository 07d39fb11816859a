import {
  asInsufficientStorage,
  InsufficientStorageError,
  InvalidArgumentError,
  isStorageFault,
  raiseStorageFaults,
  storageFaultOf,
  UnavailableError,
} from "../src/index";

const coded = (code: string, message = code, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { code, ...extra });

describe("storage faults", () => {
  it.each([
    ["ENOSPC", "full"],
    ["EDQUOT", "full"],
    ["SQLITE_FULL", "full"],
    ["EROFS", "unwritable"],
    ["SQLITE_READONLY", "unwritable"],
    ["SQLITE_READONLY_DBMOVED", "unwritable"],
  ])("%s is a %s disk", (code, fault) => {
    expect(storageFaultOf(coded(code))).toEqual({ fault, code });
  });

  it("keeps the path an fs error names, and looks along the cause chain", () => {
    const enospc = coded("ENOSPC", "ENOSPC: no space left on device", { path: "/data/files/.tmp/a.part" });
    expect(storageFaultOf(new Error("upload failed", { cause: enospc }))).toEqual({ fault: "full", code: "ENOSPC", path: "/data/files/.tmp/a.part" });
  });

  it("counts EACCES and EPERM only for a storage adapter's own call", () => {
    expect(storageFaultOf(coded("EACCES"))).toBeUndefined();
    expect(storageFaultOf(coded("EACCES"), { inStorage: true })).toEqual({ fault: "unwritable", code: "EACCES" });
    expect(storageFaultOf(coded("EPERM"), { inStorage: true })).toEqual({ fault: "unwritable", code: "EPERM" });
  });

  it("is none for other failures: busy databases, refused connections, domain errors, non-errors", () => {
    for (const err of [
      coded("SQLITE_BUSY"),
      coded("SQLITE_CORRUPT"),
      coded("ECONNREFUSED"),
      new InvalidArgumentError("bad", "input"),
      new UnavailableError("MongoDB is unavailable"),
      "ENOSPC",
      undefined,
      null,
    ])
      expect(isStorageFault(err)).toBe(false);
  });

  it("recognises a gRPC status another service marked insufficient_storage (by shape, no gRPC import)", () => {
    const metadata = { get: (k: string) => (k === "engram-error-kind" ? ["insufficient_storage"] : []) };
    expect(storageFaultOf(Object.assign(new Error("Insufficient storage"), { code: 8, metadata }))).toEqual({ fault: "full", code: "insufficient_storage" });
    const other = { get: (k: string) => (k === "engram-error-kind" ? ["resource_exhausted"] : []) };
    expect(storageFaultOf(Object.assign(new Error("slow down"), { code: 8, metadata: other }))).toBeUndefined();
  });

  it("InsufficientStorageError names the part and says nothing was stored, without codes or paths", () => {
    const err = new InsufficientStorageError("fileStore", { fault: "full", code: "ENOSPC", path: "/data/files/x" });
    expect(err.kind).toBe("insufficient_storage");
    expect(err.message).toBe("Insufficient storage");
    expect(err.details).toMatch(/^the file store cannot write: its disk is full\. Nothing was stored/);
    expect(err.details).not.toMatch(/ENOSPC|\/data/);
    expect(new InsufficientStorageError("index", { fault: "unwritable", code: "EROFS" }).details).toMatch(
      /^the search index cannot write: its storage is read-only/,
    );
    expect(storageFaultOf(err)).toEqual({ fault: "full", code: "ENOSPC" });
  });

  it("asInsufficientStorage wraps a fault (keeping the cause) and passes anything else through", () => {
    const raw = coded("SQLITE_FULL");
    const wrapped = asInsufficientStorage(raw, "store") as InsufficientStorageError;
    expect(wrapped).toBeInstanceOf(InsufficientStorageError);
    expect(wrapped.part).toBe("store");
    expect(wrapped.cause).toBe(raw);
    const other = new Error("boom");
    expect(asInsufficientStorage(other, "store")).toBe(other);
    expect(asInsufficientStorage(wrapped, "bus")).toBe(wrapped);
  });

  describe("raiseStorageFaults", () => {
    class Store {
      private readonly rows: string[] = [];
      constructor(private failWith?: Error) {}
      fail(err?: Error) {
        this.failWith = err;
      }
      add(row: string): number {
        if (this.failWith) throw this.failWith;
        this.rows.push(row);
        return this.rows.length;
      }
      async addLater(row: string): Promise<number> {
        await Promise.resolve();
        return this.add(row);
      }
      get count() {
        return this.rows.length;
      }
    }

    it("turns sync and async storage faults into InsufficientStorageError naming the part, once reported each", async () => {
      const faults: InsufficientStorageError[] = [];
      const inner = new Store();
      const store = raiseStorageFaults(inner, "store", (e) => faults.push(e));
      expect(store.add("a")).toBe(1);
      inner.fail(coded("SQLITE_FULL"));
      expect(() => store.add("b")).toThrow(InsufficientStorageError);
      await expect(store.addLater("c")).rejects.toMatchObject({ kind: "insufficient_storage", part: "store", fault: "full", code: "SQLITE_FULL" });
      inner.fail(coded("EACCES"));
      await expect(store.addLater("d")).rejects.toMatchObject({ part: "store", fault: "unwritable", code: "EACCES" });
      expect(faults.map((f) => f.code)).toEqual(["SQLITE_FULL", "SQLITE_FULL", "EACCES"]);
      // Space back: the same adapter writes again; getters and private state work through the proxy.
      inner.fail(undefined);
      expect(await store.addLater("e")).toBe(2);
      expect(store.count).toBe(2);
    });

    it("lets other errors through unchanged and reports nothing", async () => {
      const faults: unknown[] = [];
      const boom = new Error("boom");
      const store = raiseStorageFaults(new Store(boom), "bus", (e) => faults.push(e));
      expect(() => store.add("a")).toThrow(boom);
      await expect(store.addLater("a")).rejects.toBe(boom);
      expect(faults).toEqual([]);
    });
  });
});
