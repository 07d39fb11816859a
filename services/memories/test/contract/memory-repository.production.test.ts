import { randomBytes } from "node:crypto";
import { collectionName, createQdrantClient, pointId, HashingEmbedder } from "@engram/index";
import { UnavailableError } from "@engram/kernel";
import { connectMongo, type Filter, type MongoConnection } from "@engram/storage/mongo";
import { describeWithEngines, uniqueMongoDbName, waitFor } from "@engram/testing";
import type { QdrantClient } from "@qdrant/js-client-rest";
import { decodeVector, type MemoryDoc, toMemoryDoc } from "../../src/adapters/production/memory-doc";
import {
  activeCopies,
  FORMATION_INDEXES,
  GUARD_INDEXES,
  MEMORY_INDEXES,
  memoryQueries,
  newerFormation,
  ONE_LATEST_PER_CHAIN,
  unindexedPage,
} from "../../src/adapters/production/memory-queries";
import { MongoQdrantMemoryStore } from "../../src/adapters/production/memory.mongo-qdrant";
import { type MemorySearchRecord, QdrantMemorySearch } from "../../src/adapters/production/memory-search.qdrant";
import type { MemoryRepository } from "../../src/app/ports";
import { contentKey } from "../../src/domain/memory";
import { createProductionMemoryStore } from "../../src/production-store";
import { logger } from "../unit/helpers";
import { memory, memoryRepositoryContract, type MemoryStoreHarness } from "./memory-repository.contract";
import { memoryReplicasContract } from "./memory-replicas.contract";
import { memoryWriteGuardsContract } from "./memory-write-guards.contract";

const DIM = 32;
const NOW = "2026-11-20T10:00:00.000Z";

/**
 * The production memory store (records in MongoDB, search in Qdrant): the
 * MemoryRepository contract, then what only this store has (indexes per query
 * path, the embedding kept in MongoDB, the mirror into Qdrant and its
 * reconciler after a failure or a crash, rebuilding the search side).
 * Skipped, with the reason printed, where no engines run.
 */
