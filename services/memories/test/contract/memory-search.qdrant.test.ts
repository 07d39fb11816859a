import { randomBytes } from "node:crypto";
import { parseFilter } from "@engram/filters";
import type { JsonObject } from "@engram/kernel";
import { describeWithEngines } from "@engram/testing";
import type { QdrantClient } from "@qdrant/js-client-rest";
import { createQdrantClient, HashingEmbedder } from "@engram/index";
import type { MemorySearchQuery } from "@engram/memory-model";
import { type MemorySearchRecord, QdrantMemorySearch } from "../../src/adapters/production/memory-search.qdrant";

const RUN = `engram_test_mem_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
const NOW = "2025-06-01T00:00:00.000Z";

/**
 * The production memory store's search on Qdrant (the embedded store's search
 * answers with records; this adapter answers with ids, the store then reads
 * the records from MongoDB).
 * Same guarantees: tenant and namespace isolation, latest versions only,
 * forgotten and expired memories only when asked, static/dynamic, metadata
 * filters, dense side for the query's model only, similarity in [0, 1].
 */
describeWithEngines(["qdrant"], "QdrantMemorySearch", ({ qdrantUrl }) => {
  const embedder = new HashingEmbedder(64);
  let client: QdrantClient;
  let search: QdrantMemorySearch;
  let n = 0;

  const memory = (id: string, content: string, over: Partial<MemorySearchRecord> = {}): MemorySearchRecord => ({
    id,
    tenantId: "t1",
    namespace: "ns",
    content,
    isStatic: false,
    isForgotten: false,
    isLatest: true,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    ...over,
  });
  const query = (text: string, over: Partial<MemorySearchQuery> = {}) => search.search({ tenantId: "t1", text, limit: 20, now: NOW, ...over });
  const ids = async (p: ReturnType<typeof query>) => (await p).map((h) => h.id).sort();

  beforeAll(() => {
    client = createQdrantClient({ QDRANT_URL: qdrantUrl, QDRANT_API_KEY: undefined });
  });
  beforeEach(async () => {
    search = await QdrantMemorySearch.open(client, { prefix: `${RUN}_${++n}`, dimensions: 64, indexedMetadataKeys: ["source"] });
  });
  afterEach(async () => {
    await client.deleteCollection(search.collection);
  });

  it("finds memories by keyword, best first, with ids, namespaces, scores and similarity in [0, 1]", async () => {
    await search.upsert([
      memory("m1", "Sarah moved to Berlin in 2021."),
      memory("m2", "Sarah likes green tea."),
      memory("m3", "The office moved to a new building."),
    ]);
    const hits = await query("where did Sarah move");
    expect(hits[0]).toMatchObject({ id: "m1", namespace: "ns", similarity: 1 });
    expect(hits.map((h) => h.id).sort()).toEqual(["m1", "m2", "m3"]);
    for (const h of hits) {
      expect(h.similarity).toBeGreaterThan(0);
      expect(h.similarity).toBeLessThanOrEqual(1);
      expect(h.keywordScore).toBeGreaterThan(0);
    }
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(await query("   ")).toEqual([]);
    expect(await query("Sarah", { limit: 1 })).toHaveLength(1);
  });

  it("keeps tenants and namespaces apart (same namespace name in another tenant included)", async () => {
    await search.upsert([
      memory("a1", "The vault code is 4242."),
      memory("a2", "The vault code is 4242.", { namespace: "other" }),
      memory("b1", "The vault code is 4242.", { tenantId: "t2" }),
    ]);
    expect(await ids(query("vault code"))).toEqual(["a1", "a2"]);
    expect(await ids(query("vault code", { namespaces: ["ns"] }))).toEqual(["a1"]);
    expect(await ids(query("vault code", { namespaces: ["ns", "other"] }))).toEqual(["a1", "a2"]);
    expect(await query("vault code", { namespaces: [] })).toEqual([]);
    expect(await ids(query("vault code", { tenantId: "t2", namespaces: ["ns"] }))).toEqual(["b1"]);
    expect(await query("vault code", { tenantId: "t3" })).toEqual([]);
  });

  it("answers with latest versions only; forgotten and expired memories only when asked", async () => {
    await search.upsert([
      memory("v1", "Tom works at Acme.", { isLatest: false }),
      memory("v2", "Tom works at Globex."),
      memory("f", "Tom works at Initech.", { isForgotten: true }),
      memory("x", "Tom works at Umbrella.", { forgetAfter: "2025-05-31T23:59:59.000Z" }),
      memory("edge", "Tom works at Hooli.", { forgetAfter: NOW }),
      memory("later", "Tom works at Pied Piper.", { forgetAfter: "2025-06-02T00:00:00.000Z" }),
    ]);
    expect(await ids(query("Tom works"))).toEqual(["later", "v2"]);
    expect(await ids(query("Tom works", { includeForgotten: true }))).toEqual(["edge", "f", "later", "v2", "x"]);
    expect(await ids(query("Tom works", { now: "2025-01-01T00:00:00.000Z" }))).toEqual(["edge", "later", "v2", "x"]);
  });

  it("upsert replaces a memory (a new version retires the old one) and delete removes it", async () => {
    await search.upsert([memory("m1", "Ana lives in Lisbon.")]);
    expect(await ids(query("Ana Lisbon"))).toEqual(["m1"]);
    await search.upsert([memory("m1", "Ana lives in Lisbon.", { isLatest: false }), memory("m2", "Ana lives in Porto.")]);
    expect(await ids(query("Ana"))).toEqual(["m2"]);
    expect(await search.count("t1")).toBe(2);
    await search.delete("t1", ["m2", "unknown"]);
    expect(await query("Ana")).toEqual([]);
    await search.delete("t2", ["m1"]);
    expect(await search.count("t1")).toBe(1);
  });

  it("filters static or dynamic memories and by metadata (indexed key or not)", async () => {
    const meta = (m: JsonObject) => ({ metadata: m });
    await search.upsert([
      memory("s", "Lee is a vegetarian.", { isStatic: true, ...meta({ source: "chat", tags: ["food"] }) }),
      memory("d", "Lee ate a vegetarian lunch today.", meta({ source: "Email", tags: ["food", "today"] })),
      memory("o", "Lee bought a vegetarian cookbook.", meta({ source: "chat", score: 7 })),
    ]);
    expect(await ids(query("Lee vegetarian", { isStatic: true }))).toEqual(["s"]);
    expect(await ids(query("Lee vegetarian", { isStatic: false }))).toEqual(["d", "o"]);
    expect(await ids(query("Lee vegetarian", { filter: parseFilter({ key: "source", value: "chat" }) }))).toEqual(["o", "s"]);
    expect(await ids(query("Lee vegetarian", { filter: parseFilter({ key: "source", value: "EMAIL", ignoreCase: true }) }))).toEqual(["d"]);
    expect(await ids(query("Lee vegetarian", { filter: parseFilter({ key: "tags", value: "today", filterType: "array_contains" }) }))).toEqual(["d"]);
    expect(await ids(query("Lee vegetarian", { filter: parseFilter({ key: "score", value: "5", filterType: "numeric", numericOperator: ">" }) }))).toEqual([
      "o",
    ]);
    expect(
      await ids(
        query("Lee vegetarian", {
          filter: parseFilter({
            OR: [
              { key: "source", value: "chat", negate: true },
              { key: "score", value: "7" },
            ],
          }),
        }),
      ),
    ).toEqual(["d", "o"]);
  });

  it("the dense side joins only with a dense weight and only for vectors of the query's model", async () => {
    const text = "completely unrelated words";
    await search.upsert([
      memory("a", text, { vector: embedder.embedOne(text), model: "model-a" }),
      memory("b", text, { vector: embedder.embedOne(text), model: "model-b" }),
    ]);
    const dense = (model: string, denseWeight = 0.5) => query("zzz", { vector: embedder.embedOne(text), model, denseWeight });
    expect(await ids(dense("model-a"))).toEqual(["a"]);
    expect(await ids(dense("model-b"))).toEqual(["b"]);
    expect(await dense("model-c")).toEqual([]);
    expect(await dense("model-a", 0)).toEqual([]);
    const [hit] = await dense("model-a");
    expect(hit).toMatchObject({ keywordScore: 0 });
    expect(hit!.similarity).toBeGreaterThan(0.99);
  });
});
