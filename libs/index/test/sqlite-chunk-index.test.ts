import { parseFilter } from "@engram/filters";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChunkSearchQuery, IndexedChunk } from "../src/chunk-index";
import { HashingEmbedder } from "../src/embedder";
import { SqliteChunkIndex } from "../src/sqlite-chunk-index";
import Database from "better-sqlite3";

const embedder = new HashingEmbedder(128);
let seq = 0;

function chunk(tenantId: string, namespace: string, documentId: string, position: number, content: string): IndexedChunk {
  return {
    id: `c_test${++seq}`,
    tenantId,
    namespace,
    documentId,
    position,
    content,
    startOffset: position * 100,
    endOffset: position * 100 + content.length,
    tokenCount: content.split(/\s+/).length,
    vector: embedder.embedOne(content),
    document: {
      title: `${documentId} title`,
      contentType: "text",
      customId: `custom-${documentId}`,
      metadata: { source: "test", n: position },
      createdAt: "2024-01-01T00:00:00.000Z",
      updatedAt: "2024-01-02T00:00:00.000Z",
    },
    createdAt: "2024-01-03T00:00:00.000Z",
  };
}

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

  it("stores chunks with their document fields and lists them by position", async () => {
    await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 1, "second part"), chunk("t1", "ns", "doc1", 0, "first part")]);
    const listed = await index.listDocumentChunks("t1", "ns", "doc1");
    expect(listed.map((c) => c.content)).toEqual(["first part", "second part"]);
    expect(listed[0]).toMatchObject({ tenantId: "t1", namespace: "ns", documentId: "doc1", position: 0, startOffset: 0, endOffset: 10 });
    expect(listed[0]!.document).toEqual({
      title: "doc1 title",
      contentType: "text",
      customId: "custom-doc1",
      metadata: { source: "test", n: 0 },
      createdAt: "2024-01-01T00:00:00.000Z",
      updatedAt: "2024-01-02T00:00:00.000Z",
    });
    expect(listed[0]).not.toHaveProperty("vector");
  });

  it("replaceDocumentChunks replaces: the second call leaves only the new chunks", async () => {
    await index.replaceDocumentChunks("t1", "ns", "doc1", [
      chunk("t1", "ns", "doc1", 0, "zebras graze on savanna grass"),
      chunk("t1", "ns", "doc1", 1, "lions hunt at dusk"),
    ]);
    await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "penguins swim in cold water")]);
    expect((await index.listDocumentChunks("t1", "ns", "doc1")).map((c) => c.content)).toEqual(["penguins swim in cold water"]);
    expect(await search({ tenantId: "t1", text: "zebras savanna" })).toEqual([]);
    expect(await search({ tenantId: "t1", text: "lions" })).toEqual([]);
    const hits = await search({ tenantId: "t1", text: "penguins" });
    expect(hits.map((h) => h.chunk.content)).toEqual(["penguins swim in cold water"]);
  });

  it("replacing one document leaves other documents alone", async () => {
    await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "alpha content")]);
    await index.replaceDocumentChunks("t1", "ns", "doc2", [chunk("t1", "ns", "doc2", 0, "beta content")]);
    await index.replaceDocumentChunks("t1", "ns", "doc1", []);
    expect(await index.listDocumentChunks("t1", "ns", "doc1")).toEqual([]);
    expect((await index.listDocumentChunks("t1", "ns", "doc2")).map((c) => c.content)).toEqual(["beta content"]);
  });

  it("rejects chunks whose scope does not match the document, atomically", async () => {
    await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "kept")]);
    await expect(
      index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "new"), chunk("t2", "ns", "doc1", 1, "foreign")]),
    ).rejects.toThrow(/scope/);
    expect((await index.listDocumentChunks("t1", "ns", "doc1")).map((c) => c.content)).toEqual(["kept"]);
  });

  it("search finds chunks by keyword, stemmed, with scores and similarity in [0, 1]", async () => {
    await index.replaceDocumentChunks("t1", "ns", "doc1", [
      chunk("t1", "ns", "doc1", 0, "Sarah is being promoted to VP of Product."),
      chunk("t1", "ns", "doc1", 1, "The office kitchen has a new coffee machine."),
    ]);
    await index.replaceDocumentChunks("t1", "ns", "doc2", [chunk("t1", "ns", "doc2", 0, "Our API rate limit is 100 requests per minute.")]);
    const hits = await search({ tenantId: "t1", text: "promotion of Sarah" });
    expect(hits[0]!.chunk.content).toBe("Sarah is being promoted to VP of Product.");
    expect(hits[0]!.keywordScore).toBeGreaterThan(0);
    for (const h of hits) {
      expect(h.similarity).toBeGreaterThanOrEqual(0);
      expect(h.similarity).toBeLessThanOrEqual(1);
    }
    const rate = await search({ tenantId: "t1", text: "rate limits" });
    expect(rate[0]!.chunk.documentId).toBe("doc2");
  });

  it("respects the limit", async () => {
    await index.replaceDocumentChunks(
      "t1",
      "ns",
      "doc1",
      Array.from({ length: 10 }, (_, i) => chunk("t1", "ns", "doc1", i, `widget number ${i} specification`)),
    );
    expect(await search({ tenantId: "t1", text: "widget specification", limit: 3 })).toHaveLength(3);
  });

  describe("isolation", () => {
    const text = "The launch code for project nightingale is 4242.";
    beforeEach(async () => {
      for (const [tenant, ns] of [
        ["acme", "alpha"],
        ["acme", "beta"],
        ["globex", "alpha"],
      ] as const) {
        // Document ids are unique per tenant; identical content lives in each namespace under its own id.
        await index.replaceDocumentChunks(tenant, ns, `shared-doc-${ns}`, [chunk(tenant, ns, `shared-doc-${ns}`, 0, text)]);
        await index.replaceDocumentChunks(tenant, ns, `${ns}-only`, [chunk(tenant, ns, `${ns}-only`, 0, `${text} (copy in ${ns})`)]);
      }
    });

    it("never returns chunks of another tenant", async () => {
      for (const tenant of ["acme", "globex"]) {
        const hits = await search({ tenantId: tenant, text: "launch code nightingale" });
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.every((h) => h.chunk.tenantId === tenant)).toBe(true);
      }
      expect(await search({ tenantId: "initech", text: "launch code nightingale" })).toEqual([]);
    });

    it("never returns chunks of another namespace", async () => {
      const alpha = await search({ tenantId: "acme", namespaces: ["alpha"], text: "launch code nightingale" });
      expect(alpha).toHaveLength(2);
      expect(alpha.every((h) => h.chunk.namespace === "alpha" && h.chunk.tenantId === "acme")).toBe(true);

      const both = await search({ tenantId: "acme", namespaces: ["alpha", "beta"], text: "launch code nightingale" });
      expect(new Set(both.map((h) => h.chunk.namespace))).toEqual(new Set(["alpha", "beta"]));
      expect(both.every((h) => h.chunk.tenantId === "acme")).toBe(true);

      const all = await search({ tenantId: "acme", text: "launch code nightingale" });
      expect(all).toHaveLength(4);
    });

    it("an empty namespace list or an unknown namespace finds nothing", async () => {
      expect(await search({ tenantId: "acme", namespaces: [], text: "launch code" })).toEqual([]);
      expect(await search({ tenantId: "acme", namespaces: ["gamma"], text: "launch code" })).toEqual([]);
    });

    it("vector-only matches respect the scope too", async () => {
      // No keyword overlap; only the dense side can match.
      const hits = await index.search({ tenantId: "globex", namespaces: ["alpha"], text: "zzzz", vector: embedder.embedOne(text), limit: 20 });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => h.chunk.tenantId === "globex" && h.chunk.namespace === "alpha")).toBe(true);
      expect(hits.every((h) => h.keywordScore === 0)).toBe(true);
    });

    it("documentId restricts the search to that document", async () => {
      const hits = await search({ tenantId: "acme", namespaces: ["alpha"], documentId: "shared-doc-alpha", text: "launch code nightingale" });
      expect(hits).toHaveLength(1);
      expect(hits[0]!.chunk).toMatchObject({ tenantId: "acme", namespace: "alpha", documentId: "shared-doc-alpha" });
      expect(await search({ tenantId: "acme", namespaces: ["alpha"], documentId: "no-such-doc", text: "launch code" })).toEqual([]);
    });
  });

  it("grouped search reads back the first documents' best chunks, in rank order, as grouping the full ranking would", async () => {
    const words = ["apple", "banana", "cherry", "grape", "melon"];
    for (let d = 0; d < 8; d++)
      await index.replaceDocumentChunks(
        "t1",
        "ns",
        `doc${d}`,
        Array.from({ length: 4 }, (_, p) =>
          chunk("t1", "ns", `doc${d}`, p, `${words.slice(0, 1 + ((d + p) % 5)).join(" ")} orchard ${"filler ".repeat(1 + ((d * 3 + p) % 7))}`),
        ),
      );
    const all = await search({ tenantId: "t1", text: "apple banana cherry grape", limit: 50, denseWeight: 0 });
    expect(all.length).toBe(32);
    const grouped = (documents: number, chunksPerDocument: number, minSimilarity?: number) => {
      const kept: typeof all = [];
      const perDoc = new Map<string, number>();
      for (const h of all) {
        if (minSimilarity !== undefined && h.similarity < minSimilarity) continue;
        const n = perDoc.get(h.chunk.documentId) ?? 0;
        if (n === 0 ? perDoc.size >= documents : n >= chunksPerDocument) continue;
        perDoc.set(h.chunk.documentId, n + 1);
        kept.push(h);
      }
      return kept;
    };
    for (const [documents, chunksPerDocument, minSimilarity] of [
      [3, 1, undefined],
      [3, 2, undefined],
      [5, Infinity, 0.5],
      [100, 1, 0.9],
    ] as const) {
      const got = await search({
        tenantId: "t1",
        text: "apple banana cherry grape",
        limit: 50,
        denseWeight: 0,
        minSimilarity,
        group: { documents, chunksPerDocument },
      });
      expect(got).toEqual(grouped(documents, chunksPerDocument, minSimilarity));
      expect(new Set(got.map((h) => h.chunk.documentId)).size).toBe(
        Math.min(documents, new Set(grouped(Infinity, 1, minSimilarity).map((h) => h.chunk.documentId)).size),
      );
    }
    expect(
      (await search({ tenantId: "t1", text: "apple banana cherry grape", limit: 50, denseWeight: 0, group: { documents: 3, chunksPerDocument: 1 } })).length,
    ).toBe(3);
    expect(
      (await search({ tenantId: "t1", text: "apple banana cherry grape", limit: 50, denseWeight: 0, minSimilarity: 0.5 })).every((h) => h.similarity >= 0.5),
    ).toBe(true);
  });

  it("warm() loads every partition ahead of the first search while searches and writes go on", async () => {
    const docs = Array.from({ length: 520 }, (_, d) => ({ tenant: d < 500 ? "t1" : "t2", ns: d < 500 ? "ns1" : "ns0", id: `doc${d}` }));
    for (const [d, doc] of docs.entries())
      await index.replaceDocumentChunks(
        doc.tenant,
        doc.ns,
        doc.id,
        Array.from({ length: 4 }, (_, p) => chunk(doc.tenant, doc.ns, doc.id, p, `walrus ${d} tusk ${p} ${"ice floe ".repeat(p + 1)}`)),
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
    await index.replaceDocumentChunks("t1", "ns1", "new", [chunk("t1", "ns1", "new", 0, "narwhal horn")]);
    await index.deleteDocument("t1", "ns1", "doc1");
    expect((await search({ tenantId: "t2", namespaces: ["ns0"], text: "walrus tusk", limit: 3, denseWeight: 0 })).length).toBe(3);
    await warming;
    expect(partitions.every((p) => index.engine.isLoaded(p))).toBe(true);
    expect((await search({ tenantId: "t1", text: "narwhal", denseWeight: 0 })).map((h) => h.chunk.documentId)).toEqual(["new"]);
    const walruses = await search({ tenantId: "t1", namespaces: ["ns1"], text: "walrus", limit: 5000, denseWeight: 0 });
    expect(walruses.length).toBe(499 * 4);
    expect(walruses.some((h) => h.chunk.documentId === "doc1")).toBe(false);
  });

  it("deleteDocument removes the document from keyword and vector search", async () => {
    const text = "Quarterly revenue grew by twelve percent.";
    await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, text), chunk("t1", "ns", "doc1", 1, "Costs stayed flat.")]);
    await index.replaceDocumentChunks("t1", "other", "doc2", [chunk("t1", "other", "doc2", 0, text)]);
    expect(await index.deleteDocument("t1", "ns", "doc1")).toBe(2);
    expect(await index.deleteDocument("t1", "ns", "doc1")).toBe(0);

    const keyword = await search({ tenantId: "t1", namespaces: ["ns"], text: "quarterly revenue" });
    expect(keyword).toEqual([]);
    const dense = await index.search({ tenantId: "t1", namespaces: ["ns"], text: "", vector: embedder.embedOne(text), limit: 10 });
    expect(dense).toEqual([]);
    expect(await index.listDocumentChunks("t1", "ns", "doc1")).toEqual([]);
    // The same text in another namespace (another document) is untouched.
    expect((await search({ tenantId: "t1", namespaces: ["other"], text: "quarterly revenue" })).map((h) => h.chunk.namespace)).toEqual(["other"]);
  });

  it("re-indexing a document under another namespace moves it (no copy stays behind)", async () => {
    await index.replaceDocumentChunks("t1", "old", "doc1", [chunk("t1", "old", "doc1", 0, "migrating albatross colonies")]);
    await index.replaceDocumentChunks("t1", "new", "doc1", [chunk("t1", "new", "doc1", 0, "migrating albatross colonies")]);
    expect(await search({ tenantId: "t1", namespaces: ["old"], text: "albatross" })).toEqual([]);
    expect((await search({ tenantId: "t1", namespaces: ["new"], text: "albatross" })).map((h) => h.chunk.documentId)).toEqual(["doc1"]);
  });

  it("filters by document metadata and follows metadata updates", async () => {
    const meta = (m: Record<string, string | number>) => (c: ReturnType<typeof chunk>) => ({ ...c, document: { ...c.document, metadata: m } });
    await index.replaceDocumentChunks("t1", "ns", "a", [meta({ team: "red", year: 2023 })(chunk("t1", "ns", "a", 0, "pelican survey results"))]);
    await index.replaceDocumentChunks("t1", "ns", "b", [meta({ team: "blue", year: 2024 })(chunk("t1", "ns", "b", 0, "pelican survey results"))]);
    const filtered = (filter: unknown) =>
      index.search({ tenantId: "t1", text: "pelican survey", vector: embedder.embedOne("pelican survey"), limit: 10, filter: parseFilter(filter) });
    expect((await filtered({ AND: [{ key: "team", value: "red" }] })).map((h) => h.chunk.documentId)).toEqual(["a"]);
    expect((await filtered({ AND: [{ key: "year", value: "2023", filterType: "numeric", numericOperator: ">" }] })).map((h) => h.chunk.documentId)).toEqual([
      "b",
    ]);
    expect(await index.updateDocumentMetadata("t1", "b", { team: "red" }, "2025-01-01T00:00:00.000Z")).toBe(1);
    expect((await filtered({ AND: [{ key: "team", value: "red" }] })).map((h) => h.chunk.documentId).sort()).toEqual(["a", "b"]);
  });

  it("data survives reopening the index", async () => {
    await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "persistent giraffe facts")]);
    await index.close();
    index = new SqliteChunkIndex(dir);
    expect((await search({ tenantId: "t1", text: "giraffe" })).map((h) => h.chunk.content)).toEqual(["persistent giraffe facts"]);
  });

  it("a filtered search returns `limit` accepted chunks even when better chunks are filtered out", async () => {
    const withMeta = (c: IndexedChunk, team: string) => ({ ...c, document: { ...c.document, metadata: { team } } });
    for (let d = 0; d < 30; d++)
      await index.replaceDocumentChunks("t1", "ns", `red${d}`, [withMeta(chunk("t1", "ns", `red${d}`, 0, "orbital mechanics orbital mechanics"), "red")]);
    for (let d = 0; d < 4; d++)
      await index.replaceDocumentChunks("t1", "ns", `blue${d}`, [
        withMeta(chunk("t1", "ns", `blue${d}`, 0, `a long note that mentions orbital mechanics once among many other words ${d}`), "blue"),
      ]);
    const hits = await index.search({
      tenantId: "t1",
      text: "orbital mechanics",
      vector: embedder.embedOne("orbital mechanics"),
      denseWeight: 0,
      limit: 3,
      filter: parseFilter({ key: "team", value: "blue" }),
    });
    expect(hits).toHaveLength(3);
    expect(hits.every((h) => h.chunk.documentId.startsWith("blue"))).toBe(true);
  });

  it("search sees writes made after its partition was loaded (replace, delete, metadata)", async () => {
    await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "walrus tusks")]);
    expect((await search({ tenantId: "t1", text: "walrus" })).map((h) => h.chunk.documentId)).toEqual(["doc1"]);
    await index.replaceDocumentChunks("t1", "ns", "doc2", [chunk("t1", "ns", "doc2", 0, "walrus colony on ice floes")]);
    expect((await search({ tenantId: "t1", text: "walrus" })).map((h) => h.chunk.documentId).sort()).toEqual(["doc1", "doc2"]);
    await index.deleteDocument("t1", "ns", "doc1");
    expect((await search({ tenantId: "t1", text: "walrus" })).map((h) => h.chunk.documentId)).toEqual(["doc2"]);
    await index.updateDocumentMetadata("t1", "doc2", { kind: "field-notes" }, "2025-01-01T00:00:00.000Z");
    const filtered = await search({ tenantId: "t1", text: "walrus", filter: parseFilter({ key: "kind", value: "field-notes" }) });
    expect(filtered.map((h) => h.chunk.documentId)).toEqual(["doc2"]);
    expect(filtered[0]!.chunk.document.metadata).toEqual({ kind: "field-notes" });
  });

  it("a second index on the same file (another process) sees the first one's writes", async () => {
    const other = new SqliteChunkIndex(dir);
    try {
      expect(await other.search({ tenantId: "t1", text: "narwhal", vector: embedder.embedOne("narwhal"), limit: 5 })).toEqual([]);
      await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "narwhal horn")]);
      const hits = await other.search({ tenantId: "t1", text: "narwhal", vector: embedder.embedOne("narwhal"), limit: 5 });
      expect(hits.map((h) => h.chunk.documentId)).toEqual(["doc1"]);
    } finally {
      await other.close();
    }
  });

  it("only vectors of the query's model join the dense ranking", async () => {
    const tagged = (c: IndexedChunk, model: string) => ({ ...c, model });
    const text = "completely unrelated words";
    await index.replaceDocumentChunks("t1", "ns", "m1", [tagged(chunk("t1", "ns", "m1", 0, text), "model-a")]);
    await index.replaceDocumentChunks("t1", "ns", "m2", [tagged(chunk("t1", "ns", "m2", 0, text), "model-b")]);
    const q = (model: string) => index.search({ tenantId: "t1", text: "zzz", vector: embedder.embedOne(text), model, denseWeight: 0.5, limit: 5 });
    expect((await q("model-a")).map((h) => h.chunk.documentId)).toEqual(["m1"]);
    expect((await q("model-b")).map((h) => h.chunk.documentId)).toEqual(["m2"]);
    expect(await q("model-c")).toEqual([]);
  });

  describe("listChunks", () => {
    beforeEach(async () => {
      const at = (c: IndexedChunk, createdAt: string, team: string) => ({ ...c, createdAt, document: { ...c.document, metadata: { team } } });
      await index.replaceDocumentChunks("t1", "ns", "b", [
        at(chunk("t1", "ns", "b", 1, "b1"), "2024-02-01", "red"),
        at(chunk("t1", "ns", "b", 0, "b0"), "2024-02-01", "red"),
      ]);
      await index.replaceDocumentChunks("t1", "ns", "a", [at(chunk("t1", "ns", "a", 0, "a0"), "2024-02-01", "blue")]);
      await index.replaceDocumentChunks("t1", "ns", "c", [at(chunk("t1", "ns", "c", 0, "c0"), "2024-01-01", "red")]);
      await index.replaceDocumentChunks("t1", "other", "d", [at(chunk("t1", "other", "d", 0, "d0"), "2024-01-01", "red")]);
      await index.replaceDocumentChunks("t2", "ns", "e", [at(chunk("t2", "ns", "e", 0, "e0"), "2024-01-01", "red")]);
    });
    const list = (more: Partial<Parameters<SqliteChunkIndex["listChunks"]>[0]> = {}) =>
      index.listChunks({ tenantId: "t1", namespace: "ns", offset: 0, limit: 10, order: "asc", ...more });

    it("orders by creation date, then document, then position, in the namespace only", async () => {
      const all = await list();
      expect(all.total).toBe(4);
      expect(all.items.map((c) => c.content)).toEqual(["c0", "a0", "b0", "b1"]);
      expect(all.items[0]).not.toHaveProperty("vector");
      expect((await list({ order: "desc" })).items.map((c) => c.content)).toEqual(["b1", "b0", "a0", "c0"]);
    });

    it("pages with offset and limit and counts every match", async () => {
      const page = await list({ offset: 1, limit: 2 });
      expect(page).toMatchObject({ total: 4 });
      expect(page.items.map((c) => c.content)).toEqual(["a0", "b0"]);
      expect((await list({ offset: 10 })).items).toEqual([]);
    });

    it("filters by document metadata", async () => {
      const red = await list({ filter: parseFilter({ key: "team", value: "red" }), offset: 1, limit: 1 });
      expect(red.total).toBe(3);
      expect(red.items.map((c) => c.content)).toEqual(["b0"]);
    });
  });

  it("queries with quotes and FTS operators do not throw and still match the words", async () => {
    await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "foo fighters play bar music")]);
    for (const q of ['foo" OR bar*', '"unbalanced', "NEAR(foo bar)", "foo AND NOT bar", "col:foo ^bar", "-foo +bar", "*", '""', "(((", "foo' OR '1'='1"]) {
      await expect(search({ tenantId: "t1", text: q })).resolves.toBeDefined();
    }
    const hits = await search({ tenantId: "t1", text: 'foo" OR bar*' });
    expect(hits.map((h) => h.chunk.documentId)).toEqual(["doc1"]);
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