describeWithEngines(["mongo", "qdrant"], "MongoQdrantMemoryStore", ({ mongoUrl, qdrantUrl }) => {
  const dbName = uniqueMongoDbName("memories");
  const RUN = `engram_t_mem_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const embedder = new HashingEmbedder(DIM);
  let conn: MongoConnection;
  let qdrant: QdrantClient;
  let n = 0;

  beforeAll(async () => {
    conn = await connectMongo({ url: mongoUrl, dbName });
    qdrant = createQdrantClient({ QDRANT_URL: qdrantUrl, QDRANT_API_KEY: undefined });
  });

  afterAll(async () => {
    await conn?.db.dropDatabase();
    await conn?.close();
  });

  /** Collections of its own for one store (memories_N, memory_formations_N, <run>_N_memories): empty for every test. */
  function scope() {
    const k = ++n;
    return { prefix: `${RUN}_${k}`, collections: { memories: `memories_${k}`, formations: `memory_formations_${k}`, guards: `memory_guards_${k}` } };
  }

  async function dropScope(s: ReturnType<typeof scope>): Promise<void> {
    await qdrant.deleteCollection(collectionName(s.prefix, "memories")).catch(() => undefined);
    await conn.db
      .collection(s.collections.memories)
      .drop()
      .catch(() => undefined);
    await conn.db
      .collection(s.collections.formations)
      .drop()
      .catch(() => undefined);
    await conn.db
      .collection(s.collections.guards)
      .drop()
      .catch(() => undefined);
  }

  /** The store through the factory, on the test's connection, reconciling at start-up only unless asked. */
  const openFactory = (s: ReturnType<typeof scope>, reconcileIntervalMs = 0) =>
    createProductionMemoryStore({ mongo: { client: conn.client, db: conn.db }, qdrant, ...s, dimensions: DIM, logger, reconcileIntervalMs });

  /** The store on a given search side (a QdrantMemorySearch subclass that fails or waits on purpose). */
  async function openOn(s: ReturnType<typeof scope>, make: (collection: string) => QdrantMemorySearch, reconcileIntervalMs = 0) {
    const opened = await QdrantMemorySearch.open(qdrant, { prefix: s.prefix, dimensions: DIM });
    return MongoQdrantMemoryStore.open({
      db: conn.db,
      search: make(opened.collection),
      dimensions: DIM,
      collections: s.collections,
      logger,
      reconcileIntervalMs,
    });
  }

  memoryRepositoryContract("production (MongoDB records + Qdrant search)", async (): Promise<MemoryStoreHarness> => {
    const s = scope();
    let repo: MemoryRepository = await openFactory(s);
    return {
      repo,
      async reopen() {
        await repo.close();
        repo = await openFactory(s);
        return repo;
      },
      async cleanup() {
        await repo.close();
        await dropScope(s);
      },
    };
  });

  memoryWriteGuardsContract("production (MongoDB records + Qdrant search)", async () => {
    const s = scope();
    const repo = await openFactory(s);
    return {
      repo,
      async cleanup() {
        await repo.close();
        await dropScope(s);
      },
    };
  });

  memoryReplicasContract("production (MongoDB records + Qdrant search)", async () => {
    const s = scope();
    const repo = await openFactory(s);
    return {
      repo,
      embedder,
      async cleanup() {
        await repo.close();
        await dropScope(s);
      },
    };
  });

  /** Fails its first `failures` upserts (Qdrant unreachable right after the MongoDB commit), then works. */
  class FailingSearch extends QdrantMemorySearch {
    calls = 0;
    constructor(
      collection: string,
      private failures: number,
    ) {
      super({ client: qdrant, collection, dimensions: DIM });
    }
    override async upsert(records: MemorySearchRecord[]): Promise<void> {
      this.calls++;
      if (this.failures > 0) {
        this.failures--;
        throw new Error("qdrant unreachable (test)");
      }
      return super.upsert(records);
    }
  }

  const contents = (hits: { memory: { content: string } }[]) => hits.map((h) => h.memory.content);
  const query = (repo: MemoryRepository, text: string) => repo.search({ tenantId: "t1", namespaces: ["ns1"], text, limit: 10, now: NOW });

  describe("MongoDB specifics", () => {
    it("creates an index for every query path (formations unique), idempotently", async () => {
      const s = scope();
      const store = await openFactory(s);
      await store.close();
      const again = await openFactory(s);
      const memIdx = await again.memories.listIndexes().toArray();
      for (const spec of MEMORY_INDEXES) {
        const found = memIdx.find((i) => i.name === spec.name);
        expect({ name: spec.name, key: found?.key }).toEqual({ name: spec.name, key: spec.key });
        if (spec.partialFilterExpression) expect(found?.partialFilterExpression).toEqual(spec.partialFilterExpression);
      }
      // The unique index of one latest version per chain, and the guards' pruning index.
      const chainIdx = memIdx.find((i) => i.name === ONE_LATEST_PER_CHAIN.name);
      expect(chainIdx).toMatchObject({ key: ONE_LATEST_PER_CHAIN.key, unique: true, partialFilterExpression: ONE_LATEST_PER_CHAIN.partialFilterExpression });
      const guardIdx = await again.guards.listIndexes().toArray();
      for (const spec of GUARD_INDEXES) expect(guardIdx.find((i) => i.name === spec.name)?.key).toEqual(spec.key);
      const formIdx = await again.formations.listIndexes().toArray();
      expect(formIdx.find((i) => i.name === FORMATION_INDEXES[0]!.name)).toMatchObject({ key: FORMATION_INDEXES[0]!.key, unique: true });
      await again.close();
      await dropScope(s);
    });

    it("serves every read path from an index (no collection scan)", async () => {
      const s = scope();
      const store = await openFactory(s);
      const a = memory({ content: "Ola keeps bees", sources: [{ documentId: "d1", chunkPositions: [0] }], forgetAfter: "2026-11-19T00:00:00.000Z" });
      const b = memory({ content: "Ola keeps two hives", version: 2, rootMemoryId: a.id, parentMemoryId: a.id, relation: "updates" });
      await store.write({ records: [{ ...a, isLatest: false }, b] });
      const c = store.memories;
      const find = (spec: ReturnType<typeof memoryQueries.list>) => {
        let cur = c.find(spec.filter as Filter<MemoryDoc>);
        if (spec.sort) cur = cur.sort(spec.sort);
        if (spec.skip) cur = cur.skip(spec.skip);
        if (spec.limit) cur = cur.limit(spec.limit);
        return cur.explain();
      };
      const list = { tenantId: "t1", sort: "createdAt" as const, order: "desc" as const, offset: 0, limit: 10, now: NOW };
      const plans: [string, Promise<unknown>][] = [
        ["by id", find(memoryQueries.byId("t1", a.id))],
        ["by content key", find(memoryQueries.byContentKey("t1", "ns1", contentKey(a.content)))],
        ["by document", find(memoryQueries.byDocument("t1", "d1"))],
        ["expired", find(memoryQueries.expired(NOW, 10))],
        ["many", find(memoryQueries.many("t1", [a.id, b.id], "ns1"))],
        ["chains", find(memoryQueries.chains("t1", [a.id]))],
        ["list of namespaces", find(memoryQueries.list({ ...list, namespaces: ["ns1", "ns2"] }))],
        ["list of the tenant by update", find(memoryQueries.list({ ...list, sort: "updatedAt", order: "asc" }))],
        ["unindexed page", find(unindexedPage(10, { updatedAt: a.updatedAt, id: a.id }))],
        ["namespaces", conn.db.command({ explain: { distinct: c.collectionName, key: "namespace", query: memoryQueries.namespaces("t1") } })],
        ["formation", store.formations.find({ tenantId: "t1", documentId: "d1", generation: 1 }).explain()],
        ["newer formation", store.formations.find(newerFormation({ tenantId: "t1", documentId: "d1", generation: 1 })).explain()],
        [
          "active copies",
          c.find(activeCopies({ tenantId: "t1", namespace: "ns1", contentKey: contentKey(a.content), now: NOW }, [a.id]) as Filter<MemoryDoc>).explain(),
        ],
      ];
      for (const [label, plan] of plans) {
        const text = JSON.stringify(((await plan) as { queryPlanner: unknown }).queryPlanner);
        const usesIndex = /IXSCAN|IDHACK|EXPRESS|DISTINCT_SCAN/.test(text);
        expect({ label, usesIndex, scans: text.includes("COLLSCAN") }).toEqual({ label, usesIndex: true, scans: false });
      }
      await store.close();
      await dropScope(s);
    });

    it("keeps the embedding in MongoDB across writes without a new vector, and searches on it in Qdrant", async () => {
      const s = scope();
      const store = await openFactory(s);
      const text = "completely unrelated words";
      const a = memory({ content: text });
      const vector = embedder.embedOne(text);
      await store.write({ records: [a], vectors: new Map([[a.id, { vector, model: embedder.id }]]) });
      const raw = await store.memories.findOne({ _id: a.id });
      expect(raw?.model).toBe(embedder.id);
      expect(Array.from(decodeVector(raw!.vector!))).toEqual(Array.from(vector));
      // A change of flags only (no new vector): the stored vector stays, in MongoDB and in Qdrant.
      expect(await store.write({ records: [{ ...a, isStatic: true, updatedAt: NOW }], expect: [{ id: a.id, updatedAt: a.updatedAt }] })).toBe("written");
      const after = await store.memories.findOne({ _id: a.id });
      expect(Array.from(decodeVector(after!.vector!))).toEqual(Array.from(vector));
      const dense = await store.search({ tenantId: "t1", text: "zzz", vector, model: embedder.id, denseWeight: 0.5, limit: 5, now: NOW });
      expect(dense.map((h) => [h.memory.id, h.memory.isStatic])).toEqual([[a.id, true]]);
      // A vector of another size is refused before anything is written.
      const b = memory({ content: "other" });
      await expect(store.write({ records: [b], vectors: new Map([[b.id, { vector: new Float32Array(3), model: "x" }]]) })).rejects.toThrow(/3-dimension/);
      expect(await store.findById("t1", b.id)).toBeUndefined();
      await store.close();
      await dropScope(s);
    });

    it("on its first start with the chain index, gives older documents their chain root and repairs chains with two latest versions", async () => {
      const s = scope();
      // Documents as an earlier version wrote them (no chainRoot), after races: v1 latest again beside v2, two v2s of w.
      const raw = (m: ReturnType<typeof memory>) => {
        const { chainRoot: _omitted, ...doc } = toMemoryDoc(m, "rev-old");
        return { ...doc, indexed: true };
      };
      const v1 = memory({ content: "Ann is in Rome", isForgotten: true, forgottenAt: NOW });
      const v2 = memory({ content: "Ann is in Oslo", version: 2, rootMemoryId: v1.id, parentMemoryId: v1.id, relation: "updates" });
      const w1 = memory({ content: "Bo is 30", isLatest: false });
      const w2a = memory({ content: "Bo is 31", version: 2, rootMemoryId: w1.id, parentMemoryId: w1.id, relation: "updates" });
      const w2b = memory({ content: "Bo is 32", version: 2, rootMemoryId: w1.id, parentMemoryId: w1.id, relation: "updates", updatedAt: NOW });
      await conn.db.collection<Omit<MemoryDoc, "chainRoot">>(s.collections.memories).insertMany([v1, v2, w1, w2a, w2b].map(raw));
      const store = await openFactory(s);
      const latest = async (root: string) => (await store.chains("t1", [root])).filter((m) => m.isLatest).map((m) => m.id);
      expect(await latest(v1.id)).toEqual([v2.id]);
      expect(await latest(w1.id)).toEqual([w2b.id]);
      expect(await store.memories.countDocuments({ chainRoot: { $exists: false } })).toBe(0);
      // The demoted versions went back to the reconciler (Qdrant still had them latest): the start-up pass mirrored them.
      expect(await store.memories.countDocuments({ indexed: false })).toBe(0);
      const stale = (await store.findById("t1", v1.id))!;
      expect(
        await store.write({
          records: [{ ...stale, isLatest: true, updatedAt: "2026-11-21T00:00:00.000Z" }],
          expect: [{ id: v1.id, updatedAt: stale.updatedAt }],
        }),
      ).toBe("conflict");
      await store.close();
      await dropScope(s);
    });

    it("never moves a memory to another tenant (the conditional update matches nothing)", async () => {
      const s = scope();
      const store = await openFactory(s);
      const a = memory({ content: "Pia owns a kayak" });
      await store.write({ records: [a] });
      expect(await store.write({ records: [{ ...a, tenantId: "t2", updatedAt: NOW }], expect: [{ id: a.id, updatedAt: a.updatedAt }] })).toBe("conflict");
      expect(await store.findById("t1", a.id)).toEqual(a);
      expect(await store.findById("t2", a.id)).toBeUndefined();
      await store.close();
      await dropScope(s);
    });

    it("marks every written version indexed once Qdrant holds it", async () => {
      const s = scope();
      const store = await openFactory(s);
      const a = memory({ content: "Quinn runs marathons" });
      await store.write({ records: [a] });
      expect(await store.memories.findOne({ _id: a.id })).toMatchObject({ indexed: true, indexedAt: expect.any(String) });
      expect(await store.memories.countDocuments({ indexed: false })).toBe(0);
      await store.close();
      // Nothing left for the start-up pass: it sends Qdrant nothing.
      let search: FailingSearch | undefined;
      const again = await openOn(s, (c) => (search = new FailingSearch(c, 0)));
      expect(search!.calls).toBe(0);
      await again.close();
      await dropScope(s);
    });
  });

  describe("mirror failures and the reconciler", () => {
    it("a write whose mirror fails is stored, rejects, and is searchable after a restart (start-up reconcile)", async () => {
      const s = scope();
      const failing = await openOn(s, (c) => new FailingSearch(c, 1));
      const a = memory({ content: "Rosa collects vinyl records" });
      await expect(failing.write({ records: [a], formation: { tenantId: "t1", documentId: "d1", generation: 1 } })).rejects.toBeInstanceOf(UnavailableError);
      // Committed in MongoDB (record and formation), not in Qdrant.
      expect(await failing.findById("t1", a.id)).toEqual(a);
      expect(await failing.isFormed("t1", "d1", 1)).toBe(true);
      expect(await failing.memories.findOne({ _id: a.id })).toMatchObject({ indexed: false });
      expect(contents(await query(failing, "vinyl records"))).toEqual([]);
      await failing.close();

      const restarted = await openFactory(s);
      expect(contents(await query(restarted, "vinyl records"))).toEqual(["Rosa collects vinyl records"]);
      expect(await restarted.memories.findOne({ _id: a.id })).toMatchObject({ indexed: true });
      await restarted.close();
      await dropScope(s);
    });

    it("a process that dies between commit and mirror loses no search (the next start mirrors)", async () => {
      const s = scope();
      const store = await openFactory(s);
      const a = memory({ content: "Sam restores old clocks" });
      await store.write({ records: [a] });
      // What a crash right after the commit leaves: the version stored, Qdrant without it, the mark missing.
      const b = memory({ content: "Sam restores antique watches" });
      await store.close();
      const dead = await openOn(s, (c) => new FailingSearch(c, Infinity));
      await expect(
        dead.write({ records: [b, { ...a, isLatest: false, updatedAt: NOW }], expect: [{ id: a.id, updatedAt: a.updatedAt }] }),
      ).rejects.toBeInstanceOf(UnavailableError);
      await dead.close();
      // Qdrant still has the old state: `a` latest, `b` unknown; MongoDB has the new one.
      const restarted = await openFactory(s);
      expect(contents(await query(restarted, "Sam restores"))).toEqual(["Sam restores antique watches"]);
      expect(await restarted.memories.countDocuments({ indexed: false })).toBe(0);
      await restarted.close();
      await dropScope(s);
    });

    it("the periodic reconciler makes a failed mirror searchable without a restart", async () => {
      const s = scope();
      const store = await openOn(s, (c) => new FailingSearch(c, 1), 200);
      const a = memory({ content: "Tara grows chillies" });
      await expect(store.write({ records: [a] })).rejects.toBeInstanceOf(UnavailableError);
      await waitFor(async () => contents(await query(store, "chillies")).length === 1, { timeoutMs: 20_000, what: "the reconciler to mirror" });
      expect(await store.memories.findOne({ _id: a.id })).toMatchObject({ indexed: true });
      await store.close();
      await dropScope(s);
    });

    it("search drops hits MongoDB no longer confirms while Qdrant lags", async () => {
      const s = scope();
      const store = await openFactory(s);
      const a = memory({ content: "Uma speaks Finnish" });
      await store.write({ records: [a] });
      await store.close();
      const lagging = await openOn(s, (c) => new FailingSearch(c, Infinity));
      const forgotten = { ...a, isForgotten: true, forgottenAt: NOW, updatedAt: NOW };
      await expect(lagging.write({ records: [forgotten], expect: [{ id: a.id, updatedAt: a.updatedAt }] })).rejects.toBeInstanceOf(UnavailableError);
      // Qdrant still says active; MongoDB says forgotten: the hit is dropped.
      expect(contents(await query(lagging, "Finnish"))).toEqual([]);
      await lagging.close();
      await dropScope(s);
    });

    it("a stale mirror landing after a newer one is corrected before the write returns", async () => {
      const s = scope();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let held = 0;
      /** Holds the first upsert until released: the older write's mirror then lands after the newer write's. */
      class HeldSearch extends QdrantMemorySearch {
        constructor(collection: string) {
          super({ client: qdrant, collection, dimensions: DIM });
        }
        override async upsert(records: MemorySearchRecord[]): Promise<void> {
          if (held++ === 0) await gate;
          return super.upsert(records);
        }
      }
      const store = await openOn(s, (c) => new HeldSearch(c));
      const a = memory({ content: "Vic lives in Oslo" });
      const older = store.write({ records: [a] });
      await waitFor(() => held === 1, { what: "the first mirror to start" });
      expect(await store.write({ records: [{ ...a, content: "Vic lives in Bergen", updatedAt: NOW }], expect: [{ id: a.id, updatedAt: a.updatedAt }] })).toBe(
        "written",
      );
      release();
      await expect(older).resolves.toBe("written");
      expect(contents(await query(store, "Oslo"))).toEqual([]);
      expect(contents(await query(store, "Bergen"))).toEqual(["Vic lives in Bergen"]);
      expect(await store.memories.findOne({ _id: a.id })).toMatchObject({ indexed: true, content: "Vic lives in Bergen" });
      await store.close();
      await dropScope(s);
    });

    it("rebuilds the search side from MongoDB after Qdrant lost its points", async () => {
      const s = scope();
      const store = await openFactory(s);
      const text = "Wes paints watercolours";
      const a = memory({ content: text });
      const old = memory({ content: "Wes paints murals", isLatest: false });
      const vector = embedder.embedOne(text);
      await store.write({ records: [a, old], vectors: new Map([[a.id, { vector, model: embedder.id }]]) });
      const name = collectionName(s.prefix, "memories");
      await qdrant.delete(name, { points: [pointId("t1", a.id), pointId("t1", old.id)], wait: true });
      expect((await qdrant.count(name, { exact: true })).count).toBe(0);
      expect(contents(await query(store, "Wes paints"))).toEqual([]);
      expect(await store.rebuildSearch()).toEqual({ mirrored: 2, failed: 0 });
      expect(contents(await query(store, "Wes paints"))).toEqual([text]);
      const dense = await store.search({ tenantId: "t1", text: "zzz", vector, model: embedder.id, denseWeight: 0.5, limit: 5, now: NOW });
      expect(dense.map((h) => h.memory.id)).toEqual([a.id]);
      await store.close();
      await dropScope(s);
    });
  });
});
