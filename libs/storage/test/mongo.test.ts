import { describeWithEngines, uniqueMongoDbName } from "@engram/testing";
import {
  connectMongo,
  DEFAULT_MONGO_DB,
  ensureIndexes,
  type IndexSpec,
  isDuplicateKeyError,
  MongoClient,
  mongoClientOptions,
  type MongoConnection,
  mongoSettingsFromEnv,
  withTransaction,
} from "../src/mongo";

describe("mongoClientOptions", () => {
  it("applies the defaults, majority concerns and ignoreUndefined", () => {
    const o = mongoClientOptions("mongodb://db:27017/?replicaSet=rs0");
    expect(o).toMatchObject({
      appName: "engram",
      maxPoolSize: 20,
      retryWrites: true,
      retryReads: true,
      ignoreUndefined: true,
      serverSelectionTimeoutMS: 15_000,
      writeConcern: { w: "majority" },
      readConcern: { level: "majority" },
      readPreference: "primary",
    });
  });

  it("lets options in the URL win over the defaults (case-insensitively), and explicit overrides over both", () => {
    const url = "mongodb://db:27017/?MAXPOOLSIZE=5&w=1&readConcernLevel=local&retryWrites=false";
    const o = mongoClientOptions(url, { appName: "ingestion" });
    expect(o.maxPoolSize).toBeUndefined();
    expect(o.writeConcern).toBeUndefined();
    expect(o.readConcern).toBeUndefined();
    expect(o.retryWrites).toBeUndefined();
    expect(o.appName).toBe("ingestion");
    // The driver accepts the result (it refuses unknown option names) and applies the URL's values.
    const client = new MongoClient(url, o);
    expect(client.options.maxPoolSize).toBe(5);
    expect(client.options.retryWrites).toBe(false);
    expect(client.options.writeConcern?.w).toBe(1);
    expect(client.options.appName).toBe("ingestion");
  });

  it("gives the driver options it accepts and applies", () => {
    const url = "mongodb://db:27017/?replicaSet=rs0";
    const client = new MongoClient(url, mongoClientOptions(url));
    expect(client.options.maxPoolSize).toBe(20);
    expect(client.options.waitQueueTimeoutMS).toBe(10_000);
    expect(client.options.socketTimeoutMS).toBe(60_000);
    expect(client.options.writeConcern?.w).toBe("majority");
    expect(client.options.readConcern?.level).toBe("majority");
    expect(client.bsonOptions.ignoreUndefined).toBe(true);
  });
});

describe("mongoSettingsFromEnv", () => {
  it("reads MONGO_URL and MONGO_DB, defaulting the database to engram", () => {
    expect(mongoSettingsFromEnv({})).toEqual({ url: undefined, dbName: DEFAULT_MONGO_DB });
    expect(mongoSettingsFromEnv({ MONGO_URL: " mongodb://x/ ", MONGO_DB: "" })).toEqual({ url: "mongodb://x/", dbName: "engram" });
    expect(mongoSettingsFromEnv({ MONGO_URL: "mongodb://x/", MONGO_DB: "other" }).dbName).toBe("other");
  });
});

