import { BSON } from "@engram/storage/mongo";
import { describeWithEngines } from "@engram/testing";
import { useMongoDatabase } from "@engram/testing/src/mongo";
import { createMongoSettingsRepository } from "../../src/adapters/mongo/settings.mongo";
import { emptySettings } from "../../src/domain/settings";
import { settingsRepositoryContract } from "./settings-repository.contract";

describeWithEngines(["mongo"], "MongoSettingsRepository", ({ mongoUrl }) => {
  const mongo = useMongoDatabase(mongoUrl, "settings");
  let n = 0;

  describe("settings repository contract", () => {
    settingsRepositoryContract(async () => {
      const opts = { collection: `org_settings_${++n}`, metaCollection: `connections_meta_${n}` };
      let repo = await createMongoSettingsRepository(mongo.db, opts);
      return {
        get repo() {
          return repo;
        },
        bindSecretKey: (fingerprints, o) => repo.bindSecretKey(fingerprints, o),
        boundKeyId: () => repo.boundSecretKeyId(),
        reopen: async () => {
          await repo.close();
          repo = await createMongoSettingsRepository(mongo.db, opts);
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
    const repo = await createMongoSettingsRepository(mongo.db, { collection: "one_doc", metaCollection: "one_doc_meta" });
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
