import { randomBytes } from "node:crypto";
import { parseFilter } from "@engram/filters";
import { describeWithEngines } from "@engram/testing";
import type { QdrantClient } from "@qdrant/js-client-rest";
import type { IndexedChunk } from "../../src/chunk-index";
import { HashingEmbedder } from "../../src/embedder";
import { QdrantChunkIndex } from "../../src/qdrant/chunk-index.qdrant";
import { chunkCollectionSpec, collectionName, ensureCollection, ensureQdrantCollections, pointId, QdrantSchemaError } from "../../src/qdrant/collections";
import { createQdrantClient } from "../../src/qdrant/config";
import type { QdrantFusion } from "../../src/qdrant/hybrid";
import { chunkIndexContract } from "./chunk-index.contract";

/** A prefix no other run uses: collections of this run are `<run>_<n>_chunks`. */
const RUN = `engram_test_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
/** Metadata keys the contract filters on that get payload indexes (the others are filtered unindexed). */
const INDEXED_KEYS = ["team", "year", "tags", "title"];

async function dropRunCollections(client: QdrantClient): Promise<void> {
  const { collections } = await client.getCollections();
  for (const c of collections) if (c.name.startsWith(RUN)) await client.deleteCollection(c.name);
}

describeWithEngines(["qdrant"], "ChunkIndex contract: QdrantChunkIndex", ({ qdrantUrl }) => {
  let client: QdrantClient;
  let n = 0;
  let prefix = "";

  beforeAll(() => {
    client = createQdrantClient({ QDRANT_URL: qdrantUrl, QDRANT_API_KEY: undefined });
  });
  afterAll(async () => {
    await dropRunCollections(client);
  });

  chunkIndexContract({
    dimensions: 128,
    fresh: async () => {
      prefix = `${RUN}_${++n}`;
    },
    open: () => QdrantChunkIndex.open(client, { prefix, dimensions: 128, indexedMetadataKeys: INDEXED_KEYS }),
    dispose: async () => {
      if ((await client.collectionExists(collectionName(prefix, "chunks"))).exists) await client.deleteCollection(collectionName(prefix, "chunks"));
    },
    // Points of an earlier release carry none of the filepath fields (markers have no tenantId and are left alone).
    forgetFilepaths: async () => {
      await client.deletePayload(collectionName(prefix, "chunks"), {
        keys: ["filepath", "filepathPrefixes", "filepathKnown"],
        filter: { must_not: [{ is_empty: { key: "tenantId" } }] },
        wait: true,
      });
    },
  });
});

describeWithEngines(["qdrant"], "QdrantChunkIndex: collections and Qdrant specifics", ({ qdrantUrl }) => {
  const embedder = new HashingEmbedder(64);
  let client: QdrantClient;
  let n = 0;
  const next = () => `${RUN}_x${++n}`;

  const chunk = (tenantId: string, documentId: string, position: number, content: string, id = `c_${documentId}_${position}`): IndexedChunk => ({
    id,
    tenantId,
    namespace: "ns",
    documentId,
    position,
    content,
    startOffset: 0,
    endOffset: content.length,
    tokenCount: 3,
    vector: embedder.embedOne(content),
    document: { metadata: { team: "red" }, createdAt: "2024-01-01T00:00:00.000Z", updatedAt: "2024-01-01T00:00:00.000Z" },
    createdAt: "2024-01-01T00:00:00.000Z",
  });

  beforeAll(() => {
    client = createQdrantClient({ QDRANT_URL: qdrantUrl, QDRANT_API_KEY: undefined });
  });
  afterAll(async () => {
    await dropRunCollections(client);
  });

  it("creates both collections with named dense (Cosine) and sparse (idf) vectors and the payload indexes", async () => {
    const prefix = next();
    const names = await ensureQdrantCollections(client, { prefix, dimensions: 64, indexedMetadataKeys: ["team"] });
    expect(names).toEqual({ chunks: `${prefix}_chunks`, memories: `${prefix}_memories` });
    for (const name of [names.chunks, names.memories]) {
      const info = await client.getCollection(name);
      expect(info.config.params.vectors).toMatchObject({ dense: { size: 64, distance: "Cosine" } });
      expect(info.config.params.sparse_vectors).toMatchObject({ text: { modifier: "idf" } });
      expect(info.payload_schema.tenantId).toMatchObject({ data_type: "keyword", params: { is_tenant: true } });
      for (const field of ["namespace", "model", "terms", "_filter.arrays", "_filter.strings", "_filter.v.team", "_filter.lc.team"])
        expect(info.payload_schema[field]).toMatchObject({ data_type: "keyword" });
      expect(info.payload_schema.createdAtMs).toMatchObject({ data_type: "integer" });
      expect(info.payload_schema["_filter.n.team"]).toMatchObject({ data_type: "float" });
    }
    expect((await client.getCollection(names.chunks)).payload_schema.documentId).toMatchObject({ data_type: "keyword" });
    expect((await client.getCollection(names.memories)).payload_schema.isLatest).toMatchObject({ data_type: "bool" });
  });

  it("start-up is idempotent, adds indexes for newly configured metadata keys and keeps the data", async () => {
    const prefix = next();
    const index = await QdrantChunkIndex.open(client, { prefix, dimensions: 64 });
    await index.replaceDocumentChunks("t1", "ns", "d1", [chunk("t1", "d1", 0, "kestrel hovering")], 1);
    expect(await ensureCollection(client, `${prefix}_chunks`, chunkCollectionSpec(64))).toBe(false);
    await QdrantChunkIndex.open(client, { prefix, dimensions: 64, indexedMetadataKeys: ["region"] });
    const info = await client.getCollection(`${prefix}_chunks`);
    expect(info.payload_schema["_filter.v.region"]).toMatchObject({ data_type: "keyword" });
    expect((await index.listDocumentChunks("t1", "ns", "d1")).map((c) => c.content)).toEqual(["kestrel hovering"]);
  });

  it("refuses a collection whose dense vectors have another size, naming both sizes", async () => {
    const prefix = next();
    await QdrantChunkIndex.open(client, { prefix, dimensions: 64 });
    const attempt = QdrantChunkIndex.open(client, { prefix, dimensions: 32 });
    await expect(attempt).rejects.toBeInstanceOf(QdrantSchemaError);
    await expect(QdrantChunkIndex.open(client, { prefix, dimensions: 32 })).rejects.toThrow(/64 dimensions but the embedder makes 32/);
  });

  it("refuses a collection Engram did not create (an unnamed vector)", async () => {
    const prefix = next();
    await client.createCollection(`${prefix}_chunks`, { vectors: { size: 64, distance: "Cosine" } });
    await expect(QdrantChunkIndex.open(client, { prefix, dimensions: 64 })).rejects.toThrow(/no named dense vector "dense"/);
  });

  it("two processes starting together both succeed", async () => {
    const prefix = next();
    await Promise.all([QdrantChunkIndex.open(client, { prefix, dimensions: 64 }), QdrantChunkIndex.open(client, { prefix, dimensions: 64 })]);
    expect((await client.collectionExists(`${prefix}_chunks`)).exists).toBe(true);
  });

  it("stores one point per chunk under a UUID derived from tenant and chunk id; the same chunk id in two tenants are two points", async () => {
    const prefix = next();
    const index = await QdrantChunkIndex.open(client, { prefix, dimensions: 64 });
    await index.replaceDocumentChunks("t1", "ns", "d1", [chunk("t1", "d1", 0, "osprey fishing", "c_same")], 1);
    await index.replaceDocumentChunks("t2", "ns", "d1", [chunk("t2", "d1", 0, "osprey nesting", "c_same")], 1);
    const [p1, p2] = await client.retrieve(`${prefix}_chunks`, { ids: [pointId("t1", "c_same"), pointId("t2", "c_same")], with_payload: ["content"] });
    expect([p1?.payload?.content, p2?.payload?.content].sort()).toEqual(["osprey fishing", "osprey nesting"]);
    expect((await index.listDocumentChunks("t1", "ns", "d1")).map((c) => c.content)).toEqual(["osprey fishing"]);
  });

  it("replaces a document of more chunks than one upsert request holds", async () => {
    const prefix = next();
    const index = await QdrantChunkIndex.open(client, { prefix, dimensions: 64, upsertBatch: 7 });
    const chunks = Array.from({ length: 30 }, (_, p) => chunk("t1", "big", p, `heron part ${p}`));
    await index.replaceDocumentChunks("t1", "ns", "big", chunks, 1);
    expect((await index.listDocumentChunks("t1", "ns", "big")).map((c) => c.position)).toEqual(chunks.map((c) => c.position));
    await index.replaceDocumentChunks("t1", "ns", "big", chunks.slice(0, 3), 1);
    expect((await index.listDocumentChunks("t1", "ns", "big")).length).toBe(3);
  });

  it.each(["rrf", "dbsf"] as QdrantFusion[])(
    "Qdrant's own %s fusion ranks the relevant chunk first and keeps every guarantee of scope and filter",
    async (fusion) => {
      const prefix = next();
      const index = await QdrantChunkIndex.open(client, { prefix, dimensions: 64, fusion });
      await index.replaceDocumentChunks("t1", "ns", "target", [chunk("t1", "target", 0, "the lighthouse keeper logs every passing ship")], 1);
      await index.replaceDocumentChunks(
        "t1",
        "ns",
        "noise",
        [chunk("t1", "noise", 0, "bakery opening hours"), chunk("t1", "noise", 1, "a ship in a bottle")],
        1,
      );
      await index.replaceDocumentChunks("t2", "ns", "other", [chunk("t2", "other", 0, "the lighthouse keeper logs every passing ship")], 1);
      const q = "lighthouse keeper ship";
      const hits = await index.search({ tenantId: "t1", text: q, vector: embedder.embedOne(q), model: "", denseWeight: 0.5, limit: 10 });
      expect(hits[0]!.chunk.documentId).toBe("target");
      expect(hits[0]!.similarity).toBe(1);
      expect(hits.every((h) => h.chunk.tenantId === "t1")).toBe(true);
      const filtered = await index.search({
        tenantId: "t1",
        text: q,
        vector: embedder.embedOne(q),
        model: "",
        denseWeight: 0.5,
        limit: 10,
        filter: parseFilter({ key: "team", value: "blue" }),
      });
      expect(filtered).toEqual([]);
    },
  );
});
