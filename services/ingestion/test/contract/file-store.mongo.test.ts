import { ObjectId } from "@engram/storage/mongo";
import { describeWithEngines } from "@engram/testing";
import { useMongoDatabase } from "@engram/testing/src/mongo";
import { createGridFsFileStore, GridFsFileStore } from "../../src/adapters/mongo/file-store.gridfs";
import { fileStoreContract } from "./file-store.contract";

describeWithEngines(["mongo"], "GridFsFileStore", ({ mongoUrl }) => {
  const mongo = useMongoDatabase(mongoUrl, "files");
  let n = 0;

  describe("file store contract", () => {
    fileStoreContract(async () => {
      // A bucket of its own per test; small chunks, so that a write spans many chunk documents.
      const opts = { bucketName: `files_${++n}`, chunkSizeBytes: 1024 };
      let store = await createGridFsFileStore(mongo.db, opts);
      const coll = (suffix: string) => mongo.db.collection(`${opts.bucketName}.${suffix}`);
      return {
        get store() {
          return store;
        },
        reopen: async () => {
          await store.close();
          store = await createGridFsFileStore(mongo.db, opts);
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
      const store = await createGridFsFileStore(mongo.db, { bucketName: "idx" });
      for (const [suffix, specs] of Object.entries(GridFsFileStore.INDEXES)) {
        const indexes = await mongo.db.collection(`idx.${suffix}`).listIndexes().toArray();
        for (const spec of specs) expect(indexes.find((i) => i.name === spec.name)).toMatchObject({ key: spec.key });
      }
      await store.close();
    });

    it("keeps an upload that is still running (a recent marker) out of the sweep", async () => {
      const store = await createGridFsFileStore(mongo.db, { bucketName: "sweep" });
      const id = new ObjectId();
      await mongo.db.collection("sweep.uploads").insertOne({ _id: id, key: "acme/running", startedAt: new Date() });
      await mongo.db.collection("sweep.chunks").insertOne({ files_id: id, n: 0, data: Buffer.alloc(10) });
      expect(await store.sweepAbandonedUploads()).toBe(0);
      expect(await mongo.db.collection("sweep.chunks").countDocuments({ files_id: id })).toBe(1);
      expect(await store.sweepAbandonedUploads(new Date(Date.now() + 2 * 3600_000))).toBe(1);
      expect(await mongo.db.collection("sweep.chunks").countDocuments({ files_id: id })).toBe(0);
      expect(await mongo.db.collection("sweep.uploads").countDocuments({})).toBe(0);
    });
  });
});
