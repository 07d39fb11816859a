import { BSON } from "@engram/storage/mongo";
import { describeWithEngines } from "@engram/testing";
import { useMongoDatabase } from "@engram/testing/src/mongo";
import {
  CONNECTION_INDEXES,
  CONNECTION_ITEM_INDEXES,
  createMongoConnectionRepository,
  type MongoConnectionRepository,
  SYNC_RUN_INDEXES,
  WEBHOOK_DELIVERY_INDEXES,
} from "../../src/adapters/mongo/connections.mongo";
import { createMongoSettingsRepository } from "../../src/adapters/mongo/settings.mongo";
import { finishSyncRun, newSyncRun, patchConnection } from "../../src/domain/connection";
import { conn, type ConnectionRepositoryHarness, connectionRepositoryContract, item } from "./connection-repository.contract";

describeWithEngines(["mongo"], "MongoConnectionRepository", ({ mongoUrl }) => {
  const mongo = useMongoDatabase(mongoUrl, "connections");
  let n = 0;

  /** A repository on collections of its own (connections_N, ...): empty for every test. */
  async function openMongo(): Promise<ConnectionRepositoryHarness & { repo: MongoConnectionRepository }> {
    const i = ++n;
    const opts = {
      connections: `connections_${i}`,
      items: `connection_items_${i}`,
      runs: `sync_runs_${i}`,
      deliveries: `webhook_deliveries_${i}`,
      metaCollection: `connections_meta_${i}`,
    };
    let repo = await createMongoConnectionRepository(mongo.db, opts);
    return {
      get repo() {
        return repo;
      },
      reopen: async () => {
        await repo.close();
        repo = await createMongoConnectionRepository(mongo.db, opts);
        return repo;
      },
      bindSecretKey: (fingerprints, o) => repo.bindSecretKey(fingerprints, o),
      boundKeyId: () => repo.boundSecretKeyId(),
      rawStored: async () => {
        const docs = [
          ...(await repo.connections.find().toArray()),
          ...(await repo.items.find().toArray()),
          ...(await repo.runs.find().toArray()),
          ...(await repo.meta.find().toArray()),
        ];
        return Buffer.concat(docs.map((d) => Buffer.from(BSON.serialize(d))));
      },
      close: () => repo.close(),
    };
  }

  describe("connection repository contract", () => {
    connectionRepositoryContract(openMongo);
  });

  describe("MongoDB specifics", () => {
    it("creates an index for every query path, idempotently", async () => {
      const h = await openMongo();
      await h.repo.ensureIndexes();
      const check = async (
        coll: {
          listIndexes(): {
            toArray(): Promise<{ name?: string; key?: unknown; unique?: boolean; partialFilterExpression?: unknown; expireAfterSeconds?: number }[]>;
          };
        },
        specs: typeof CONNECTION_INDEXES,
      ) => {
        const indexes = await coll.listIndexes().toArray();
        for (const spec of specs) {
          const found = indexes.find((x) => x.name === spec.name);
          expect({ name: spec.name, key: found?.key }).toEqual({ name: spec.name, key: spec.key });
          if (spec.unique) expect(found?.unique).toBe(true);
          if (spec.partialFilterExpression) expect(found?.partialFilterExpression).toEqual(spec.partialFilterExpression);
          if (spec.expireAfterSeconds !== undefined) expect(found?.expireAfterSeconds).toBe(spec.expireAfterSeconds);
        }
      };
      await check(h.repo.connections, CONNECTION_INDEXES);
      await check(h.repo.items, CONNECTION_ITEM_INDEXES);
      await check(h.repo.runs, SYNC_RUN_INDEXES);
      await check(h.repo.deliveries, WEBHOOK_DELIVERY_INDEXES);
      await h.close();
    });

    it("serves the read paths from those indexes (no collection scan)", async () => {
      const h = await openMongo();
      const c = await h.repo.create(conn({ containerTags: ["t1"] }));
      await h.repo.upsertItem("acme", item(c.id, "k"));
      await h.repo.startRun(newSyncRun({ tenantId: "acme", connectionId: c.id, trigger: "manual" }, "2025-01-01T00:00:00.000Z"));
      const { connections, items, runs, deliveries } = h.repo;
      const plans: [string, Promise<unknown>][] = [
        ["list", connections.find({ tenantId: "acme" }).sort({ createdAt: -1, _id: -1 }).explain()],
        [
          "by provider",
          connections
            .find({ tenantId: "acme", provider: "notion", containerTags: { $all: ["t1"] } })
            .sort({ createdAt: -1, _id: -1 })
            .explain(),
        ],
        ["by namespace", connections.find({ tenantId: "acme", namespace: "team" }).sort({ createdAt: -1, _id: -1 }).explain()],
        ["by tags", connections.find({ tenantId: "acme", containerTags: { $in: ["t1"] } }).explain()],
        [
          "item keys",
          items
            .find({ tenantId: "acme", connectionId: c.id, itemKey: { $gt: "" } })
            .sort({ itemKey: 1 })
            .limit(11)
            .explain(),
        ],
        ["items by key", items.find({ tenantId: "acme", connectionId: c.id, itemKey: { $in: ["k"] } }).explain()],
        ["last run", runs.find({ tenantId: "acme", connectionId: c.id }).sort({ startedAt: -1, _id: -1 }).limit(1).explain()],
        ["running runs", runs.find({ tenantId: "acme", connectionId: c.id, status: "running" }).explain()],
        // dueForSync's query (as the adapter builds it) and the start-up look for documents without a due time.
        [
          "due",
          connections
            .find({
              status: "active",
              nextSyncAt: { $lte: "2030-01-01T00:00:00.000Z" },
              provider: { $in: ["notion", "web-crawler"] },
              expiresAt: { $not: { $lte: "2030-01-01T00:00:00.000Z" } },
              $or: [{ leaseHolder: null }, { leaseExpiresMs: { $lte: Date.parse("2030-01-01T00:00:00.000Z") } }],
            })
            .sort({ nextSyncAt: 1, _id: 1 })
            .limit(10)
            .explain(),
        ],
        ["to backfill", connections.find({ status: { $in: ["active", "expired"] }, nextSyncAt: null }).explain()],
        // recordDelivery's forgetting of an expired id, and delete's removal of a connection's ids.
        [
          "expired delivery",
          deliveries.find({ connectionId: c.id, deliveryId: "d", tenantId: "acme", receivedAt: { $lt: new Date("2030-01-01T00:00:00.000Z") } }).explain(),
        ],
        ["deliveries", deliveries.find({ tenantId: "acme", connectionId: c.id }).explain()],
      ];
      for (const [label, plan] of plans) {
        const text = JSON.stringify(((await plan) as { queryPlanner: unknown }).queryPlanner);
        expect({ label, usesIndex: text.includes("IXSCAN"), scans: text.includes("COLLSCAN") }).toEqual({ label, usesIndex: true, scans: false });
      }
      // The due look reads the `due` index in the order asked for: no in-memory sort.
      const due = JSON.stringify(
        (
          (await connections
            .find({ status: "active", nextSyncAt: { $lte: "2030-01-01T00:00:00.000Z" } })
            .sort({ nextSyncAt: 1, _id: 1 })
            .limit(10)
            .explain()) as { queryPlanner: { winningPlan: unknown } }
        ).queryPlanner.winningPlan,
      );
      expect({ index: due.includes('"indexName":"due"'), sorts: due.includes('"stage":"SORT"') }).toEqual({ index: true, sorts: false });
      await h.close();
    });

    it("gives connections stored before scheduled syncs existed their due time when its indexes are ensured", async () => {
      const h = await openMongo();
      const synced = await h.repo.create(conn({ provider: "web-crawler", config: { startUrl: "https://a.example/" } }, "2025-03-01T10:00:00.000Z"));
      const never = await h.repo.create(conn({ provider: "granola", namespace: "never" }, "2025-03-02T10:00:00.000Z"));
      await h.repo.startRun(newSyncRun({ tenantId: "acme", connectionId: synced.id, trigger: "initial" }, "2025-03-01T10:05:00.000Z"));
      // As documents written before the schedule fields existed.
      await h.repo.connections.updateMany({}, { $unset: { nextSyncAt: "", lastSyncStartedAt: "" } });
      expect(await h.repo.dueForSync(new Date("2030-01-01T00:00:00.000Z"), { limit: 10 })).toEqual([]);
      await h.repo.ensureIndexes();
      expect(await h.repo.dueForSync(new Date("2025-03-08T10:04:59.999Z"), { limit: 10 })).toEqual([
        { tenantId: "acme", connectionId: never.id, provider: "granola", dueAt: "2025-03-02T10:00:00.000Z", requested: false },
      ]);
      expect((await h.repo.dueForSync(new Date("2025-03-08T10:05:00.000Z"), { limit: 10 })).map((d) => [d.connectionId, d.dueAt])).toEqual([
        [never.id, "2025-03-02T10:00:00.000Z"],
        [synced.id, "2025-03-08T10:05:00.000Z"],
      ]);
      await h.close();
    });

    it("keeps the due time consistent when a run finishes while the config changes", async () => {
      const h = await openMongo();
      const c = await h.repo.create(conn({ provider: "web-crawler", config: { startUrl: "https://a.example/" } }, "2025-03-01T10:00:00.000Z"));
      for (let i = 0; i < 10; i++) {
        const run = await h.repo.startRun(newSyncRun({ tenantId: "acme", connectionId: c.id, trigger: "scheduled" }, `2025-03-0${1 + (i % 9)}T11:00:00.000Z`));
        const read = (await h.repo.get("acme", c.id))!;
        const days = 7 + i;
        await Promise.all([
          h.repo.finishRun(finishSyncRun(run, { documentsImported: 0 }, "2025-03-10T00:00:00.000Z")),
          h.repo.update(patchConnection(read, { config: { startUrl: "https://a.example/", recrawlIntervalDays: days } }, "2025-03-10T00:00:00.000Z")),
        ]);
        const doc = (await h.repo.connections.findOne({ _id: c.id }))!;
        expect(doc.nextSyncAt).toBe(new Date(Date.parse(doc.lastSyncStartedAt!) + days * 86_400_000).toISOString());
      }
      await h.close();
    });

    it("never loses a sync request that races with the run settling it", async () => {
      const h = await openMongo();
      const c = await h.repo.create(conn({ provider: "granola" }, "2025-03-01T10:00:00.000Z"));
      for (let i = 0; i < 10; i++) {
        const start = Date.parse("2025-03-01T11:00:00.000Z") + i * 3_600_000;
        const run = await h.repo.startRun(newSyncRun({ tenantId: "acme", connectionId: c.id, trigger: "webhook" }, new Date(start).toISOString()));
        // An event during the run, its request written while the run finishes: whichever lands first, it stays pending.
        await Promise.all([
          h.repo.finishRun(finishSyncRun(run, { documentsImported: 0 }, new Date(start + 60_000).toISOString())),
          h.repo.requestSync("acme", c.id, new Date(start + 30_000), new Date(start + 120_000)),
        ]);
        const doc = (await h.repo.connections.findOne({ _id: c.id }))!;
        expect(doc.syncRequestedLast).toBe(new Date(start + 30_000).toISOString());
        expect(doc.nextSyncAt! <= new Date(start + 120_000).toISOString()).toBe(true);
        expect((await h.repo.dueForSync(new Date(start + 120_000), { limit: 10 })).map((d) => [d.connectionId, d.requested])).toEqual([[c.id, true]]);
        // The next run (after the event) clears it.
        await h.repo.finishRun(
          finishSyncRun(
            await h.repo.startRun(newSyncRun({ tenantId: "acme", connectionId: c.id, trigger: "webhook" }, new Date(start + 180_000).toISOString())),
            { documentsImported: 0 },
            new Date(start + 240_000).toISOString(),
          ),
        );
        const settled = (await h.repo.connections.findOne({ _id: c.id }))!;
        expect([settled.syncRequestedDue, settled.syncRequestedLast]).toEqual([undefined, undefined]);
      }
      await h.close();
    });

    it("stores metadata and config as JSON text, credentials as binary, the lease inside the connection document", async () => {
      const h = await openMongo();
      const c = await h.repo.create(conn({ metadata: { "a.b": 1, $c: "x" }, config: { "$k.v": true }, sealedCredentials: new Uint8Array([9, 8, 7]) }));
      await h.repo.tryAcquireLease("acme", c.id, "w1", 60_000, new Date("2025-01-01T00:00:00.000Z"));
      const raw = await h.repo.connections.findOne({ _id: c.id });
      expect(raw).toMatchObject({
        metadataJson: '{"a.b":1,"$c":"x"}',
        configJson: '{"$k.v":true}',
        leaseHolder: "w1",
        leaseExpiresMs: Date.parse("2025-01-01T00:01:00.000Z"),
      });
      expect(raw?.sealedCredentials).toBeInstanceOf(BSON.Binary);
      await h.close();
    });

    it("keeps its credentials key fingerprint apart from the settings store's in the shared meta collection", async () => {
      const i = ++n;
      const meta = `connections_meta_shared_${i}`;
      const settings = await createMongoSettingsRepository(mongo.db, { collection: `org_settings_${i}`, metaCollection: meta });
      const connections = await createMongoConnectionRepository(mongo.db, {
        connections: `connections_${i}`,
        items: `items_${i}`,
        runs: `runs_${i}`,
        deliveries: `deliveries_${i}`,
        metaCollection: meta,
      });
      await settings.bindSecretKey("settings-key");
      await connections.bindSecretKey("connections-key");
      expect(await settings.boundSecretKeyId()).toBe("settings-key");
      expect(await connections.boundSecretKeyId()).toBe("connections-key");
    });
  });
});