describeWithEngines(["mongo"], "MongoDB helpers (replica set)", ({ mongoUrl }) => {
  const dbName = uniqueMongoDbName("storage");
  let conn: MongoConnection;

  beforeAll(async () => {
    conn = await connectMongo({ url: mongoUrl, dbName });
  });

  afterAll(async () => {
    await conn?.db.dropDatabase();
    await conn?.close();
  });

  it("connects to the named database", () => {
    expect(conn.db.databaseName).toBe(dbName);
  });

  it("withTransaction commits every write and returns the callback's value", async () => {
    const c = conn.db.collection<{ _id: string; n: number }>("tx_commit");
    await ensureIndexes(conn.db, "tx_commit", []);
    const res = await withTransaction(conn.client, async (session) => {
      await c.insertOne({ _id: "a", n: 1 }, { session });
      await c.insertOne({ _id: "b", n: 2 }, { session });
      // Reads in the transaction see its own writes; outside it, nothing yet.
      expect(await c.countDocuments({}, { session })).toBe(2);
      expect(await c.countDocuments({})).toBe(0);
      return "done";
    });
    expect(res).toBe("done");
    expect(await c.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: "a", n: 1 },
      { _id: "b", n: 2 },
    ]);
  });

  it("withTransaction rolls every write back when the callback throws", async () => {
    const c = conn.db.collection<{ _id: string }>("tx_abort");
    await ensureIndexes(conn.db, "tx_abort", []);
    await expect(
      withTransaction(conn.client, async (session) => {
        await c.insertOne({ _id: "a" }, { session });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await c.countDocuments({})).toBe(0);
  });

  it("withTransaction retries a write conflict, so concurrent read-modify-writes lose nothing", async () => {
    const c = conn.db.collection<{ _id: string; n: number }>("tx_counter");
    await ensureIndexes(conn.db, "tx_counter", []);
    await c.insertOne({ _id: "x", n: 0 });
    await Promise.all(
      Array.from({ length: 8 }, () =>
        withTransaction(conn.client, async (session) => {
          const cur = await c.findOne({ _id: "x" }, { session });
          await c.updateOne({ _id: "x" }, { $set: { n: cur!.n + 1 } }, { session });
        }),
      ),
    );
    expect((await c.findOne({ _id: "x" }))!.n).toBe(8);
  });

  it("isDuplicateKeyError recognises a unique index refusal, inside a transaction too", async () => {
    await ensureIndexes(conn.db, "dups", [{ name: "u", key: { k: 1 }, unique: true }]);
    const c = conn.db.collection("dups");
    await c.insertOne({ k: 1 });
    const plain = await c.insertOne({ k: 1 }).catch((e: unknown) => e);
    expect(isDuplicateKeyError(plain)).toBe(true);
    const inTx = await withTransaction(conn.client, async (session) => {
      await c.insertOne({ k: 1 }, { session });
    }).catch((e: unknown) => e);
    expect(isDuplicateKeyError(inTx)).toBe(true);
    expect(isDuplicateKeyError(new Error("E11000"))).toBe(false);
    expect(await c.countDocuments({})).toBe(1);
  });

  it("ensureIndexes is idempotent, updates a TTL in place and refuses a changed definition", async () => {
    const specs: IndexSpec[] = [
      { name: "by_a", key: { a: 1, b: -1 } },
      { name: "ttl", key: { at: 1 }, expireAfterSeconds: 60 },
      { name: "uniq", key: { u: 1 }, unique: true, partialFilterExpression: { u: { $exists: true } } },
    ];
    await ensureIndexes(conn.db, "idx", specs);
    await ensureIndexes(conn.db, "idx", specs);
    let indexes = await conn.db.collection("idx").listIndexes().toArray();
    expect(indexes.map((i) => i.name).sort()).toEqual(["_id_", "by_a", "ttl", "uniq"]);
    expect(indexes.find((i) => i.name === "uniq")).toMatchObject({ unique: true, key: { u: 1 } });

    await ensureIndexes(conn.db, "idx", [{ name: "ttl", key: { at: 1 }, expireAfterSeconds: 120 }]);
    indexes = await conn.db.collection("idx").listIndexes().toArray();
    expect(indexes.find((i) => i.name === "ttl")?.expireAfterSeconds).toBe(120);

    await expect(ensureIndexes(conn.db, "idx", [{ name: "by_a", key: { a: 1 } }])).rejects.toThrow(/exists with another definition/);
  });

  it("ensureIndexes creates an empty collection", async () => {
    await ensureIndexes(conn.db, "empty_one", []);
    expect((await conn.db.listCollections({ name: "empty_one" }).toArray()).length).toBe(1);
  });
});
