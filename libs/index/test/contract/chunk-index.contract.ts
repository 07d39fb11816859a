import { type FilterExpr, matchesFilter, parseFilter } from "@engram/filters";
import type { JsonObject } from "@engram/kernel";
import type { ChunkIndex, ChunkSearchQuery, IndexedChunk, ListChunksQuery } from "../../src/chunk-index";
import { HashingEmbedder } from "../../src/embedder";

/**
 * The behaviour every `ChunkIndex` adapter shares, declared once and run
 * against each (embedded SQLite + engine, Qdrant). Where engines legitimately
 * differ (exact scores), the tests assert on behaviour: what is returned, what
 * is not, and the order of clearly relevant against irrelevant chunks.
 */
/** A chunk of a test document with fixed document fields (metadata `{ source: "test", n: position }`). */
export function testChunk(
  embedder: HashingEmbedder,
  id: string,
  tenantId: string,
  namespace: string,
  documentId: string,
  position: number,
  content: string,
): IndexedChunk {
  return {
    id,
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

export interface ChunkIndexHarness {
  /** Dimensions of the vectors the tests write (the harness's store must accept them). */
  readonly dimensions: number;
  /** Prepares a new, empty store for one test. */
  fresh(): Promise<void>;
  /** Opens an index on the current store; called again, it is another process (or a restart) on the same data. */
  open(): Promise<ChunkIndex>;
  /** Removes the current store (every index opened on it is closed first). */
  dispose(): Promise<void>;
  /**
   * Makes every chunk stored look as an earlier release wrote it, before chunks carried their document's filepath
   * (what the store's migration on open finds); indexes opened afterwards see the change.
   */
  forgetFilepaths(): Promise<void>;
}

export function chunkIndexContract(harness: ChunkIndexHarness): void {
  const embedder = new HashingEmbedder(harness.dimensions);
  let seq = 0;
  let index: ChunkIndex;
  const opened: ChunkIndex[] = [];

  const open = async () => {
    const ix = await harness.open();
    opened.push(ix);
    return ix;
  };

  const chunk = (tenantId: string, namespace: string, documentId: string, position: number, content: string): IndexedChunk =>
    testChunk(embedder, `c_test${++seq}`, tenantId, namespace, documentId, position, content);

  const withMeta = (c: IndexedChunk, metadata: JsonObject | undefined): IndexedChunk => ({ ...c, document: { ...c.document, metadata } });
  const atPath = (c: IndexedChunk, filepath: string | undefined): IndexedChunk => ({ ...c, document: { ...c.document, filepath } });

  const search = (q: Omit<ChunkSearchQuery, "vector" | "limit"> & { limit?: number }) => index.search({ limit: 20, vector: embedder.embedOne(q.text), ...q });
  const docIds = (hits: { chunk: { documentId: string } }[]) => hits.map((h) => h.chunk.documentId);

  beforeEach(async () => {
    await harness.fresh();
    index = await open();
  });

  afterEach(async () => {
    for (const ix of opened.splice(0)) await ix.close();
    await harness.dispose();
  });

  describe("writes and reads", () => {
    it("stores chunks with their document fields and lists them by position", async () => {
      await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 1, "second part"), chunk("t1", "ns", "doc1", 0, "first part")], 1);
      const listed = await index.listDocumentChunks("t1", "ns", "doc1");
      expect(listed.map((c) => c.content)).toEqual(["first part", "second part"]);
      expect(listed[0]).toMatchObject({ tenantId: "t1", namespace: "ns", documentId: "doc1", position: 0, startOffset: 0, endOffset: 10, tokenCount: 2 });
      expect(listed[0]!.id).toMatch(/^c_test/);
      expect(listed[0]!.createdAt).toBe("2024-01-03T00:00:00.000Z");
      expect(listed[0]!.document).toEqual({
        title: "doc1 title",
        contentType: "text",
        customId: "custom-doc1",
        metadata: { source: "test", n: 0 },
        createdAt: "2024-01-01T00:00:00.000Z",
        updatedAt: "2024-01-02T00:00:00.000Z",
      });
      expect(listed[0]).not.toHaveProperty("vector");
      expect(await index.listDocumentChunks("t1", "other", "doc1")).toEqual([]);
      expect(await index.listDocumentChunks("t2", "ns", "doc1")).toEqual([]);
    });

    it("replaceDocumentChunks replaces: the second call leaves only the new chunks", async () => {
      await index.replaceDocumentChunks(
        "t1",
        "ns",
        "doc1",
        [chunk("t1", "ns", "doc1", 0, "zebras graze on savanna grass"), chunk("t1", "ns", "doc1", 1, "lions hunt at dusk")],
        1,
      );
      await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "penguins swim in cold water")], 1);
      expect((await index.listDocumentChunks("t1", "ns", "doc1")).map((c) => c.content)).toEqual(["penguins swim in cold water"]);
      expect(await search({ tenantId: "t1", text: "zebras savanna" })).toEqual([]);
      expect(await search({ tenantId: "t1", text: "lions" })).toEqual([]);
      const hits = await search({ tenantId: "t1", text: "penguins" });
      expect(hits.map((h) => h.chunk.content)).toEqual(["penguins swim in cold water"]);
    });

    it("replacing with the same chunks again (a redelivery) changes nothing", async () => {
      const chunks = [chunk("t1", "ns", "doc1", 0, "idempotent heron notes"), chunk("t1", "ns", "doc1", 1, "more heron notes")];
      await index.replaceDocumentChunks("t1", "ns", "doc1", chunks, 1);
      await index.replaceDocumentChunks("t1", "ns", "doc1", chunks, 1);
      expect((await index.listDocumentChunks("t1", "ns", "doc1")).map((c) => c.id)).toEqual(chunks.map((c) => c.id));
      expect((await search({ tenantId: "t1", text: "heron" })).length).toBe(2);
    });

    it("replacing one document leaves other documents alone", async () => {
      await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "alpha content")], 1);
      await index.replaceDocumentChunks("t1", "ns", "doc2", [chunk("t1", "ns", "doc2", 0, "beta content")], 1);
      await index.replaceDocumentChunks("t1", "ns", "doc1", [], 1);
      expect(await index.listDocumentChunks("t1", "ns", "doc1")).toEqual([]);
      expect((await index.listDocumentChunks("t1", "ns", "doc2")).map((c) => c.content)).toEqual(["beta content"]);
    });

    it("generations: a late write of an older generation (an evicted worker) is refused and changes nothing", async () => {
      expect(await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "second generation about otters")], 2)).toBe("written");
      // The worker of generation 1, evicted by a rebalance, finishes late.
      expect(
        await index.replaceDocumentChunks(
          "t1",
          "ns",
          "doc1",
          [chunk("t1", "ns", "doc1", 0, "first generation about beavers"), chunk("t1", "ns", "doc1", 1, "more beavers")],
          1,
        ),
      ).toBe("stale");
      expect((await index.listDocumentChunks("t1", "ns", "doc1")).map((c) => c.content)).toEqual(["second generation about otters"]);
      expect(await search({ tenantId: "t1", text: "beavers" })).toEqual([]);
      expect(docIds(await search({ tenantId: "t1", text: "otters" }))).toEqual(["doc1"]);
      // Nor can it move the document to another namespace.
      expect(await index.replaceDocumentChunks("t1", "elsewhere", "doc1", [chunk("t1", "elsewhere", "doc1", 0, "beavers elsewhere")], 1)).toBe("stale");
      expect(await index.listDocumentChunks("t1", "elsewhere", "doc1")).toEqual([]);
      // Newer generations replace; other documents have generations of their own.
      expect(await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "third generation about seals")], 3)).toBe("written");
      expect(await index.replaceDocumentChunks("t1", "ns", "doc2", [chunk("t1", "ns", "doc2", 0, "another document")], 1)).toBe("written");
      expect((await index.listDocumentChunks("t1", "ns", "doc1")).map((c) => c.content)).toEqual(["third generation about seals"]);
      await expect(index.replaceDocumentChunks("t1", "ns", "doc1", [], -1)).rejects.toThrow(/generation/);
    });

    it("generations: a delete keeps the newest generation, so a late older write does not bring the document back", async () => {
      await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "walrus tusks")], 4);
      expect(await index.deleteDocument("t1", "ns", "doc1")).toBe(1);
      expect(await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "walrus tusks again")], 3)).toBe("stale");
      expect(await index.listDocumentChunks("t1", "ns", "doc1")).toEqual([]);
      expect(await search({ tenantId: "t1", text: "walrus" })).toEqual([]);
    });

    it("generations: a delete covers its generation: a late write of it is refused, new content of the next generation is written", async () => {
      await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "narwhal horns")], 5);
      expect(await index.deleteDocument("t1", "ns", "doc1", 5)).toBe(1);
      // The worker of generation 5, evicted by a rebalance, finishes its write after the delete.
      expect(await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "narwhal horns late")], 5)).toBe("stale");
      expect(await index.listDocumentChunks("t1", "ns", "doc1")).toEqual([]);
      expect(await search({ tenantId: "t1", text: "narwhal" })).toEqual([]);
      // Content withdrawn at generation 5 comes back with generation 6.
      expect(await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "narwhal tusks, new content")], 6)).toBe("written");
      expect((await index.listDocumentChunks("t1", "ns", "doc1")).map((c) => c.content)).toEqual(["narwhal tusks, new content"]);
      // A late delete of generation 5 leaves generation 6 alone.
      expect(await index.deleteDocument("t1", "ns", "doc1", 5)).toBe(0);
      expect(await index.listDocumentChunks("t1", "ns", "doc1")).toHaveLength(1);
      // A delete without a generation covers every generation.
      await index.deleteDocument("t1", "ns", "doc1");
      expect(await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "narwhal again")], 7)).toBe("stale");
      expect(await index.listDocumentChunks("t1", "ns", "doc1")).toEqual([]);
    });

    it("rejects chunks whose scope does not match the document, atomically", async () => {
      await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "kept")], 1);
      await expect(
        index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "new"), chunk("t2", "ns", "doc1", 1, "foreign")], 1),
      ).rejects.toThrow(/scope/);
      expect((await index.listDocumentChunks("t1", "ns", "doc1")).map((c) => c.content)).toEqual(["kept"]);
    });

    it("re-indexing a document under another namespace moves it (no copy stays behind)", async () => {
      await index.replaceDocumentChunks("t1", "old", "doc1", [chunk("t1", "old", "doc1", 0, "migrating albatross colonies")], 1);
      await index.replaceDocumentChunks("t1", "new", "doc1", [chunk("t1", "new", "doc1", 0, "migrating albatross colonies")], 1);
      expect(await search({ tenantId: "t1", namespaces: ["old"], text: "albatross" })).toEqual([]);
      expect(await index.listDocumentChunks("t1", "old", "doc1")).toEqual([]);
      expect(docIds(await search({ tenantId: "t1", namespaces: ["new"], text: "albatross" }))).toEqual(["doc1"]);
    });

    it("deleteDocument removes the document from keyword and vector search, in its namespace only", async () => {
      const text = "Quarterly revenue grew by twelve percent.";
      await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, text), chunk("t1", "ns", "doc1", 1, "Costs stayed flat.")], 1);
      await index.replaceDocumentChunks("t1", "other", "doc2", [chunk("t1", "other", "doc2", 0, text)], 1);
      expect(await index.deleteDocument("t1", "other", "doc1")).toBe(0);
      expect(await index.deleteDocument("t2", "ns", "doc1")).toBe(0);
      expect(await index.listDocumentChunks("t1", "ns", "doc1")).toHaveLength(2);
      expect(await index.deleteDocument("t1", "ns", "doc1")).toBe(2);
      expect(await index.deleteDocument("t1", "ns", "doc1")).toBe(0);

      expect(await search({ tenantId: "t1", namespaces: ["ns"], text: "quarterly revenue" })).toEqual([]);
      const dense = await index.search({ tenantId: "t1", namespaces: ["ns"], text: "", vector: embedder.embedOne(text), limit: 10 });
      expect(dense).toEqual([]);
      expect(await index.listDocumentChunks("t1", "ns", "doc1")).toEqual([]);
      // The same text in another namespace (another document) is untouched.
      expect((await search({ tenantId: "t1", namespaces: ["other"], text: "quarterly revenue" })).map((h) => h.chunk.namespace)).toEqual(["other"]);
    });

    it("data survives reopening the index, and a second index on the same store sees the first one's writes", async () => {
      await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "persistent giraffe facts")], 1);
      const other = await open();
      expect((await other.search({ tenantId: "t1", text: "giraffe", vector: embedder.embedOne("giraffe"), limit: 5 })).map((h) => h.chunk.content)).toEqual([
        "persistent giraffe facts",
      ]);
      expect(await other.search({ tenantId: "t1", text: "narwhal", vector: embedder.embedOne("narwhal"), limit: 5 })).toEqual([]);
      await index.replaceDocumentChunks("t1", "ns", "doc2", [chunk("t1", "ns", "doc2", 0, "narwhal horn")], 1);
      expect(docIds(await other.search({ tenantId: "t1", text: "narwhal", vector: embedder.embedOne("narwhal"), limit: 5 }))).toEqual(["doc2"]);
      await index.deleteDocument("t1", "ns", "doc2");
      expect(await other.search({ tenantId: "t1", text: "narwhal", vector: embedder.embedOne("narwhal"), limit: 5 })).toEqual([]);
    });
  });

  describe("search", () => {
    it("finds chunks by keyword, stemmed, with scores and similarity in [0, 1]", async () => {
      await index.replaceDocumentChunks(
        "t1",
        "ns",
        "doc1",
        [
          chunk("t1", "ns", "doc1", 0, "Sarah is being promoted to VP of Product."),
          chunk("t1", "ns", "doc1", 1, "The office kitchen has a new coffee machine."),
        ],
        1,
      );
      await index.replaceDocumentChunks("t1", "ns", "doc2", [chunk("t1", "ns", "doc2", 0, "Our API rate limit is 100 requests per minute.")], 1);
      const hits = await search({ tenantId: "t1", text: "promotion of Sarah" });
      expect(hits[0]!.chunk.content).toBe("Sarah is being promoted to VP of Product.");
      expect(hits[0]!.keywordScore).toBeGreaterThan(0);
      expect(hits[0]!.similarity).toBe(1);
      for (const h of hits) {
        expect(h.similarity).toBeGreaterThanOrEqual(0);
        expect(h.similarity).toBeLessThanOrEqual(1);
      }
      const rate = await search({ tenantId: "t1", text: "rate limits" });
      expect(rate[0]!.chunk.documentId).toBe("doc2");
    });

    it("ranks the chunk holding the query's terms above chunks holding fewer or commoner ones", async () => {
      const filler = ["The weather report mentions rain.", "A report on quarterly sales.", "Sales of umbrellas rose in the rain."];
      await index.replaceDocumentChunks(
        "t1",
        "ns",
        "noise",
        filler.map((t, i) => chunk("t1", "ns", "noise", i, t)),
        1,
      );
      await index.replaceDocumentChunks("t1", "ns", "target", [chunk("t1", "ns", "target", 0, "The glacier report measured glacier retreat in the Alps.")], 1);
      await index.replaceDocumentChunks("t1", "ns", "partial", [chunk("t1", "ns", "partial", 0, "A glacier is a slow river of ice.")], 1);
      for (const denseWeight of [0, 0.5]) {
        const hits = await search({ tenantId: "t1", text: "glacier retreat report", denseWeight, model: "" });
        expect(docIds(hits).slice(0, 2)).toEqual(["target", "partial"]);
        expect(hits[0]!.similarity).toBe(1);
        expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
        // Chunks sharing only "report" follow; nothing without a query term or a similar vector is returned.
        for (const h of hits.slice(2)) expect(h.score).toBeLessThan(hits[1]!.score);
      }
    });

    it("respects the limit", async () => {
      await index.replaceDocumentChunks(
        "t1",
        "ns",
        "doc1",
        Array.from({ length: 10 }, (_, i) => chunk("t1", "ns", "doc1", i, `widget number ${i} specification`)),
        1,
      );
      expect(await search({ tenantId: "t1", text: "widget specification", limit: 3 })).toHaveLength(3);
      expect(await search({ tenantId: "t1", text: "widget specification", limit: 0 })).toEqual([]);
    });

    it("an empty query (no terms, zero vector) finds nothing; queries with quotes and operators are plain words", async () => {
      await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "foo fighters play bar music")], 1);
      expect(await search({ tenantId: "t1", text: "" })).toEqual([]);
      expect(await search({ tenantId: "t1", text: "the of and" })).toEqual([]);
      for (const q of ['foo" OR bar*', '"unbalanced', "NEAR(foo bar)", "foo AND NOT bar", "col:foo ^bar", "-foo +bar", "*", '""', "(((", "foo' OR '1'='1"]) {
        await expect(search({ tenantId: "t1", text: q })).resolves.toBeDefined();
      }
      expect(docIds(await search({ tenantId: "t1", text: 'foo" OR bar*' }))).toEqual(["doc1"]);
    });

    it("minSimilarity leaves out chunks below it: all query terms present = 1, some = their idf share", async () => {
      await index.replaceDocumentChunks("t1", "ns", "all", [chunk("t1", "ns", "all", 0, "ferret tunnels under the garden shed")], 1);
      await index.replaceDocumentChunks("t1", "ns", "some", [chunk("t1", "ns", "some", 0, "a ferret sleeps all day")], 1);
      await index.replaceDocumentChunks("t1", "ns", "other", [chunk("t1", "ns", "other", 0, "garden furniture for sale")], 1);
      const hits = await search({ tenantId: "t1", text: "ferret tunnels", denseWeight: 0 });
      expect(new Set(docIds(hits))).toEqual(new Set(["all", "some"]));
      const sim = new Map(hits.map((h) => [h.chunk.documentId, h.similarity]));
      expect(sim.get("all")).toBe(1);
      expect(sim.get("some")!).toBeGreaterThan(0);
      expect(sim.get("some")!).toBeLessThan(1);
      expect(docIds(await search({ tenantId: "t1", text: "ferret tunnels", denseWeight: 0, minSimilarity: 1 }))).toEqual(["all"]);
      expect(new Set(docIds(await search({ tenantId: "t1", text: "ferret tunnels", denseWeight: 0, minSimilarity: sim.get("some")! })))).toEqual(
        new Set(["all", "some"]),
      );
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
          1,
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
      const firstThree = await search({
        tenantId: "t1",
        text: "apple banana cherry grape",
        limit: 50,
        denseWeight: 0,
        group: { documents: 3, chunksPerDocument: 1 },
      });
      expect(firstThree.length).toBe(3);
      // A grouped search returns whole chunks, as an ungrouped one does.
      expect(firstThree[0]!.chunk).toEqual(all[0]!.chunk);
      expect(
        (await search({ tenantId: "t1", text: "apple banana cherry grape", limit: 50, denseWeight: 0, minSimilarity: 0.5 })).every((h) => h.similarity >= 0.5),
      ).toBe(true);
    });

    it("a filtered search returns `limit` accepted chunks even when better chunks are filtered out", async () => {
      for (let d = 0; d < 30; d++)
        await index.replaceDocumentChunks(
          "t1",
          "ns",
          `red${d}`,
          [withMeta(chunk("t1", "ns", `red${d}`, 0, "orbital mechanics orbital mechanics"), { team: "red" })],
          1,
        );
      for (let d = 0; d < 4; d++)
        await index.replaceDocumentChunks(
          "t1",
          "ns",
          `blue${d}`,
          [withMeta(chunk("t1", "ns", `blue${d}`, 0, `a long note that mentions orbital mechanics once among many other words ${d}`), { team: "blue" })],
          1,
        );
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

    it("sees writes made after earlier searches (replace, delete, metadata)", async () => {
      await index.replaceDocumentChunks("t1", "ns", "doc1", [chunk("t1", "ns", "doc1", 0, "walrus tusks")], 1);
      expect(docIds(await search({ tenantId: "t1", text: "walrus" }))).toEqual(["doc1"]);
      await index.replaceDocumentChunks("t1", "ns", "doc2", [chunk("t1", "ns", "doc2", 0, "walrus colony on ice floes")], 1);
      expect(docIds(await search({ tenantId: "t1", text: "walrus" })).sort()).toEqual(["doc1", "doc2"]);
      await index.deleteDocument("t1", "ns", "doc1");
      expect(docIds(await search({ tenantId: "t1", text: "walrus" }))).toEqual(["doc2"]);
      await index.updateDocumentMetadata("t1", "doc2", { kind: "field-notes" }, "2025-01-01T00:00:00.000Z");
      const filtered = await search({ tenantId: "t1", text: "walrus", filter: parseFilter({ key: "kind", value: "field-notes" }) });
      expect(docIds(filtered)).toEqual(["doc2"]);
      expect(filtered[0]!.chunk.document.metadata).toEqual({ kind: "field-notes" });
    });

    it("only vectors of the query's model join the dense ranking", async () => {
      const tagged = (c: IndexedChunk, model: string) => ({ ...c, model });
      const text = "completely unrelated words";
      await index.replaceDocumentChunks("t1", "ns", "m1", [tagged(chunk("t1", "ns", "m1", 0, text), "model-a")], 1);
      await index.replaceDocumentChunks("t1", "ns", "m2", [tagged(chunk("t1", "ns", "m2", 0, text), "model-b")], 1);
      const q = (model: string) => index.search({ tenantId: "t1", text: "zzz", vector: embedder.embedOne(text), model, denseWeight: 0.5, limit: 5 });
      expect(docIds(await q("model-a"))).toEqual(["m1"]);
      expect(docIds(await q("model-b"))).toEqual(["m2"]);
      expect(await q("model-c")).toEqual([]);
      const hit = (await q("model-a"))[0]!;
      expect(hit.keywordScore).toBe(0);
      expect(hit.vectorScore).toBeGreaterThan(0.99);
      expect(hit.similarity).toBeGreaterThan(0.99);
      // Without a dense weight the vectors are not used at all.
      expect(await index.search({ tenantId: "t1", text: "zzz", vector: embedder.embedOne(text), model: "model-a", denseWeight: 0, limit: 5 })).toEqual([]);
    });
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
        await index.replaceDocumentChunks(
          tenant,
          ns,
          `shared-doc-${ns}`,
          [withMeta(chunk(tenant, ns, `shared-doc-${ns}`, 0, text), { owner: tenant, team: "red" })],
          1,
        );
        await index.replaceDocumentChunks(
          tenant,
          ns,
          `${ns}-only`,
          [withMeta(chunk(tenant, ns, `${ns}-only`, 0, `${text} (copy in ${ns})`), { owner: tenant })],
          1,
        );
      }
    });

    it("never returns chunks of another tenant, even under the same namespace name", async () => {
      for (const tenant of ["acme", "globex"]) {
        const hits = await search({ tenantId: tenant, text: "launch code nightingale" });
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.every((h) => h.chunk.tenantId === tenant)).toBe(true);
        const alpha = await search({
          tenantId: tenant,
          namespaces: ["alpha"],
          text: "launch code nightingale",
          filter: parseFilter({ key: "team", value: "red" }),
        });
        expect(alpha.map((h) => [h.chunk.tenantId, h.chunk.namespace, h.chunk.documentId])).toEqual([[tenant, "alpha", "shared-doc-alpha"]]);
      }
      expect(await search({ tenantId: "initech", text: "launch code nightingale" })).toEqual([]);
      expect(await search({ tenantId: "initech", namespaces: ["alpha"], text: "launch code nightingale" })).toEqual([]);
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
      // The same document id in another tenant is another document.
      expect(await search({ tenantId: "initech", documentId: "shared-doc-alpha", text: "launch code" })).toEqual([]);
    });

    it("deletes, metadata updates and lists stay inside the tenant", async () => {
      expect(await index.deleteDocument("acme", "alpha", "shared-doc-alpha")).toBe(1);
      expect(await index.listDocumentChunks("globex", "alpha", "shared-doc-alpha")).toHaveLength(1);
      expect(await index.updateDocumentMetadata("acme", "alpha-only", { owner: "changed" }, "2025-01-01T00:00:00.000Z")).toBe(1);
      expect((await index.listDocumentChunks("globex", "alpha", "alpha-only"))[0]!.document.metadata).toEqual({ owner: "globex" });
      const listed = await index.listChunks({ tenantId: "globex", namespace: "alpha", offset: 0, limit: 10, order: "asc" });
      expect(listed.total).toBe(2);
      expect(listed.items.every((c) => c.tenantId === "globex")).toBe(true);
      const owned = await index.listChunks({
        tenantId: "acme",
        namespace: "alpha",
        offset: 0,
        limit: 10,
        order: "asc",
        filter: parseFilter({ key: "owner", value: "globex" }),
      });
      expect(owned).toEqual({ items: [], total: 0 });
    });
  });

  describe("filters and metadata", () => {
    it("filters by document metadata and follows metadata updates", async () => {
      await index.replaceDocumentChunks("t1", "ns", "a", [withMeta(chunk("t1", "ns", "a", 0, "pelican survey results"), { team: "red", year: 2023 })], 1);
      await index.replaceDocumentChunks("t1", "ns", "b", [withMeta(chunk("t1", "ns", "b", 0, "pelican survey results"), { team: "blue", year: 2024 })], 1);
      const filtered = (filter: unknown) =>
        index.search({ tenantId: "t1", text: "pelican survey", vector: embedder.embedOne("pelican survey"), limit: 10, filter: parseFilter(filter) });
      expect(docIds(await filtered({ AND: [{ key: "team", value: "red" }] }))).toEqual(["a"]);
      expect(docIds(await filtered({ AND: [{ key: "year", value: "2023", filterType: "numeric", numericOperator: ">" }] }))).toEqual(["b"]);
      expect(await index.updateDocumentMetadata("t1", "b", { team: "red" }, "2025-01-01T00:00:00.000Z")).toBe(1);
      expect(docIds(await filtered({ AND: [{ key: "team", value: "red" }] })).sort()).toEqual(["a", "b"]);
      // The numeric value went with the update.
      expect(await filtered({ AND: [{ key: "year", value: "2023", filterType: "numeric", numericOperator: ">" }] })).toEqual([]);
    });

    it("updateDocumentMetadata rewrites metadata and updatedAt on every chunk, keeps the other fields, and can clear it", async () => {
      await index.replaceDocumentChunks("t1", "ns", "doc", [chunk("t1", "ns", "doc", 0, "first heron"), chunk("t1", "ns", "doc", 1, "second heron")], 1);
      expect(await index.updateDocumentMetadata("t1", "doc", { stage: "final" }, "2025-06-01T00:00:00.000Z")).toBe(2);
      for (const c of await index.listDocumentChunks("t1", "ns", "doc"))
        expect(c.document).toEqual({
          title: "doc title",
          contentType: "text",
          customId: "custom-doc",
          metadata: { stage: "final" },
          createdAt: "2024-01-01T00:00:00.000Z",
          updatedAt: "2025-06-01T00:00:00.000Z",
        });
      expect(await index.updateDocumentMetadata("t1", "doc", undefined, "2025-07-01T00:00:00.000Z")).toBe(2);
      for (const c of await index.listDocumentChunks("t1", "ns", "doc")) {
        expect(c.document.metadata).toBeUndefined();
        expect(c.document.updatedAt).toBe("2025-07-01T00:00:00.000Z");
      }
      expect(await search({ tenantId: "t1", text: "heron", filter: parseFilter({ key: "stage", value: "final" }) })).toEqual([]);
      expect((await search({ tenantId: "t1", text: "heron", filter: parseFilter({ key: "stage", value: "final", negate: true }) })).length).toBe(2);
      expect(await index.updateDocumentMetadata("t1", "missing", { a: 1 }, "2025-07-01T00:00:00.000Z")).toBe(0);
    });

    it("every filter kind selects the same documents as the filter language defines, in search and in lists", async () => {
      const docs: Record<string, JsonObject | undefined> = {
        d1: { team: "Red", year: 2023, tags: ["ai", "ml"], title: "Annual Report", score: "7.5", draft: false },
        d2: { team: "red", year: 2024, tags: ["ops"], title: "weekly notes", score: 9, draft: true },
        d3: { team: "blue", year: "2022", tags: "ai", title: "Report on AI", "dotted.key": "x" },
        d4: { team: ["red", "green"], year: 2025.5, title: 42, 'q"uote': "yes" },
        d5: undefined,
        d6: { team: "BLUE", year: -1, tags: [], title: "", draft: "false" },
      };
      for (const [id, metadata] of Object.entries(docs))
        await index.replaceDocumentChunks("t1", "ns", id, [withMeta(chunk("t1", "ns", id, 0, `pelican sighting ${id}`), metadata)], 1);
      const filters: unknown[] = [
        { key: "team", value: "red" },
        { key: "team", value: "RED", ignoreCase: true },
        { key: "team", value: "red", negate: true },
        { key: "year", value: "2023" },
        { key: "year", value: "2023", filterType: "numeric", numericOperator: ">" },
        { key: "year", value: "2023", filterType: "numeric", numericOperator: ">=" },
        { key: "year", value: "2023", filterType: "numeric", numericOperator: "<" },
        { key: "year", value: "2023", filterType: "numeric", numericOperator: "<=" },
        { key: "year", value: "2025.5", filterType: "numeric", numericOperator: "=" },
        { key: "score", value: "8", filterType: "numeric", numericOperator: "<" },
        { key: "tags", value: "ai", filterType: "array_contains" },
        { key: "tags", value: "AI", filterType: "array_contains", ignoreCase: true },
        { key: "tags", value: "ai" },
        { key: "title", value: "Report", filterType: "string_contains" },
        { key: "title", value: "report", filterType: "string_contains", ignoreCase: true },
        { key: "title", value: "report", filterType: "string_contains", negate: true },
        { key: "title", value: "", filterType: "string_contains" },
        { key: "draft", value: "true" },
        { key: "draft", value: "false" },
        { key: "dotted.key", value: "x" },
        { key: 'q"uote', value: "yes" },
        { key: "nothing", value: "x", negate: true },
        {
          OR: [
            { key: "team", value: "blue" },
            {
              AND: [
                { key: "year", value: "2024", filterType: "numeric", numericOperator: ">=" },
                { key: "tags", value: "ops" },
              ],
            },
          ],
        },
        {
          AND: [
            { key: "team", value: "red", ignoreCase: true },
            {
              OR: [
                { key: "draft", value: "true" },
                { key: "tags", value: "ml", filterType: "array_contains" },
              ],
            },
          ],
        },
      ];
      for (const raw of filters) {
        const filter: FilterExpr = parseFilter(raw);
        const expected = Object.entries(docs)
          .filter(([, m]) => matchesFilter(filter, m))
          .map(([id]) => id)
          .sort();
        const hits = await index.search({ tenantId: "t1", text: "pelican sighting", vector: embedder.embedOne("pelican sighting"), limit: 20, filter });
        expect({ filter: raw, ids: docIds(hits).sort() }).toEqual({ filter: raw, ids: expected });
        const listed = await index.listChunks({ tenantId: "t1", namespace: "ns", filter, offset: 0, limit: 20, order: "asc" });
        expect({ filter: raw, ids: listed.items.map((c) => c.documentId).sort(), total: listed.total }).toEqual({
          filter: raw,
          ids: expected,
          total: expected.length,
        });
      }
    });
  });

  describe("filepath", () => {
    const strong = "orbital mechanics orbital mechanics";
    const weak = (d: number) => `a long note that mentions orbital mechanics once among many other words ${d}`;
    const query = (more: Partial<ChunkSearchQuery>) =>
      index.search({ tenantId: "t1", text: "orbital mechanics", vector: embedder.embedOne("orbital mechanics"), denseWeight: 0, limit: 3, ...more });
    const paths = (hits: { chunk: { document: { filepath?: string } } }[]) => hits.map((h) => h.chunk.document.filepath);

    beforeEach(async () => {
      // Better matches elsewhere: a filter applied after top-k would leave the filtered page empty.
      for (let d = 0; d < 30; d++)
        await index.replaceDocumentChunks("t1", "ns", `other${d}`, [atPath(chunk("t1", "ns", `other${d}`, 0, strong), `archive/old/${d}.md`)], 1);
      for (let d = 0; d < 4; d++)
        await index.replaceDocumentChunks("t1", "ns", `note${d}`, [atPath(chunk("t1", "ns", `note${d}`, 0, weak(d)), `notes/2024/${d}.md`)], 1);
      await index.replaceDocumentChunks("t1", "ns", "nopath", [chunk("t1", "ns", "nopath", 0, weak(9))], 1);
    });

    it("is stored with the chunk and read back", async () => {
      expect((await index.listDocumentChunks("t1", "ns", "note1"))[0]!.document.filepath).toBe("notes/2024/1.md");
      expect((await index.listDocumentChunks("t1", "ns", "nopath"))[0]!.document).not.toHaveProperty("filepath");
    });

    it("filters inside the search, before top-k: a filtered page is full (prefix and exact path)", async () => {
      const prefix = await query({ filepath: "notes/" });
      expect(prefix).toHaveLength(3);
      expect(paths(prefix).every((p) => p?.startsWith("notes/2024/"))).toBe(true);
      expect(paths(await query({ filepath: "notes/2024/" }))).toHaveLength(3);
      expect(paths(await query({ filepath: "notes/2024/2.md" }))).toEqual(["notes/2024/2.md"]);
      // A prefix matches whole leading parts only when it ends in '/', and an exact path is not a prefix.
      expect(await query({ filepath: "notes/2024" })).toEqual([]);
      expect(await query({ filepath: "note" })).toEqual([]);
      expect(await query({ filepath: "otes/" })).toEqual([]);
      expect(await query({ filepath: "notes/2024/2.md/" })).toEqual([]);
      // With a metadata filter and grouping too.
      const grouped = await query({ filepath: "notes/", group: { documents: 2, chunksPerDocument: 1 }, filter: parseFilter({ key: "source", value: "test" }) });
      expect(grouped).toHaveLength(2);
      expect(paths(grouped).every((p) => p?.startsWith("notes/"))).toBe(true);
    });

    it("follows updates: a filepath update reaches every chunk, a metadata-only update keeps it", async () => {
      expect(await index.updateDocumentMetadata("t1", "note0", { moved: true }, "2025-01-01T00:00:00.000Z", { filepath: "elsewhere/x.md" })).toBe(1);
      expect(paths(await query({ filepath: "elsewhere/" }))).toEqual(["elsewhere/x.md"]);
      expect(docIds(await query({ filepath: "notes/", limit: 10 })).sort()).toEqual(["note1", "note2", "note3"]);
      await index.updateDocumentMetadata("t1", "note0", { moved: false }, "2025-01-02T00:00:00.000Z");
      expect((await index.listDocumentChunks("t1", "ns", "note0"))[0]!.document).toMatchObject({ filepath: "elsewhere/x.md", metadata: { moved: false } });
      await index.updateDocumentMetadata("t1", "note0", undefined, "2025-01-03T00:00:00.000Z", { filepath: undefined });
      expect((await index.listDocumentChunks("t1", "ns", "note0"))[0]!.document).not.toHaveProperty("filepath");
      expect(await query({ filepath: "elsewhere/" })).toEqual([]);
      // A reopened index (the loaded state rebuilt from the store) sees the same.
      const again = await open();
      expect(
        docIds(await again.search({ tenantId: "t1", text: "orbital", vector: embedder.embedOne("orbital"), limit: 10, filepath: "notes/" })).sort(),
      ).toEqual(["note1", "note2", "note3"]);
    });

    it("chunks of an earlier release: listed for the backfill, passing the filter unverified until it reaches them", async () => {
      await harness.forgetFilepaths();
      index = await open();
      expect(await index.documentsWithoutFilepath(0)).toEqual([]);
      const pending = await index.documentsWithoutFilepath(1000);
      expect(pending).toHaveLength(35);
      expect(pending).toContainEqual({ tenantId: "t1", documentId: "note1" });
      expect(await index.documentsWithoutFilepath(5)).toHaveLength(5);
      // Not known: every chunk passes, without a filepath (the caller checks those).
      const unknown = await query({ filepath: "notes/", limit: 50 });
      expect(unknown).toHaveLength(35);
      expect(paths(unknown).every((p) => p === undefined)).toBe(true);
      // An update that names the filepath wins over a later backfill with an older value.
      await index.updateDocumentMetadata("t1", "note3", { source: "test" }, "2025-01-01T00:00:00.000Z", { filepath: "renamed/3.md" });
      expect(await index.backfillFilepath("t1", "note3", "notes/2024/3.md")).toBe(0);
      for (let d = 0; d < 30; d++) expect(await index.backfillFilepath("t1", `other${d}`, `archive/old/${d}.md`)).toBe(1);
      for (let d = 0; d < 3; d++) await index.backfillFilepath("t1", `note${d}`, `notes/2024/${d}.md`);
      await index.backfillFilepath("t1", "nopath", undefined);
      expect(await index.documentsWithoutFilepath(1000)).toEqual([]);
      expect(paths(await query({ filepath: "notes/", limit: 10 })).sort()).toEqual(["notes/2024/0.md", "notes/2024/1.md", "notes/2024/2.md"]);
      expect(paths(await query({ filepath: "renamed/3.md" }))).toEqual(["renamed/3.md"]);
      expect((await index.listDocumentChunks("t1", "ns", "nopath"))[0]!.document).not.toHaveProperty("filepath");
      // Chunks written from now on carry their filepath: nothing to backfill.
      await index.replaceDocumentChunks("t1", "ns", "fresh", [atPath(chunk("t1", "ns", "fresh", 0, "fresh"), "f.md")], 1);
      expect(await index.documentsWithoutFilepath(10)).toEqual([]);
    });
  });

  describe("listChunks", () => {
    beforeEach(async () => {
      const at = (c: IndexedChunk, createdAt: string, team: string) => ({ ...withMeta(c, { team }), createdAt });
      await index.replaceDocumentChunks(
        "t1",
        "ns",
        "b",
        [at(chunk("t1", "ns", "b", 1, "b1"), "2024-02-01T00:00:00.000Z", "red"), at(chunk("t1", "ns", "b", 0, "b0"), "2024-02-01T00:00:00.000Z", "red")],
        1,
      );
      await index.replaceDocumentChunks("t1", "ns", "a", [at(chunk("t1", "ns", "a", 0, "a0"), "2024-02-01T00:00:00.000Z", "blue")], 1);
      await index.replaceDocumentChunks("t1", "ns", "c", [at(chunk("t1", "ns", "c", 0, "c0"), "2024-01-01T00:00:00.000Z", "red")], 1);
      await index.replaceDocumentChunks("t1", "other", "d", [at(chunk("t1", "other", "d", 0, "d0"), "2024-01-01T00:00:00.000Z", "red")], 1);
      await index.replaceDocumentChunks("t2", "ns", "e", [at(chunk("t2", "ns", "e", 0, "e0"), "2024-01-01T00:00:00.000Z", "red")], 1);
    });
    const list = (more: Partial<ListChunksQuery> = {}) => index.listChunks({ tenantId: "t1", namespace: "ns", offset: 0, limit: 10, order: "asc", ...more });

    it("orders by creation date, then document, then position, in the namespace only", async () => {
      const all = await list();
      expect(all.total).toBe(4);
      expect(all.items.map((c) => c.content)).toEqual(["c0", "a0", "b0", "b1"]);
      expect(all.items[0]).not.toHaveProperty("vector");
      expect(all.items[0]).toMatchObject({ tenantId: "t1", namespace: "ns", documentId: "c", position: 0, createdAt: "2024-01-01T00:00:00.000Z" });
      expect((await list({ order: "desc" })).items.map((c) => c.content)).toEqual(["b1", "b0", "a0", "c0"]);
    });

    it("pages with offset and limit and counts every match", async () => {
      const page = await list({ offset: 1, limit: 2 });
      expect(page).toMatchObject({ total: 4 });
      expect(page.items.map((c) => c.content)).toEqual(["a0", "b0"]);
      expect((await list({ offset: 2, limit: 2, order: "desc" })).items.map((c) => c.content)).toEqual(["a0", "c0"]);
      expect(await list({ offset: 10 })).toEqual({ items: [], total: 4 });
      expect(await list({ limit: 0 })).toEqual({ items: [], total: 4 });
      expect(await index.listChunks({ tenantId: "t1", namespace: "empty", offset: 0, limit: 10, order: "asc" })).toEqual({ items: [], total: 0 });
    });

    it("filters by document metadata", async () => {
      const red = await list({ filter: parseFilter({ key: "team", value: "red" }), offset: 1, limit: 1 });
      expect(red.total).toBe(3);
      expect(red.items.map((c) => c.content)).toEqual(["b0"]);
    });

    it("pages through a run of chunks created at the same instant in document and position order", async () => {
      const same = "2024-03-01T00:00:00.000Z";
      await index.replaceDocumentChunks(
        "t1",
        "ns",
        "big",
        Array.from({ length: 150 }, (_, p) => ({ ...chunk("t1", "ns", "big", p, `big part ${p}`), createdAt: same })),
        1,
      );
      await index.replaceDocumentChunks("t1", "ns", "after", [{ ...chunk("t1", "ns", "after", 0, "after"), createdAt: "2024-04-01T00:00:00.000Z" }], 1);
      const page = await list({ offset: 64, limit: 50 });
      expect(page.total).toBe(155);
      expect(page.items.map((c) => c.content)).toEqual(Array.from({ length: 50 }, (_, i) => `big part ${i + 60}`));
      const tail = await list({ offset: 150, limit: 10 });
      expect(tail.items.map((c) => c.content)).toEqual(["big part 146", "big part 147", "big part 148", "big part 149", "after"]);
      const desc = await list({ offset: 1, limit: 3, order: "desc" });
      expect(desc.items.map((c) => c.content)).toEqual(["big part 149", "big part 148", "big part 147"]);
    });

    it("a walk through the pages sees every chunk once, in order, across ties longer than any read (keyset with tiebreak)", async () => {
      const same = "2024-03-01T00:00:00.000Z";
      for (const d of ["m", "k"])
        await index.replaceDocumentChunks(
          "t1",
          "ns",
          d,
          Array.from({ length: 350 }, (_, p) => ({ ...withMeta(chunk("t1", "ns", d, p, `${d} ${p}`), { team: d === "k" ? "red" : "blue" }), createdAt: same })),
          1,
        );
      const walk = async (order: "asc" | "desc", filter?: FilterExpr) => {
        const seen: string[] = [];
        for (let offset = 0; ; offset += 97) {
          const page = await list({ offset, limit: 97, order, ...(filter ? { filter } : {}) });
          seen.push(...page.items.map((c) => c.content));
          if (page.items.length < 97) return { seen, total: page.total };
        }
      };
      const tied = (d: string) => Array.from({ length: 350 }, (_, p) => `${d} ${p}`);
      const asc = await walk("asc");
      expect(asc.total).toBe(704);
      expect(asc.seen).toEqual(["c0", "a0", "b0", "b1", ...tied("k"), ...tied("m")]);
      expect((await walk("desc")).seen).toEqual([...asc.seen].reverse());
      const red = await walk("asc", parseFilter({ key: "team", value: "red" }));
      expect(red.seen).toEqual(["c0", "b0", "b1", ...tied("k")]);
      expect(red.total).toBe(353);
    });
  });
}
