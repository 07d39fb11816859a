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

describe("production memory store: a namespace move reaches Qdrant through the reconciler", () => {
  it("moved records are marked for re-indexing, so a move whose Qdrant update failed is repaired by the next pass", async () => {
    const mongo = new FakeMongoDb();
    const qdrant = new FakeQdrant();
    const moved = [memory({ content: "Ada builds boats", namespace: "old" }), memory({ content: "Ada sails on Sundays", namespace: "old" })];
    const stays = memory({ content: "Ada sails in the other tag", namespace: "other" });
    const store = await createProductionMemoryStore({
      mongo: { client: {} as MongoClient, db: mongo.asDb() },
      qdrant: qdrant.client(),
      prefix: "mv",
      dimensions: DIMS,
      logger,
      reconcileIntervalMs: 0,
    });
    for (const m of [...moved, stays]) mongo.docs("memories").push(toMemoryDoc(m, "w1") as unknown as Record<string, unknown>);
    await store.reconcile();
    const namespaces = () =>
      Object.fromEntries(
        qdrant
          .points("mv_memories")
          .map((p) => [String(p.payload.content), p.payload.namespace])
          .sort(),
      );
    expect(namespaces()).toEqual({ "Ada builds boats": "old", "Ada sails on Sundays": "old", "Ada sails in the other tag": "other" });
    expect(mongo.docs("memories").every((d) => d.indexed === true)).toBe(true);

    // The move's own Qdrant update fails (Qdrant unreachable for that request): MongoDB has moved, Qdrant has not.
    qdrant.failing.set("setPayload", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
    await expect(store.moveNamespaces("t1", ["old"], "new")).rejects.toThrow(/ECONNREFUSED/);
    qdrant.failing.clear();
    expect(mongo.docs("memories").filter((d) => d.namespace === "new")).toHaveLength(2);
    expect(namespaces()["Ada builds boats"]).toBe("old");
    // The moved records wait for the reconciler; the others stay indexed.
    expect(
      mongo
        .docs("memories")
        .map((d) => [d.content, d.indexed])
        .sort(),
    ).toEqual([
      ["Ada builds boats", false],
      ["Ada sails in the other tag", true],
      ["Ada sails on Sundays", false],
    ]);
    expect(await store.reconcile()).toEqual({ mirrored: 2, failed: 0 });
    expect(namespaces()).toEqual({ "Ada builds boats": "new", "Ada sails on Sundays": "new", "Ada sails in the other tag": "other" });
    const hits = await store.search({ tenantId: "t1", namespaces: ["new"], text: "Ada sails", limit: 5, now: "2026-11-20T00:00:00.000Z" });
    expect(hits[0]!.memory.content).toBe("Ada sails on Sundays");
    expect(hits.every((h) => h.memory.namespace === "new")).toBe(true);
    expect(mongo.docs("memories").every((d) => d.indexed === true)).toBe(true);
    await store.close();
  });
});
