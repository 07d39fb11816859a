import { BSON } from "@engram/storage/mongo";
import { describeWithEngines } from "@engram/testing";
import { useMongoDatabase } from "@engram/testing/src/mongo";
import { API_KEY_INDEXES, createMongoApiKeyStore, type MongoApiKeyStore } from "../../src/auth/api-key.mongo";
import { apiKeyStoreContract } from "./api-key-store.contract";

describeWithEngines(["mongo"], "MongoApiKeyStore", ({ mongoUrl }) => {
  const mongo = useMongoDatabase(mongoUrl, "apikeys");
  let n = 0;

  async function open(): Promise<{ store: MongoApiKeyStore; collection: string }> {
    const collection = `api_keys_${++n}`;
    return { store: await createMongoApiKeyStore(mongo.db, { collection }), collection };
  }

  describe("API key store contract", () => {
    apiKeyStoreContract(async () => {
      const opened = await open();
      const collection = opened.collection;
      let store = opened.store;
      return {
        get store() {
          return store;
        },
        reopen: async () => {
          await store.close();
          store = await createMongoApiKeyStore(mongo.db, { collection });
          return store;
        },
        rawStored: async () => Buffer.concat((await store.collection.find().toArray()).map((d) => Buffer.from(BSON.serialize(d)))),
        close: () => store.close(),
      };
    });
  });

  it("creates its indexes, the hash one unique", async () => {
    const { store } = await open();
    const indexes = await store.collection.listIndexes().toArray();
    for (const spec of API_KEY_INDEXES) expect(indexes.find((i) => i.name === spec.name)).toMatchObject({ key: spec.key });
    expect(indexes.find((i) => i.name === "hash_unique")?.unique).toBe(true);
  });
});
