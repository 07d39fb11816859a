import { BSON, connectMongo, type MongoConnection } from "@engram/storage/mongo";
import { describeWithEngines, uniqueMongoDbName } from "@engram/testing";
import { createMongoSettingsRepository } from "../../src/adapters/mongo/settings.mongo";
import { emptySettings } from "../../src/domain/settings";
import { settingsRepositoryContract } from "./settings-repository.contract";

describeWithEngines(["mongo"], "MongoSettingsRepository", ({ mongoUrl }) => {
  const dbName = uniqueMongoDbName("settings");
  let conn: MongoConnection;
  let n = 0;

  beforeAll(async () => {
    conn = await connectMongo({ url: mongoUrl, dbName });
  });

  afterAll(async () => {
    await conn?.db.dropDatabase();
    await conn?.close();
  });

  describe("settings repository contract", () => {
    settingsRepositoryContract(async () => {
      const opts = { collection: `org_settings_${++n}`, metaCollection: `connections_meta_${n}` };
      let repo = await createMongoSettingsRepository(conn.db, opts);
      return {
        get repo() {
          return repo;
        },
        bindSecretKey: (keyId) => repo.bindSecretKey(keyId),
        boundKeyId: () => repo.boundSecretKeyId(),
        reopen: async () => {
          await repo.close();
          repo = await createMongoSettingsRepository(conn.db, opts);
          return repo;
        },
        rawStored: async () => {
          const docs = [...(await repo.collection.find().toArray()), ...(await repo.meta.find().toArray())];
          return Buffer.concat(docs.map((d) => Buffer.from(BSON.serialize(d))));
        },
        close: () => repo.close(),
      };
    });
  });

  it("keeps one document per tenant with the OAuth apps inside and a version that counts the writes", async () => {
    const repo = await createMongoSettingsRepository(conn.db, { collection: "one_doc", metaCollection: "one_doc_meta" });
    await repo.update("acme", (cur) => ({ ...(cur ?? emptySettings("acme")), filterPrompt: "a" }));
    await repo.update("acme", (cur) => ({ ...cur!, oauthApps: { notion: { clientId: "n", sealedClientSecret: null, customKeyEnabled: true } } }));
    const docs = await repo.collection.find().toArray();
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({
      _id: "acme",
      filterPrompt: "a",
      version: 2,
      oauthApps: [{ provider: "notion", clientId: "n", sealedClientSecret: null, customKeyEnabled: true }],
    });
  });
});
