import { ConfigError, loadConfig } from "@engram/config";
import { parseFilter } from "@engram/filters";
import { QdrantClient } from "@qdrant/js-client-rest";
import type { IndexedChunk } from "../../src/chunk-index";
import { HashingEmbedder } from "../../src/embedder";
import { chunkFromPayload, chunkPoint } from "../../src/qdrant/chunk-index.qdrant";
import {
  chunkCollectionSpec,
  collectionName,
  epochMs,
  memoryCollectionSpec,
  missingPayloadIndexes,
  pointId,
  qdrantErrorDetail,
  vectorConfigProblems,
} from "../../src/qdrant/collections";
import { createQdrantClient, qdrantConfigSchema } from "../../src/qdrant/config";
import { FILTER_PAYLOAD_KEY, toQdrantFilter } from "../../src/qdrant/filter";
import { termId } from "../../src/qdrant/sparse";
import { evalQdrantFilter } from "./qdrant-filter-model";

const embedder = new HashingEmbedder(16);

function chunk(over: Partial<IndexedChunk> = {}): IndexedChunk {
  return {
    id: "c_1",
    tenantId: "t1",
    namespace: "ns",
    documentId: "d1",
    position: 3,
    content: "Pelicans dive for fish; pelicans fly.",
    startOffset: 10,
    endOffset: 47,
    tokenCount: 7,
    vector: embedder.embedOne("Pelicans dive for fish; pelicans fly."),
    document: {
      title: "Birds",
      customId: "b-1",
      metadata: { team: "Red", tags: ["a"] },
      createdAt: "2024-01-01T00:00:00.000Z",
      updatedAt: "2024-01-02T00:00:00.000Z",
    },
    createdAt: "2024-01-03T00:00:00.000Z",
    ...over,
  };
}

describe("point ids", () => {
  it("are UUIDs (version 5 layout) derived from tenant and record id", () => {
    const id = pointId("t1", "c_1");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(pointId("t1", "c_1")).toBe(id);
    expect(pointId("t2", "c_1")).not.toBe(id);
    expect(pointId("t1", "c_2")).not.toBe(id);
    // The separator keeps ("a", "bc") and ("ab", "c") apart.
    expect(pointId("a", "bc")).not.toBe(pointId("ab", "c"));
  });

  it("list order reads creation dates as epoch milliseconds (0 when they do not parse)", () => {
    expect(epochMs("2024-02-01T00:00:00.000Z")).toBe(Date.UTC(2024, 1, 1));
    expect(epochMs("2024-02-01")).toBe(Date.UTC(2024, 1, 1));
    expect(epochMs("not a date")).toBe(0);
    expect(epochMs(undefined)).toBe(0);
  });
});

describe("chunk points", () => {
  it("carry every chunk field but the vector, and read back as the chunk", () => {
    const c = chunk({ model: "m1" });
    const p = chunkPoint(c, 16);
    const payload = JSON.parse(JSON.stringify(p.payload)) as Record<string, unknown>;
    const { vector: _v, ...rest } = c;
    expect(chunkFromPayload(payload)).toEqual(rest);
    expect(payload).toMatchObject({ model: "m1", createdAtMs: Date.UTC(2024, 0, 3), terms: ["pelican", "dive", "fish", "fli"] });
    expect((payload[FILTER_PAYLOAD_KEY] as { lc: unknown }).lc).toEqual({ team: "red", tags: ["a"] });
    expect(p.id).toBe(pointId("t1", "c_1"));
  });

  it("store the dense vector and the BM25 sparse vector of the stems", () => {
    const p = chunkPoint(chunk(), 16);
    const v = p.vector as { dense: number[]; text: { indices: number[]; values: number[] } };
    expect(v.dense).toHaveLength(16);
    expect(v.text.indices).toHaveLength(4);
    expect(v.text.indices).toContain(termId("pelican"));
    const pel = v.text.values[v.text.indices.indexOf(termId("pelican"))]!;
    const fish = v.text.values[v.text.indices.indexOf(termId("fish"))]!;
    expect(pel).toBeGreaterThan(fish);
  });

  it("leave out a zero or empty dense vector and an empty sparse one; refuse a vector of another size", () => {
    expect(chunkPoint(chunk({ content: "the of and", vector: new Float32Array(16) }), 16).vector).toEqual({});
    expect(chunkPoint(chunk({ vector: new Float32Array(0) }), 16).vector).not.toHaveProperty("dense");
    expect(() => chunkPoint(chunk({ vector: new Float32Array(8).fill(0.5) }), 16)).toThrow(/8-dimension vector.*16 dimensions/);
  });

  it("read back without model or metadata when none was stored (or metadata was cleared to null)", () => {
    const c = chunk({ document: { createdAt: "x", updatedAt: "y" } });
    const payload = JSON.parse(JSON.stringify(chunkPoint(c, 16).payload)) as Record<string, unknown>;
    expect(payload.model).toBe("");
    const back = chunkFromPayload(payload);
    expect(back).not.toHaveProperty("model");
    expect(back.document).toEqual({ createdAt: "x", updatedAt: "y" });
    const cleared = chunkFromPayload({ ...payload, document: { createdAt: "x", updatedAt: "z", metadata: null } });
    expect(cleared.document).toEqual({ createdAt: "x", updatedAt: "z" });
  });
});

