import type { GatewayConfig } from "../config";
import type { ApiKeyStore } from "./api-key";
import { raiseStorageFaults } from "@engram/kernel";
import { SqliteApiKeyStore } from "./api-key.sqlite";

/**
 * The gateway's key store for its process: on MongoDB when `mongo` is given
 * (the store then owns that connection and closes it), else SQLite under the
 * data directory.
 */
export async function openGatewayKeyStore(config: Pick<GatewayConfig, "ENGRAM_DATA_DIR">, mongo?: { url: string; dbName: string }): Promise<ApiKeyStore> {
  // A full or read-only data volume answers 507 naming the store, not 500.
  if (!mongo) return raiseStorageFaults(new SqliteApiKeyStore(config.ENGRAM_DATA_DIR), "store");
  // Loaded only here: an embedded gateway never loads the MongoDB driver.
  const { connectMongo } = await import("@engram/storage/mongo");
  const { createMongoApiKeyStore } = await import("./api-key.mongo");
  const conn = await connectMongo(mongo);
  try {
    const store = await createMongoApiKeyStore(conn.db);
    return {
      findByHash: (hash) => store.findByHash(hash),
      insert: (rec) => store.insert(rec),
      list: (tenantId) => store.list(tenantId),
      revoke: (id, at, tenantId) => store.revoke(id, at, tenantId),
      countActive: () => store.countActive(),
      close: async () => {
        await store.close();
        await conn.close();
      },
    };
  } catch (err) {
    await conn.close();
    throw err;
  }
}
