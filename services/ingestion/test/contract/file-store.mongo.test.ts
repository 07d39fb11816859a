import { connectMongo, type MongoConnection, ObjectId } from "@engram/storage/mongo";
import { describeWithEngines, uniqueMongoDbName } from "@engram/testing";
import { createGridFsFileStore, GridFsFileStore } from "../../src/adapters/mongo/file-store.gridfs";
import { fileStoreContract } from "./file-store.contract";

describeWithEngines(["mongo"], "GridFsFileStore", ({ mongoUrl }) => {
  const dbName = uniqueMongoDbName("files");
  let conn: MongoConnection;
  let n = 0;

  beforeAll(async () => {
    conn = await connectMongo({ url: mongoUrl, dbName });
  });

  afterAll(async () => {
    await conn?.db.dropDatabase();
    await conn?.close();
  });

  describe("file store contract", () => {
    fileStoreContract(async () => {
      // A bucket of its own per test; small chunks, so that a write spans many chunk documents.
      const opts = { bucketName: `files_${++n}`, chunkSizeBytes: 1024 };
      let store = await createGridFsFileStore(conn.db, opts);
      const coll = (suffix: string) => conn.db.collection(`${opts.bucketName}.${suffix}`);
      return {
        get store() {
          return store;
        },
        reopen: async () => {
          await store.close();
          store = await createGridFsFileStore(conn.db, opts);
          return store;
        },
        stored: async () => [
          ...(await coll("files").find().toArray()).map((f) => `file:${f.filename}:${String(f._id)}`),
          ...(await coll("chunks").find().toArray()).map((c) => `chunk:${String(c.files_id)}:${c.n}`),
          ...(await coll("uploads").find().toArray()).map((u) => `upload:${String(u._id)}`),
        ],
        crashMidWrite: async (key) => {
          const id = new ObjectId();
          await coll("uploads").insertOne({ _id: id, key, startedAt: new Date(Date.now() - 2 * 3600_000) });
          await coll("chunks").insertMany([
            { files_id: id, n: 0, data: Buffer.alloc(1024, 1) },
            { files_id: id, n: 1, data: Buffer.alloc(1024, 2) },
          ]);
        },
        close: () => store.close(),
      };
    });
  });

  describe("GridFS specifics", () => {
    it("creates GridFS's indexes under the driver's own names, and the uploads index", async () => {
      const store = await createGridFsFileStore(conn.db, { bucketName: "idx" });
      for (const [suffix, specs] of Object.entries(GridFsFileStore.INDEXES)) {
        const indexes = await conn.db.collection(`idx.${suffix}`).listIndexes().toArray();
        for (const spec of specs) expect(indexes.find((i) => i.name === spec.name)).toMatchObject({ key: spec.key });
      }
      await store.close();
    });

    it("keeps an upload that is still running (a recent marker) out of the sweep", async () => {
      const store = await createGridFsFileStore(conn.db, { bucketName: "sweep" });
      const id = new ObjectId();
      await conn.db.collection("sweep.uploads").insertOne({ _id: id, key: "acme/running", startedAt: new Date() });
      await conn.db.collection("sweep.chunks").insertOne({ files_id: id, n: 0, data: Buffer.alloc(10) });
      expect(await store.sweepAbandonedUploads()).toBe(0);
      expect(await conn.db.collection("sweep.chunks").countDocuments({ files_id: id })).toBe(1);
      expect(await store.sweepAbandonedUploads(new Date(Date.now() + 2 * 3600_000))).toBe(1);
      expect(await conn.db.collection("sweep.chunks").countDocuments({ files_id: id })).toBe(0);
      expect(await conn.db.collection("sweep.uploads").countDocuments({})).toBe(0);
    });
  });
});
