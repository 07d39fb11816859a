import { describeWithEngines } from "@engram/testing";
import { useMongoDatabase } from "@engram/testing/src/mongo";
import { createMongoRateStore, RATE_INDEXES } from "../../src/guards/rate.mongo";
import { rateStoreContract } from "./rate-store.contract";

describeWithEngines(["mongo"], "MongoRateStore", ({ mongoUrl }) => {
  const mongo = useMongoDatabase(mongoUrl, "ratelimits");
  let n = 0;

  describe("rate store contract", () => {
    rateStoreContract(async () => {
      const store = await createMongoRateStore(mongo.db, { collection: `gateway_rate_limits_${++n}` });
      return { store, close: () => store.close() };
    });
  });

  it("creates its TTL index on expiresAt", async () => {
    const store = await createMongoRateStore(mongo.db, { collection: `gateway_rate_limits_${++n}` });
    const indexes = await store.collection.listIndexes().toArray();
    for (const spec of RATE_INDEXES) expect(indexes.find((i) => i.name === spec.name)).toMatchObject({ key: spec.key, expireAfterSeconds: 0 });
  });
});