describe("collection specs and start-up checks", () => {
  it("name collections <prefix>_chunks and <prefix>_memories", () => {
    expect(collectionName("engram", "chunks")).toBe("engram_chunks");
    expect(collectionName("x", "memories")).toBe("x_memories");
  });

  it("index tenant (is_tenant), namespace, documentId, createdAtMs, terms, model, the filter lists and the configured metadata keys", () => {
    const spec = chunkCollectionSpec(384, ["team", "a.b"]);
    expect(spec.dimensions).toBe(384);
    const fields = Object.fromEntries(spec.payloadIndexes.map((i) => [i.field, i.schema]));
    expect(fields.tenantId).toEqual({ type: "keyword", is_tenant: true });
    expect(fields.namespace).toEqual({ type: "keyword" });
    expect(fields.documentId).toMatchObject({ type: "keyword" });
    expect(fields.createdAtMs).toMatchObject({ type: "integer" });
    expect(fields.terms).toMatchObject({ type: "keyword" });
    expect(fields.model).toMatchObject({ type: "keyword" });
    expect(fields["_filter.arrays"]).toMatchObject({ type: "keyword" });
    expect(fields["_filter.strings"]).toMatchObject({ type: "keyword" });
    expect(fields["_filter.v.team"]).toMatchObject({ type: "keyword" });
    expect(fields["_filter.lc.team"]).toMatchObject({ type: "keyword" });
    expect(fields["_filter.n.team"]).toEqual({ type: "float" });
    expect(fields['_filter.v."a.b"']).toMatchObject({ type: "keyword" });
    const memFields = Object.fromEntries(memoryCollectionSpec(384).payloadIndexes.map((i) => [i.field, i.schema]));
    expect(memFields).toMatchObject({ isLatest: "bool", isForgotten: "bool", isStatic: "bool", forgetAfterMs: { type: "integer" } });
    expect(memFields).not.toHaveProperty("documentId");
  });

  it("accept a collection with the right vectors and name every difference otherwise", () => {
    const spec = chunkCollectionSpec(384);
    const good = { vectors: { dense: { size: 384, distance: "Cosine" as const } }, sparse_vectors: { text: { modifier: "idf" as const } } };
    expect(vectorConfigProblems("c", good, spec)).toEqual([]);
    expect(vectorConfigProblems("c", { ...good, vectors: { dense: { size: 768, distance: "Cosine" } } }, spec)).toEqual([
      expect.stringMatching(/"c" stores dense vectors of 768 dimensions but the embedder makes 384/),
    ]);
    expect(vectorConfigProblems("c", { ...good, vectors: { size: 384, distance: "Cosine" } }, spec)[0]).toMatch(/no named dense vector "dense"/);
    expect(vectorConfigProblems("c", { ...good, vectors: { dense: { size: 384, distance: "Dot" } } }, spec)[0]).toMatch(/Dot distance, not Cosine/);
    expect(vectorConfigProblems("c", { vectors: good.vectors }, spec)[0]).toMatch(/no sparse vector "text"/);
    expect(vectorConfigProblems("c", { vectors: good.vectors, sparse_vectors: { text: {} } }, spec)[0]).toMatch(/lacks the idf modifier/);
  });

  it("report Qdrant's own reason for a failed request (the client only says the HTTP status)", () => {
    const apiError = Object.assign(new Error("Bad Request"), { status: 400, data: { status: { error: "Wrong input: Collection `x` already exists!" } } });
    expect(qdrantErrorDetail(apiError)).toBe("Bad Request: Wrong input: Collection `x` already exists!");
    expect(qdrantErrorDetail(new Error("socket hang up"))).toBe("socket hang up");
  });

  it("ask only for payload indexes that are missing, of another type, or lack is_tenant", () => {
    const wanted = chunkCollectionSpec(8, ["team"]).payloadIndexes;
    const all = Object.fromEntries(
      wanted.map((w) => [w.field, { data_type: (typeof w.schema === "string" ? w.schema : w.schema.type) as "keyword", params: w.schema as never, points: 0 }]),
    );
    expect(missingPayloadIndexes(all, wanted)).toEqual([]);
    const { namespace: _ns, ...withoutNamespace } = all;
    expect(missingPayloadIndexes(withoutNamespace, wanted).map((w) => w.field)).toEqual(["namespace"]);
    expect(missingPayloadIndexes({ ...all, tenantId: { data_type: "keyword", points: 0 } }, wanted).map((w) => w.field)).toEqual(["tenantId"]);
    expect(missingPayloadIndexes({ ...all, createdAtMs: { data_type: "float", points: 0 } }, wanted).map((w) => w.field)).toEqual(["createdAtMs"]);
  });
});

