import { HashingEmbedder } from "@engram/index";
import { FakeQdrant } from "@engram/index/test/qdrant/fake-qdrant";
import type { MongoClient } from "@engram/storage/mongo";
import { toMemoryDoc } from "../../src/adapters/production/memory-doc";
import { QdrantMemorySearch } from "../../src/adapters/production/memory-search.qdrant";
import { createProductionMemoryReader, createProductionMemoryStore } from "../../src/production-store";
import { memory } from "../contract/memory-repository.contract";
import { FakeMongoDb } from "./fake-mongo";
import { logger } from "./helpers";

/**
 * The production memory store opened by a process that only reads it (recall), over a MongoDB and a Qdrant that
 * record every operation (FakeMongoDb evaluates the queries with mingo; FakeQdrant the Qdrant filters): the
 * read-only open creates nothing, runs no reconcile pass and writes nothing, while its reads answer.
 */
const DIMS = 16;
const PREFIX = "ro";
const QDRANT_WRITES = new Set(["createCollection", "createPayloadIndex", "upsert", "delete", "setPayload", "batchUpdate"]);

describe("production memory store: the read-only open (recall)", () => {
  let mongo: FakeMongoDb;
  let qdrant: FakeQdrant;
  const records = [
    memory({ content: "Dana prefers the window seat", namespace: "ns1" }),
    memory({ content: "Dana lives in Lisbon", namespace: "ns1" }),
    memory({ content: "Omar plays the cello", namespace: "ns2" }),
  ];

  beforeEach(async () => {
    mongo = new FakeMongoDb();
    qdrant = new FakeQdrant();
    // What the memories service left: the records (the last one not yet mirrored) and the search points of the first two.
    const writer = await QdrantMemorySearch.open(qdrant.client(), { prefix: PREFIX, dimensions: DIMS });
    records.forEach((r, i) => mongo.docs("memories").push({ ...toMemoryDoc(r, "w1"), indexed: i < 2 } as unknown as Record<string, unknown>));
    await writer.upsert(records.slice(0, 2).map((r) => ({ ...r })));
    mongo.calls.length = 0;
    qdrant.calls.length = 0;
  });

  const options = () => ({
    mongo: { client: {} as MongoClient, db: mongo.asDb() },
    qdrant: qdrant.client(),
    prefix: PREFIX,
    dimensions: DIMS,
    logger,
  });
  const qdrantWrites = () => qdrant.calls.filter((c) => QDRANT_WRITES.has(c));

  it("creates no collection or index, runs no reconcile pass, and its reads write nothing", async () => {
    const reader = await createProductionMemoryReader(options());
    const embedder = new HashingEmbedder(DIMS);
    const hits = await reader.search({
      tenantId: "t1",
      namespaces: ["ns1"],
      text: "where does Dana live",
      vector: embedder.embedOne("Dana live"),
      limit: 5,
      now: "2026-11-20T00:00:00.000Z",
    });
    expect(hits.map((h) => h.memory.content)).toContain("Dana lives in Lisbon");
    expect(
      (await reader.list({ tenantId: "t1", namespaces: ["ns1"], offset: 0, limit: 10, order: "desc", sort: "createdAt", now: "2026-11-20T00:00:00.000Z" }))
        .total,
    ).toBe(2);
    expect((await reader.getMany("t1", [records[2]!.id, records[0]!.id])).map((m) => m.id)).toEqual([records[2]!.id, records[0]!.id]);
    expect((await reader.chains("t1", [records[0]!.id])).map((m) => m.id)).toEqual([records[0]!.id]);
    await reader.close();

    expect(mongo.writes()).toEqual([]);
    expect(qdrantWrites()).toEqual([]);
    // The record the memories service has not mirrored yet stays for its reconciler.
    expect(mongo.docs("memories").filter((d) => d.indexed === false)).toHaveLength(1);
    // Only the read side exists: nothing to write with.
    expect(Object.keys(reader).sort()).toEqual(["chains", "close", "getMany", "list", "search"]);
  });

  it("the writer's open (the memories service) does create the schema and reconcile: what recall used to run", async () => {
    const store = await createProductionMemoryStore({ ...options(), reconcileIntervalMs: 0 });
    await store.close();
    expect(mongo.writes()).toEqual(
      expect.arrayContaining(["memories.createCollection", "memories.createIndexes", "memory_formations.createIndexes", "memories.bulkWrite"]),
    );
    expect(qdrantWrites()).toContain("upsert");
    expect(mongo.docs("memories").filter((d) => d.indexed === false)).toHaveLength(0);
  });

  it("refuses a Qdrant collection whose vectors do not fit the embedder, and leaves a missing one to the memories service", async () => {
    await expect(createProductionMemoryReader({ ...options(), dimensions: 32 })).rejects.toThrow(/16 dimensions but the embedder makes 32/);
    const empty = new FakeQdrant();
    const reader = await createProductionMemoryReader({ ...options(), qdrant: empty.client(), prefix: "none" });
    expect(empty.calls.filter((c) => QDRANT_WRITES.has(c))).toEqual([]);
    await reader.close();
  });
});
