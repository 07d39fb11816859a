import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChunkSearchQuery, IndexedChunk } from "../src/chunk-index";
import { HashingEmbedder } from "../src/embedder";
import { DOCUMENT_ROWS_SQL, SqliteChunkIndex } from "../src/sqlite-chunk-index";
import { PartitionBudget } from "../src/residency";
import Database from "better-sqlite3";
import { parseFilter } from "@engram/filters";
import { testChunk } from "./contract/chunk-index.contract";

const embedder = new HashingEmbedder(128);
let seq = 0;

const chunk = (tenantId: string, namespace: string, documentId: string, position: number, content: string): IndexedChunk =>
  testChunk(embedder, `c_test${++seq}`, tenantId, namespace, documentId, position, content);

/**
 * What only the embedded index does (in-memory partitions, warm-up, files of
 * earlier releases). The behaviour every ChunkIndex shares is the contract
 * suite in test/contract (run against this index and Qdrant).
 */
describe("SqliteChunkIndex", () => {
  let dir: string;
  let index: SqliteChunkIndex;

  const search = (q: Omit<ChunkSearchQuery, "vector" | "limit"> & { limit?: number }) => index.search({ limit: 20, vector: embedder.embedOne(q.text), ...q });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-index-"));
    index = new SqliteChunkIndex(dir);
  });

  afterEach(async () => {
    await index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("finds a document's rows by id through an index, never by walking the tenant's rows (re-index cost independent of the index size)", async () => {
    for (let d = 0; d < 30; d++) await index.replaceDocumentChunks("t1", `ns${d % 3}`, `doc${d}`, [chunk("t1", `ns${d % 3}`, `doc${d}`, 0, `walrus ${d}`)], 1);
    await index.close();
    const db = new Database(
      path.join(
        dir,
        fs.readdirSync(dir).find((f) => f.endsWith(".db"))!,
      ),
      { readonly: true },
    );
    // Without statistics, as the store runs (it never runs ANALYZE).
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${DOCUMENT_ROWS_SQL}`).all("t1", "doc7") as { detail: string }[]).map((r) => r.detail).join("; ");
    db.close();
    expect(plan).toMatch(/USING (COVERING )?INDEX chunks_by_document_id_ns \(tenant_id=\? AND document_id=\?\)/);
    index = new SqliteChunkIndex(dir);
  });

  it("warm() loads every partition ahead of the first search while searches and writes go on", async () => {
    const docs = Array.from({ length: 520 }, (_, d) => ({ tenant: d < 500 ? "t1" : "t2", ns: d < 500 ? "ns1" : "ns0", id: `doc${d}` }));
    // Written t2 first: the warm-up takes the most recently written partition (t1's) first.
    for (const [d, doc] of [...docs.entries()].reverse())
      await index.replaceDocumentChunks(
        doc.tenant,
        doc.ns,
        doc.id,
        Array.from({ length: 4 }, (_, p) => chunk(doc.tenant, doc.ns, doc.id, p, `walrus ${d} tusk ${p} ${"ice floe ".repeat(p + 1)}`)),
        1,
      );
    await index.close();
    index = new SqliteChunkIndex(dir);
    const partitions = ["t1\u0000ns1", "t2\u0000ns0"];
    expect(partitions.some((p) => index.engine.isLoaded(p))).toBe(false);
    // Slices of 0 ms: the load pauses every few hundred chunks.
    const warming = index.warm(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(index.engine.isWarming(partitions[0]!)).toBe(true);
    // Meanwhile: writes, and a search (which loads what it needs at once).
    await index.replaceDocumentChunks("t1", "ns1", "new", [chunk("t1", "ns1", "new", 0, "narwhal horn")], 1);
    await index.deleteDocument("t1", "ns1", "doc1");
    expect((await search({ tenantId: "t2", namespaces: ["ns0"], text: "walrus tusk", limit: 3, denseWeight: 0 })).length).toBe(3);
    await warming;
    expect(partitions.every((p) => index.engine.isLoaded(p))).toBe(true);
    expect((await search({ tenantId: "t1", text: "narwhal", denseWeight: 0 })).map((h) => h.chunk.documentId)).toEqual(["new"]);
    const walruses = await search({ tenantId: "t1", namespaces: ["ns1"], text: "walrus", limit: 5000, denseWeight: 0 });
    expect(walruses.length).toBe(499 * 4);
    expect(walruses.some((h) => h.chunk.documentId === "doc1")).toBe(false);
  });

  it("within a memory budget: drops the least recently used partitions, reads them back on their next search with the same answers, and warms the most recent first", async () => {
    const budget = new PartitionBudget(1); // one byte: every partition but the current one's goes
    await index.close();
    index = new SqliteChunkIndex(dir, { budget });
    const words = ["walrus", "heron", "otter", "badger", "lynx"];
    for (let n = 0; n < 5; n++)
      for (let d = 0; d < 6; d++)
        await index.replaceDocumentChunks("t1", `ns${n}`, `doc${n}-${d}`, [chunk("t1", `ns${n}`, `doc${n}-${d}`, 0, `${words[n]} number ${d} of ${n}`)], 1);
    const key = (n: number) => `t1\u0000ns${n}`;
    const first: string[][] = [];
    for (let n = 0; n < 5; n++) {
      first.push((await search({ tenantId: "t1", namespaces: [`ns${n}`], text: `${words[n]} number 3` })).map((h) => h.chunk.documentId));
      expect([0, 1, 2, 3, 4].filter((k) => index.engine.isLoaded(key(k)))).toEqual([n]);
    }
    expect(first.map((ids) => ids[0])).toEqual(["doc0-3", "doc1-3", "doc2-3", "doc3-3", "doc4-3"]);
    expect(budget.stats()).toMatchObject({ partitions: 1, evictions: 4 });
    // A write to a partition not in memory is found once it is read back.
    await index.replaceDocumentChunks("t1", "ns0", "late", [chunk("t1", "ns0", "late", 0, "walrus number 3 arrived late")], 1);
    const again = (await search({ tenantId: "t1", namespaces: ["ns0"], text: "walrus number 3" })).map((h) => h.chunk.documentId);
    expect(again.sort()).toEqual([...first[0]!, "late"].sort());
    // A search over every container of the tenant holds them all for its own duration, then the next one drops them.
    expect((await search({ tenantId: "t1", text: "lynx number 5" }))[0]!.chunk.documentId).toBe("doc4-5");
    await search({ tenantId: "t1", namespaces: ["ns2"], text: "otter" });
    expect([0, 1, 2, 3, 4].filter((k) => index.engine.isLoaded(key(k)))).toEqual([2]);

    // At start, the warm-up loads the most recently written partitions while the budget has room.
    await index.close();
    const roomy = new PartitionBudget(1);
    index = new SqliteChunkIndex(dir, { budget: roomy });
    await index.warm();
    expect([0, 1, 2, 3, 4].filter((k) => index.engine.isLoaded(key(k)))).toEqual([0]); // ns0 got the last write
  });

  describe("saved partitions (a restart reads a large partition's saved copy instead of its rows)", () => {
    const snapshotDir = () => path.join(dir, "index-snapshots");
    const reopen = async () => {
      await index.close();
      index = new SqliteChunkIndex(dir, { snapshots: snapshotDir(), snapshotMinChunks: 10 });
    };
    const ranked = async (text: string, namespaces = ["ns1"]) =>
      (await search({ tenantId: "t1", namespaces, text, denseWeight: 0 })).map((h) => [h.chunk.id, h.chunk.documentId, h.score, h.similarity]);
    const write = (ns: string, id: string, text: string) =>
      index.replaceDocumentChunks(
        "t1",
        ns,
        id,
        [0, 1].map((p) => chunk("t1", ns, id, p, `${text} part ${p}`)),
        1,
      );

    it("saves partitions of enough chunks at close, answers the same from the copy after a restart, and never from a copy its rows no longer match", async () => {
      await reopen();
      for (let d = 0; d < 3; d++) await write("ns2", `small${d}`, `heron ${d}`);
      // doc11 written last: its rows have the largest ids of the table.
      for (let d = 0; d < 12; d++) await write("ns1", `doc${d}`, `walrus ${d} tusk ${"floe ".repeat(d % 3)}`);
      const before = await ranked("walrus tusk floe");
      await search({ tenantId: "t1", namespaces: ["ns2"], text: "heron" });
      await reopen();
      // One copy: ns1's 24 chunks; ns2 (6) is under the minimum.
      expect(fs.readdirSync(snapshotDir()).filter((f) => f.endsWith(".snap"))).toHaveLength(1);
      expect(await ranked("walrus tusk floe")).toEqual(before);
      expect(index.engine.loadCounts).toEqual({ restored: 1, fromStore: 0 });
      // Documents, metadata and filepaths come from the rows: filters still work on a restored partition.
      expect(
        (await search({ tenantId: "t1", namespaces: ["ns1"], text: "walrus", documentId: "doc4", denseWeight: 0 })).map((h) => h.chunk.documentId),
      ).toEqual(["doc4", "doc4"]);

      // Unchanged since restored: not written again at close.
      const saved = fs.statSync(path.join(snapshotDir(), fs.readdirSync(snapshotDir())[0]!)).mtimeMs;
      await reopen();
      expect(fs.statSync(path.join(snapshotDir(), fs.readdirSync(snapshotDir())[0]!)).mtimeMs).toBe(saved);

      // Rows changed while the partition was not in memory (the copy is now stale): the last document replaced
      // (SQLite gives its row ids again, so the ids alone would not tell).
      await write("ns1", "doc11", "narwhal horn");
      expect(index.engine.isLoaded("t1\u0000ns1")).toBe(false);
      await reopen();
      expect((await ranked("narwhal horn")).map((h) => h[1])).toEqual(["doc11", "doc11"]);
      expect(index.engine.loadCounts).toEqual({ restored: 0, fromStore: 1 });
      // A deletion likewise.
      await reopen();
      await index.deleteDocument("t1", "ns1", "doc0");
      await reopen();
      const now = await ranked("narwhal horn");
      expect((await ranked("walrus tusk floe")).map((h) => h[1])).not.toContain("doc0");
      expect(index.engine.loadCounts).toEqual({ restored: 0, fromStore: 1 });
      // Saved again at close (it changed), and restored from that.
      await reopen();
      expect(await ranked("narwhal horn")).toEqual(now);
      expect(index.engine.loadCounts.restored).toBe(1);
    });

    it("a metadata or filepath change is in the next restored copy, made while the partition was in memory or not", async () => {
      await reopen();
      for (let d = 0; d < 12; d++) await write("ns1", `doc${d}`, `walrus ${d}`);
      const tagged = async () =>
        (
          await search({ tenantId: "t1", namespaces: ["ns1"], text: "walrus", denseWeight: 0, filter: parseFilter({ AND: [{ key: "team", value: "red" }] }) })
        ).map((h) => h.chunk.documentId);
      expect(await tagged()).toEqual([]);
      await reopen();
      expect(await tagged()).toEqual([]);
      expect(index.engine.loadCounts).toEqual({ restored: 1, fromStore: 0 });
      // In memory: the engine's part does not change, the copy is saved again all the same (its version moved).
      await index.updateDocumentMetadata("t1", "doc3", { team: "red" }, new Date().toISOString());
      await reopen();
      expect(await tagged()).toEqual(["doc3", "doc3"]);
      expect(index.engine.loadCounts).toEqual({ restored: 1, fromStore: 0 });
      // Not in memory: the copy is stale and not used.
      await reopen();
      await index.updateDocumentMetadata("t1", "doc5", { team: "red" }, new Date().toISOString());
      await index.backfillFilepath("t1", "doc5", "/x/doc5.md");
      await reopen();
      expect((await tagged()).sort()).toEqual(["doc3", "doc3", "doc5", "doc5"]);
      expect(index.engine.loadCounts).toEqual({ restored: 0, fromStore: 1 });
    });

    it("a copy that cannot be written is reported and the store still closes", async () => {
      await reopen();
      for (let d = 0; d < 12; d++) await write("ns1", `doc${d}`, `walrus ${d}`);
      await ranked("walrus 7");
      fs.writeFileSync(snapshotDir(), "not a directory");
      const failures: string[] = [];
      expect(index.saveSnapshots((partition) => failures.push(partition))).toEqual({ partitions: 0, bytes: 0 });
      expect(failures).toEqual(["t1\u0000ns1"]);
      await index.close();
      fs.rmSync(snapshotDir());
      // Tried again at the next close, once the directory can be made.
      index = new SqliteChunkIndex(dir, { snapshots: snapshotDir(), snapshotMinChunks: 10 });
      await ranked("walrus 7");
      expect(index.saveSnapshots().partitions).toBe(1);
    });

    it("a damaged or unreadable copy costs only a load from the rows", async () => {
      await reopen();
      for (let d = 0; d < 12; d++) await write("ns1", `doc${d}`, `walrus ${d}`);
      const before = await ranked("walrus 7");
      await reopen();
      const file = path.join(
        snapshotDir(),
        fs.readdirSync(snapshotDir()).find((f) => f.endsWith(".snap"))!,
      );
      const bytes = fs.readFileSync(file);
      fs.writeFileSync(file, bytes.subarray(0, bytes.length >> 1));
      await reopen();
      expect(await ranked("walrus 7")).toEqual(before);
      expect(index.engine.loadCounts).toEqual({ restored: 0, fromStore: 1 });
    });
  });
});

describe("SqliteChunkIndex on data of the previous release", () => {
  it("backfills the stored analysis of old rows, drops FTS5 and finds them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-index-old-"));
    try {
      // The schema as the previous release left it (three migrations, FTS5 table, no terms column).
      const db = new Database(path.join(dir, "index.db"));
      db.exec(`CREATE TABLE chunks (
         rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
         tenant_id TEXT NOT NULL, namespace TEXT NOT NULL, document_id TEXT NOT NULL,
         position INTEGER NOT NULL, content TEXT NOT NULL,
         start_offset INTEGER NOT NULL, end_offset INTEGER NOT NULL, token_count INTEGER NOT NULL,
         doc TEXT NOT NULL, created_at TEXT NOT NULL, vector BLOB NOT NULL);
       CREATE INDEX chunks_by_document ON chunks (tenant_id, namespace, document_id, position);
       CREATE VIRTUAL TABLE chunks_fts USING fts5(terms, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
       ALTER TABLE chunks ADD COLUMN model TEXT NOT NULL DEFAULT '';
       CREATE INDEX chunks_by_document_id ON chunks (tenant_id, document_id);
       PRAGMA user_version = 3;`);
      const c = chunk("t1", "ns", "old-doc", 0, "Legacy rows about migrating herons");
      const v = c.vector;
      db.prepare(
        `INSERT INTO chunks (id, tenant_id, namespace, document_id, position, content, start_offset, end_offset, token_count, doc, created_at, vector, model)
         VALUES (?, 't1', 'ns', 'old-doc', 0, ?, 0, 10, 5, ?, ?, ?, '')`,
      ).run(c.id, c.content, JSON.stringify(c.document), c.createdAt, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
      db.close();

      const index = new SqliteChunkIndex(dir);
      const hits = await index.search({ tenantId: "t1", text: "heron migration", vector: embedder.embedOne("heron migration"), limit: 5 });
      expect(hits.map((h) => h.chunk.documentId)).toEqual(["old-doc"]);
      expect(hits[0]!.chunk.document.metadata).toEqual({ source: "test", n: 0 });
      await index.close();
      const check = new Database(path.join(dir, "index.db"));
      expect(check.prepare("SELECT terms FROM chunks").get()).toEqual({ terms: "legaci row migrat heron" });
      expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'chunks_fts'").all()).toEqual([]);
      check.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
