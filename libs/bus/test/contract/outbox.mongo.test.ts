import { connectMongo, type Db, ensureIndexes, type MongoConnection, withTransaction } from "@engram/storage/mongo";
import { describeWithEngines, uniqueMongoDbName } from "@engram/testing";
import { createMongoOutbox, MONGO_OUTBOX_DEFAULTS, MongoOutbox, type MongoOutboxRow, MongoOutboxRelay } from "../../src/mongo-outbox";
import { OutboxRelay } from "../../src/outbox";
import type { OutgoingMessage } from "../../src/port";
import { openBus, removeDir, silentLogger, tempDir, textMessage, textOf } from "../helpers";
import { FlakyBus, OUTBOX_TEST_TOPIC, outboxContract, waitFor } from "./outbox.contract";

/** Short claims, so that the crash test does not wait 30 s for a dead relay's claim to expire. */
const CLAIM_MS = 400;

describeWithEngines(["mongo"], "MongoOutbox + MongoOutboxRelay", ({ mongoUrl }) => {
  const dbName = uniqueMongoDbName("outbox");
  let conn: MongoConnection;
  let n = 0;

  beforeAll(async () => {
    conn = await connectMongo({ url: mongoUrl, dbName });
  });

  afterAll(async () => {
    await conn?.db.dropDatabase();
    await conn?.close();
  });

  /** A fresh outbox collection and a record collection written in the same transactions. */
  async function fresh(claimMs = CLAIM_MS) {
    const collection = `outbox_${++n}`;
    const outbox = await createMongoOutbox(conn.db, { collection, claimMs });
    const records = conn.db.collection<{ _id: string; n?: number }>(`records_${n}`);
    await ensureIndexes(conn.db, records.collectionName, []);
    const write = (id: string, messages: OutgoingMessage[], fail = false) =>
      withTransaction(conn.client, async (session) => {
        await records.insertOne({ _id: id }, { session });
        await outbox.add(session, messages);
        if (fail) throw new Error("write aborted");
      });
    const handle = (owner?: string, ms = claimMs) => new MongoOutbox(conn.db, { collection, claimMs: ms, ...(owner ? { owner } : {}) });
    return { collection, outbox, records, write, handle };
  }

  describe("outbox contract", () => {
    outboxContract(async () => {
      const f = await fresh();
      return {
        write: f.write,
        store: () => f.handle(),
        relay: (store, bus, opts) =>
          store instanceof MongoOutbox ? new MongoOutboxRelay("test", store, bus, silentLogger, opts) : new OutboxRelay("test", store, bus, silentLogger, opts),
        unpublished: async () => (await f.outbox.unpublished(100_000)).map((e) => e.message),
        backlog: () => f.outbox.backlog(),
        claimMs: CLAIM_MS,
        close: async () => undefined,
      };
    });
  });

  describe("MongoDB specifics", () => {
    let dir: string;
    let db: Db;

    beforeEach(() => {
      dir = tempDir("engram-outbox-mongo-");
      db = conn.db;
    });

    afterEach(() => removeDir(dir));

    const msg = (key: string, text: string) => textMessage(OUTBOX_TEST_TOPIC, key, text);

    it("creates its indexes: the pending scans (partial), the published-row TTL and the key-counter TTL", async () => {
      const f = await fresh();
      const rows = await db.collection(f.collection).listIndexes().toArray();
      expect(rows.find((i) => i.name === "pending_by_seq")).toMatchObject({ key: { seq: 1, _id: 1 }, partialFilterExpression: { published: false } });
      expect(rows.find((i) => i.name === "pending_by_key")).toMatchObject({ key: { key: 1, seq: 1 }, partialFilterExpression: { published: false } });
      expect(rows.find((i) => i.name === "published_ttl")).toMatchObject({
        key: { publishedAt: 1 },
        expireAfterSeconds: MONGO_OUTBOX_DEFAULTS.retentionSeconds,
      });
      const keys = await db.collection(`${f.collection}_keys`).listIndexes().toArray();
      expect(keys.find((i) => i.name === "expire_ttl")).toMatchObject({ key: { expireAt: 1 }, expireAfterSeconds: 0 });
      // Idempotent, and a new retention is applied in place.
      await createMongoOutbox(db, { collection: f.collection, retentionSeconds: 3600 });
      const again = await db.collection(f.collection).listIndexes().toArray();
      expect(again.find((i) => i.name === "published_ttl")?.expireAfterSeconds).toBe(3600);
    });

    it("refuses add outside a transaction", async () => {
      const f = await fresh();
      await expect(conn.client.withSession((s) => f.outbox.add(s, [msg("k", "a")]))).rejects.toThrow(/inside the record's transaction/);
      expect(await f.outbox.backlog()).toBe(0);
    });

    it("marks published rows with the server time and keeps them (until the TTL) out of the backlog", async () => {
      const f = await fresh();
      await f.write("r1", [msg("k", "a")]);
      const before = Date.now();
      const batch = await f.outbox.pending(10);
      await f.outbox.remove(batch.map((e) => e.id));
      const row = await db.collection<MongoOutboxRow>(f.collection).findOne({ _id: batch[0]!.id });
      expect(row).toMatchObject({ published: true, key: "k", topic: OUTBOX_TEST_TOPIC });
      expect(row!.publishedAt).toBeInstanceOf(Date);
      expect(Math.abs(row!.publishedAt!.getTime() - before)).toBeLessThan(60_000);
      expect(row!.claimedBy).toBeUndefined();
      expect(await f.outbox.backlog()).toBe(0);
      expect(await f.outbox.pending(10)).toEqual([]);
    });

    it("gives a key's rows increasing sequence numbers in commit order when transactions race on the record", async () => {
      const f = await fresh();
      await f.records.insertOne({ _id: "doc", n: 0 });
      // Eight writers each bump the record's counter and publish its new value, keyed by the record.
      await Promise.all(
        Array.from({ length: 8 }, () =>
          withTransaction(conn.client, async (session) => {
            const cur = await f.records.findOne({ _id: "doc" }, { session });
            const next = cur!.n! + 1;
            await f.records.updateOne({ _id: "doc" }, { $set: { n: next } }, { session });
            await f.outbox.add(session, [msg("doc", String(next))]);
          }),
        ),
      );
      const pending = await f.outbox.unpublished();
      expect(pending.map((e) => textOf(e.message.value))).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    });

    it("a live claim keeps other relays off the claimed rows and off later rows of the same keys", async () => {
      const f = await fresh(30_000);
      await f.write("t1", [msg("a", "1"), msg("a", "2"), msg("b", "1")]);
      await f.write("t2", [msg("a", "3"), msg("c", "1")]);
      const relayA = f.handle("relay-a");
      const relayB = f.handle("relay-b");
      // A claims the two oldest rows (a1, a2 by sequence; b1 may sort anywhere between them).
      const claimedA = await relayA.pending(2);
      const claimedKeys = claimedA.map((e) => `${e.message.key}${textOf(e.message.value)}`);
      expect(claimedKeys.length).toBe(2);
      // B never gets a row A holds, nor a row of a key A holds with a higher sequence.
      const claimedB = await relayB.pending(100);
      const gotB = claimedB.map((e) => `${e.message.key}${textOf(e.message.value)}`);
      for (const k of claimedKeys) expect(gotB).not.toContain(k);
      const heldKeys = new Set(claimedA.map((e) => e.message.key));
      for (const e of claimedB) expect(heldKeys.has(e.message.key)).toBe(false);
      // Once A marks its rows, B (its own claims still live) gets the rest of those keys.
      await relayA.remove(claimedA.map((e) => e.id));
      await relayB.remove(claimedB.map((e) => e.id));
      const rest = await relayB.pending(100);
      await relayB.remove(rest.map((e) => e.id));
      const all = [...claimedKeys, ...gotB, ...rest.map((e) => `${e.message.key}${textOf(e.message.value)}`)];
      expect(all.sort()).toEqual(["a1", "a2", "a3", "b1", "c1"]);
      expect(await f.outbox.backlog()).toBe(0);
    });

    it("an expired claim is taken over by another relay", async () => {
      const f = await fresh();
      await f.write("t1", [msg("k", "1"), msg("k", "2")]);
      const dead = f.handle("relay-dead", 300);
      expect((await dead.pending(10)).length).toBe(2);
      const other = f.handle("relay-other", 300);
      expect(await other.pending(10)).toEqual([]);
      await new Promise((r) => setTimeout(r, 400));
      const taken = await other.pending(10);
      expect(taken.map((e) => textOf(e.message.value))).toEqual(["1", "2"]);
    });

    it("stop() releases the claims of rows the relay could not publish, so another relay takes them at once", async () => {
      const f = await fresh(30_000);
      const bus = openBus(dir);
      try {
        const flaky = new FlakyBus(bus);
        flaky.failing = true;
        await f.write("t1", [msg("k", "1")]);
        const a = new MongoOutboxRelay("test", f.handle("relay-a"), flaky, silentLogger, { idleMs: 20 });
        a.start();
        await waitFor(async () => flaky.failures >= 1, "a failed publish");
        expect(await f.handle("relay-b").pending(10)).toEqual([]);
        await a.stop();
        const b = f.handle("relay-b");
        const taken = await b.pending(10);
        expect(taken.map((e) => textOf(e.message.value))).toEqual(["1"]);
      } finally {
        await bus.close();
      }
    });

    it("several relays publishing concurrently deliver every row once, each key in order", async () => {
      const f = await fresh(30_000);
      const bus = openBus(dir);
      try {
        const recorder = new FlakyBus(bus);
        const keys = Array.from({ length: 12 }, (_, i) => `key${i}`);
        const writes = (async () => {
          for (let t = 0; t < 40; t++) {
            const batch: OutgoingMessage[] = [];
            for (let j = 0; j < 6; j++) {
              const i = t * 6 + j;
              batch.push(msg(keys[i % keys.length]!, String(Math.floor(i / keys.length)).padStart(3, "0")));
            }
            await f.write(`t${t}`, batch);
          }
        })();
        const relays = ["r1", "r2", "r3"].map((o) => new MongoOutboxRelay("test", f.handle(o), recorder, silentLogger, { batchSize: 5, idleMs: 10 }));
        relays.forEach((r) => r.start());
        await writes;
        await waitFor(async () => recorder.published.length >= 240 && (await f.outbox.backlog()) === 0, "every row published", 30_000);
        for (const r of relays) await r.stop();
        expect(recorder.published).toHaveLength(240);
        for (const key of keys) {
          const seen = recorder.published.filter((m) => m.key === key).map((m) => textOf(m.value));
          expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => String(i).padStart(3, "0")));
        }
      } finally {
        await bus.close();
      }
    });
  });
});
