import { createHash, randomBytes } from "node:crypto";
import { InvalidArgumentError, PayloadTooLargeError } from "@engram/kernel";
import type { FileStore } from "../../src/app/ports";

/** One FileStore adapter under test, fresh and empty. */
export interface FileStoreHarness {
  store: FileStore;
  /** A restart: a new store on the same data (start-up clean-up included). */
  reopen(): Promise<FileStore>;
  /** Everything the store holds (files, partial files, chunks, upload records), to check that nothing is left behind. */
  stored(): Promise<string[]>;
  /** Leaves an upload half-written, as a process that died mid-upload would. */
  crashMidWrite(key: string): Promise<void>;
  close(): Promise<void>;
}

async function* pieces(buf: Buffer, sizes: number[]): AsyncIterable<Uint8Array> {
  let at = 0;
  for (let i = 0; at < buf.length; i++) {
    const n = sizes[i % sizes.length]!;
    yield new Uint8Array(buf.subarray(at, at + n));
    at += n;
    await new Promise((r) => setImmediate(r));
  }
}

async function* failingAfter(buf: Buffer, piece: number, failAt: number): AsyncIterable<Uint8Array> {
  for (let at = 0; at < buf.length; at += piece) {
    if (at >= failAt) throw new Error("client went away");
    yield new Uint8Array(buf.subarray(at, at + piece));
  }
}

async function readAll(store: FileStore, key: string): Promise<{ bytes: Buffer; pieces: number }> {
  const parts: Buffer[] = [];
  for await (const p of store.read(key)) parts.push(Buffer.from(p));
  return { bytes: Buffer.concat(parts), pieces: parts.length };
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** The behaviour every FileStore adapter shares; `open` is called once per test. */
export function fileStoreContract(open: () => Promise<FileStoreHarness>): void {
  let h: FileStoreHarness;
  let store: FileStore;

  beforeEach(async () => {
    h = await open();
    store = h.store;
  });

  afterEach(async () => {
    await h.close();
  });

  it("writes, reads back the same bytes, and reports size and SHA-256", async () => {
    const data = randomBytes(600 * 1024 + 17);
    const res = await store.write("acme/e_1", pieces(data, [1000, 65_536, 3, 200_000]), 10 * 1024 * 1024);
    expect(res).toEqual({ sizeBytes: data.length, sha256: sha(data) });
    const back = await readAll(store, "acme/e_1");
    expect(back.bytes.equals(data)).toBe(true);
    // Read streams: a large file arrives in several pieces.
    expect(back.pieces).toBeGreaterThan(1);
    expect((await h.stored()).length).toBeGreaterThan(0);
  });

  it("stores an empty file", async () => {
    const res = await store.write("acme/empty", pieces(Buffer.alloc(0), [1]), 100);
    expect(res).toEqual({ sizeBytes: 0, sha256: sha(Buffer.alloc(0)) });
    expect((await readAll(store, "acme/empty")).bytes.length).toBe(0);
  });

  it("accepts exactly maxBytes; one byte more fails with PayloadTooLargeError and leaves nothing behind", async () => {
    await store.write("acme/keep", pieces(randomBytes(10), [10]), 100);
    const before = (await h.stored()).sort();
    const max = 5000;
    const exact = randomBytes(max);
    expect((await store.write("acme/exact", pieces(exact, [700]), max)).sizeBytes).toBe(max);
    await store.delete("acme/exact");
    await expect(store.write("acme/big", pieces(randomBytes(max + 1), [700]), max)).rejects.toThrow(PayloadTooLargeError);
    expect((await h.stored()).sort()).toEqual(before);
    await expect(readAll(store, "acme/big")).rejects.toThrow();
  });

  it("a source that fails mid-way rejects with its error and leaves nothing behind", async () => {
    const before = (await h.stored()).sort();
    await expect(store.write("acme/broken", failingAfter(randomBytes(50_000), 4096, 30_000), 1_000_000)).rejects.toThrow("client went away");
    expect((await h.stored()).sort()).toEqual(before);
    await expect(readAll(store, "acme/broken")).rejects.toThrow();
  });

  it("a second write to a key replaces it without keeping the old copy", async () => {
    const one = randomBytes(3000);
    const two = randomBytes(3000);
    await store.write("acme/k", pieces(one, [1000]), 10_000);
    const afterOne = (await h.stored()).length;
    await store.write("acme/k", pieces(two, [1000]), 10_000);
    expect((await readAll(store, "acme/k")).bytes.equals(two)).toBe(true);
    expect((await h.stored()).length).toBe(afterOne);
  });

  it("keeps keys apart", async () => {
    await store.write("acme/a", pieces(Buffer.from("AAA"), [3]), 10);
    await store.write("globex/a", pieces(Buffer.from("BBB"), [3]), 10);
    await store.write("acme/a.b/c-d_e", pieces(Buffer.from("CCC"), [3]), 10);
    expect((await readAll(store, "acme/a")).bytes.toString()).toBe("AAA");
    expect((await readAll(store, "globex/a")).bytes.toString()).toBe("BBB");
    expect((await readAll(store, "acme/a.b/c-d_e")).bytes.toString()).toBe("CCC");
  });

  it("delete removes the file and is idempotent; reading a missing key fails", async () => {
    const before = (await h.stored()).sort();
    await store.write("acme/d", pieces(randomBytes(2000), [500]), 10_000);
    await store.delete("acme/d");
    await expect(readAll(store, "acme/d")).rejects.toThrow();
    await store.delete("acme/d");
    await store.delete("acme/never-written");
    expect((await h.stored()).sort()).toEqual(before);
  });

  it("refuses invalid keys and stores nothing for them", async () => {
    for (const key of ["../escape", "a//b", "a/./b", "with space", "", "/abs", "a/"]) {
      await expect(store.write(key, pieces(Buffer.from("x"), [1]), 10)).rejects.toThrow(InvalidArgumentError);
      await expect(readAll(store, key)).rejects.toThrow(InvalidArgumentError);
      await expect(store.delete(key)).rejects.toThrow(InvalidArgumentError);
    }
    expect(await h.stored()).toEqual([]);
  });

  it("keeps files across a restart", async () => {
    const data = randomBytes(5000);
    await store.write("acme/durable", pieces(data, [1024]), 10_000);
    store = await h.reopen();
    expect((await readAll(store, "acme/durable")).bytes.equals(data)).toBe(true);
  });

  it("an upload cut short by a crash leaves nothing after the next start", async () => {
    await store.write("acme/keep", pieces(randomBytes(100), [100]), 1000);
    const before = (await h.stored()).sort();
    await h.crashMidWrite("acme/crashed");
    expect((await h.stored()).length).toBeGreaterThan(before.length);
    store = await h.reopen();
    expect((await h.stored()).sort()).toEqual(before);
    expect((await readAll(store, "acme/keep")).bytes.length).toBe(100);
  });
}