describe("Qdrant configuration", () => {
  it("defaults to the embedded index, prefix engram and no indexed metadata keys", () => {
    expect(loadConfig("test", qdrantConfigSchema, {})).toEqual({
      INDEX: "embedded",
      QDRANT_COLLECTION_PREFIX: "engram",
      QDRANT_INDEXED_METADATA_KEYS: [],
      QDRANT_FUSION: "weighted",
      QDRANT_TIMEOUT_MS: 30000,
    });
  });

  it("takes Qdrant's server-side fusion when asked and refuses unknown ones", () => {
    expect(loadConfig("test", qdrantConfigSchema, { QDRANT_FUSION: "dbsf" }).QDRANT_FUSION).toBe("dbsf");
    expect(() => loadConfig("test", qdrantConfigSchema, { QDRANT_FUSION: "max" })).toThrow(/QDRANT_FUSION: must be weighted, rrf or dbsf/);
  });

  it("requires QDRANT_URL when INDEX=qdrant and parses the key list", () => {
    expect(() => loadConfig("test", qdrantConfigSchema, { INDEX: "qdrant" })).toThrow(ConfigError);
    expect(() => loadConfig("test", qdrantConfigSchema, { INDEX: "qdrant" })).toThrow(/QDRANT_URL: is required when INDEX=qdrant/);
    const c = loadConfig("test", qdrantConfigSchema, {
      INDEX: "qdrant",
      QDRANT_URL: "http://localhost:6333",
      QDRANT_API_KEY: "secret",
      QDRANT_COLLECTION_PREFIX: "tenant-a_prod",
      QDRANT_INDEXED_METADATA_KEYS: " team, year ,,source ",
    });
    expect(c).toMatchObject({
      QDRANT_URL: "http://localhost:6333",
      QDRANT_COLLECTION_PREFIX: "tenant-a_prod",
      QDRANT_INDEXED_METADATA_KEYS: ["team", "year", "source"],
    });
  });

  it("rejects a prefix that is not a collection-name fragment, a malformed URL and an unknown INDEX", () => {
    expect(() => loadConfig("test", qdrantConfigSchema, { QDRANT_COLLECTION_PREFIX: "bad prefix/" })).toThrow(/QDRANT_COLLECTION_PREFIX/);
    expect(() => loadConfig("test", qdrantConfigSchema, { INDEX: "qdrant", QDRANT_URL: "not a url" })).toThrow(/QDRANT_URL: must be a URL/);
    expect(() => loadConfig("test", qdrantConfigSchema, { INDEX: "mongo" })).toThrow(/INDEX: must be embedded or qdrant/);
  });

  it("creates a client for the URL (no version check) and refuses to without one", () => {
    expect(createQdrantClient({ QDRANT_URL: "http://localhost:6333", QDRANT_API_KEY: undefined })).toBeInstanceOf(QdrantClient);
    expect(() => createQdrantClient({ QDRANT_URL: undefined, QDRANT_API_KEY: undefined })).toThrow(/QDRANT_URL/);
  });

  it("parses filters the same way for both adapters (smoke: a filter translates against the documented payload)", () => {
    const payload = JSON.parse(JSON.stringify(chunkPoint(chunk(), 16).payload));
    expect(
      evalQdrantFilter(toQdrantFilter({ tenantId: "t1", namespaces: ["ns"] }, parseFilter({ key: "team", value: "red", ignoreCase: true })), payload),
    ).toBe(true);
    expect(evalQdrantFilter(toQdrantFilter({ tenantId: "t1", namespaces: ["ns"] }, parseFilter({ key: "team", value: "red" })), payload)).toBe(false);
  });
});
