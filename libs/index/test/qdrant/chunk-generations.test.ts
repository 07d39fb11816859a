import type { IndexedChunk } from "../../src/chunk-index";
import { HashingEmbedder } from "../../src/embedder";
import { generationMarkerId, QdrantChunkIndex } from "../../src/qdrant/chunk-index.qdrant";
import { assertQdrantVersion, QdrantSchemaError } from "../../src/qdrant/collections";
import { testChunk } from "../contract/chunk-index.contract";
import { FakeQdrant } from "./fake-qdrant";

/**
 * Generations of a document's chunks in the Qdrant chunk index, without a
 * server: the adapter's requests run against `FakeQdrant`, and a test stops a
 * writer between any two of its requests to let another writer or a reader in.
 */
const embedder = new HashingEmbedder(32);
const COLLECTION = "test_chunks";
let seq = 0;

const chunks = (documentId: string, label: string, n: number, namespace = "ns"): IndexedChunk[] =>
  Array.from({ length: n }, (_, p) => testChunk(embedder, `c_${++seq}`, "t1", namespace, documentId, p, `${label} part ${p} about pelicans`));

describe("QdrantChunkIndex generations", () => {
  let fake: FakeQdrant;
  let index: QdrantChunkIndex;

  beforeEach(() => {
    fake = new FakeQdrant();
    // Two requests per upsert batch of three points: a write of seven chunks takes three upserts.
    index = new QdrantChunkIndex({ client: fake.client(), collection: COLLECTION, dimensions: 32, upsertBatch: 3 });
  });

  const contents = async (documentId = "doc") => (await index.listDocumentChunks("t1", "ns", documentId)).map((c) => c.content);
  const searched = async () =>
    (await index.search({ tenantId: "t1", text: "pelicans", vector: embedder.embedOne("pelicans"), limit: 50 })).map((h) => h.chunk.content);
  /** Which generations' labels a read shows. */
  const labels = (texts: string[]) => [...new Set(texts.map((t) => t.split(" ")[0]))].sort();

  it("a late write of generation 1 after generation 2 is refused and writes nothing", async () => {
    expect(await index.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "g2", 4), 2)).toBe("written");
    const calls = fake.calls.length;
    expect(await index.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "g1", 7), 1)).toBe("stale");
    // One marker read, nothing written.
    expect(fake.calls.slice(calls)).toEqual(["retrieve"]);
    expect(labels(await contents())).toEqual(["g2"]);
    expect(fake.points(COLLECTION).filter((p) => String(p.payload.content ?? "").startsWith("g1"))).toEqual([]);
  });

  it("a late writer that passed the generation check before the newer write is undone by the marker: generation 2 stays, nothing of 1 is left", async () => {
    await index.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "g0", 2), 0);
    // Worker 1 (generation 1) is paused after its first upsert; worker 2 (generation 2) then runs from start to end.
    let paused: (() => void) | undefined;
    let upserts = 0;
    const writer2 = new QdrantChunkIndex({ client: fake.client(), collection: COLLECTION, dimensions: 32, upsertBatch: 3 });
    fake.onCall = async (method) => {
      if (method === "upsert" && ++upserts === 2 && !paused) await new Promise<void>((resolve) => (paused = resolve));
    };
    const late = index.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "g1", 7), 1);
    while (!paused) await new Promise((r) => setImmediate(r));
    fake.onCall = undefined;
    expect(await writer2.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "g2", 4), 2)).toBe("written");
    paused();
    expect(await late).toBe("stale");
    expect(labels(await contents())).toEqual(["g2"]);
    expect(await contents()).toHaveLength(4);
    // The late writer's points (upserted after generation 2 cleaned up) were deleted by the late writer itself.
    const docPoints = fake.points(COLLECTION).filter((p) => p.payload.documentId === "doc");
    expect(docPoints.map((p) => p.payload.generation)).toEqual([2, 2, 2, 2]);
  });

  it("a reader between any two requests of a replace sees one whole generation", async () => {
    await index.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "g1", 5), 1);
    const reader = new QdrantChunkIndex({ client: fake.client(), collection: COLLECTION, dimensions: 32 });
    const seen: { step: string; listed: string[]; searched: string[]; page: string[] }[] = [];
    let reading = false;
    fake.onCall = async (method) => {
      if (reading) return;
      reading = true;
      try {
        const listed = (await reader.listDocumentChunks("t1", "ns", "doc")).map((c) => c.content);
        const hits = (await reader.search({ tenantId: "t1", text: "pelicans", vector: embedder.embedOne("pelicans"), limit: 50 })).map((h) => h.chunk.content);
        const page = (await reader.listChunks({ tenantId: "t1", namespace: "ns", offset: 0, limit: 50, order: "asc" })).items.map((c) => c.content);
        seen.push({ step: method, listed, searched: hits, page });
      } finally {
        reading = false;
      }
    };
    await index.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "g2", 7), 2);
    fake.onCall = undefined;
    // retrieve (marker), 3 upserts, upsert (marker), retrieve (marker), delete: a read before each.
    expect(seen.map((s) => s.step)).toEqual(["retrieve", "upsert", "upsert", "upsert", "upsert", "retrieve", "delete"]);
    for (const s of seen) {
      expect(labels(s.listed)).toHaveLength(1);
      expect(s.listed).toHaveLength(s.listed[0]!.startsWith("g1") ? 5 : 7);
      expect(labels(s.searched)).toEqual(labels(s.listed));
      expect(s.searched).toHaveLength(s.listed.length);
      expect(labels(s.page)).toEqual(labels(s.listed));
    }
    // Generation 1 until the marker moved, generation 2 from then on.
    expect(seen.map((s) => labels(s.listed)[0])).toEqual(["g1", "g1", "g1", "g1", "g1", "g2", "g2"]);
    expect(labels(await contents())).toEqual(["g2"]);
    expect(await searched()).toHaveLength(7);
  });

  it("two writers of the same generation (a redelivery racing the evicted worker): one write's chunks stay, whole", async () => {
    const a = new QdrantChunkIndex({ client: fake.client(), collection: COLLECTION, dimensions: 32, upsertBatch: 2 });
    const b = new QdrantChunkIndex({ client: fake.client(), collection: COLLECTION, dimensions: 32, upsertBatch: 2 });
    const [ra, rb] = await Promise.all([
      a.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "a", 5), 3),
      b.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "b", 4), 3),
    ]);
    expect([ra, rb]).toEqual(["written", "written"]);
    const listed = await contents();
    expect(labels(listed)).toHaveLength(1);
    expect(listed).toHaveLength(listed[0]!.startsWith("a") ? 5 : 4);
    expect(fake.points(COLLECTION).filter((p) => p.payload.documentId === "doc")).toHaveLength(listed.length);
  });

  it("a document moved to another namespace leaves nothing behind; a delete keeps the marker (no resurrection by a late write)", async () => {
    await index.replaceDocumentChunks("t1", "old", "doc", chunks("doc", "g1", 2, "old"), 1);
    await index.replaceDocumentChunks("t1", "new", "doc", chunks("doc", "g2", 2, "new"), 2);
    expect(await index.listDocumentChunks("t1", "old", "doc")).toEqual([]);
    expect(await index.listDocumentChunks("t1", "new", "doc")).toHaveLength(2);
    expect(await index.deleteDocument("t1", "new", "doc", 2)).toBe(2);
    expect(await index.replaceDocumentChunks("t1", "new", "doc", chunks("doc", "g1", 2, "new"), 1)).toBe("stale");
    expect(await index.replaceDocumentChunks("t1", "new", "doc", chunks("doc", "g2", 2, "new"), 2)).toBe("stale");
    expect(await index.listDocumentChunks("t1", "new", "doc")).toEqual([]);
    // The marker (now the delete's, covering generation 2) has no tenantId key: no chunk query, count or list ever matches it.
    const marker = fake.points(COLLECTION).find((p) => p.id === generationMarkerId("t1", "doc"))!;
    expect(marker.payload).toMatchObject({ markerTenantId: "t1", markerDocumentId: "doc", generation: 2, writeId: "deleted" });
    expect(marker.payload).not.toHaveProperty("tenantId");
    expect((await index.listChunks({ tenantId: "t1", namespace: "new", offset: 0, limit: 10, order: "asc" })).total).toBe(0);
  });

  it("chunks written before generations (no marker) are shown, then replaced by the first write with a generation", async () => {
    const c = fake.client();
    const legacy = chunks("doc", "legacy", 2);
    const { chunkPoint } = await import("../../src/qdrant/chunk-index.qdrant");
    await c.upsert(COLLECTION, { points: legacy.map((x) => chunkPoint(x, 32)), wait: true });
    expect(labels(await contents())).toEqual(["legacy"]);
    await index.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "g1", 1), 1);
    expect(labels(await contents())).toEqual(["g1"]);
    expect(fake.points(COLLECTION).filter((p) => p.payload.documentId === "doc")).toHaveLength(1);
  });

  it("refuses a Qdrant server older than 1.16 (conditional updates) at start-up", async () => {
    fake.version = "1.15.5";
    await expect(assertQdrantVersion(fake.client())).rejects.toBeInstanceOf(QdrantSchemaError);
    await expect(QdrantChunkIndex.open(fake.client(), { prefix: "p", dimensions: 32 })).rejects.toThrow(/1\.15\.5 is too old.*1\.16\.0/);
    fake.version = "1.16.0";
    await expect(assertQdrantVersion(fake.client())).resolves.toBeUndefined();
    fake.version = "2.0.0-dev";
    await expect(assertQdrantVersion(fake.client())).resolves.toBeUndefined();
  });

  it("opened read-only (recall), the index creates nothing in Qdrant and refuses every write", async () => {
    await index.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "g1", 2), 1);
    fake.configs.set(COLLECTION, {
      params: { vectors: { dense: { size: 32, distance: "Cosine" } }, sparse_vectors: { text: { modifier: "idf" } } },
      payloadSchema: {},
    });
    fake.calls.length = 0;
    const reader = await QdrantChunkIndex.openReadOnly(fake.client(), { prefix: "test", dimensions: 32 });
    expect(labels((await reader.listDocumentChunks("t1", "ns", "doc")).map((c) => c.content))).toEqual(["g1"]);
    await expect(reader.replaceDocumentChunks("t1", "ns", "doc", chunks("doc", "g2", 1), 2)).rejects.toThrow(/read-only/);
    await expect(reader.deleteDocument("t1", "ns", "doc")).rejects.toThrow(/read-only/);
    await expect(reader.updateDocumentMetadata("t1", "doc", undefined, "2024-01-01T00:00:00.000Z")).rejects.toThrow(/read-only/);
    expect(fake.calls.filter((c) => ["createCollection", "createPayloadIndex", "upsert", "delete", "setPayload", "batchUpdate"].includes(c))).toEqual([]);
    await expect(QdrantChunkIndex.openReadOnly(fake.client(), { prefix: "test", dimensions: 64 })).rejects.toThrow(/32 dimensions but the embedder makes 64/);
  });
});
