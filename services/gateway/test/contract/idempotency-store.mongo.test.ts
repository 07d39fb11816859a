import { describeWithEngines } from "@engram/testing";
import { useMongoDatabase } from "@engram/testing/src/mongo";
import { createMongoIdempotencyStore, IDEMPOTENCY_INDEXES, type MongoIdempotencyStore } from "../../src/guards/idempotency.mongo";
import { idempotencyStoreContract } from "./idempotency-store.contract";

describeWithEngines(["mongo"], "MongoIdempotencyStore", ({ mongoUrl }) => {
  const mongo = useMongoDatabase(mongoUrl, "idempotency");
  let n = 0;

  describe("idempotency store contract", () => {
    idempotencyStoreContract(async () => {
      const collection = `gateway_idempotency_${++n}`;
      let store: MongoIdempotencyStore = await createMongoIdempotencyStore(mongo.db, { collection });
      return {
        get store() {
          return store;
        },
        reopen: async () => {
          await store.close();
          store = await createMongoIdempotencyStore(mongo.db, { collection });
          return store;
        },
        close: () => store.close(),
      };
    });
  });

  it("creates its TTL index on expiresAt", async () => {
    const store = await createMongoIdempotencyStore(mongo.db, { collection: `gateway_idempotency_${++n}` });
    const indexes = await store.collection.listIndexes().toArray();
    for (const spec of IDEMPOTENCY_INDEXES) expect(indexes.find((i) => i.name === spec.name)).toMatchObject({ key: spec.key, expireAfterSeconds: 0 });
  });
});
