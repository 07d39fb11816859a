import type { GatewayConfig } from "../config";
import type { IdempotencyStore } from "./idempotency";
import { raiseStorageFaults } from "@engram/kernel";
import { SqliteIdempotencyStore } from "./idempotency.sqlite";
import type { RateStore } from "./rate";
import { SqliteRateStore } from "./rate.sqlite";

/** The gateway's idempotency records and limiter state: where its keys are (SQLite in the data directory, or MongoDB). */
export interface GuardStores {
  idempotency: IdempotencyStore;
  rates: RateStore;
  close(): Promise<void>;
}

/**
 * Opens the guard stores for the process: on MongoDB when `mongo` is given
 * (their own connection, closed by `close`), else SQLite files next to the
 * keys' gateway.db (`:memory:` keeps them in memory, for tests).
 */
export async function openGuardStores(config: Pick<GatewayConfig, "ENGRAM_DATA_DIR">, mongo?: { url: string; dbName: string }): Promise<GuardStores> {
  if (!mongo) {
    // A full or read-only data volume answers 507 naming the store, not 500.
    const idempotency = raiseStorageFaults(new SqliteIdempotencyStore(config.ENGRAM_DATA_DIR), "store");
    const rates = raiseStorageFaults(new SqliteRateStore(config.ENGRAM_DATA_DIR), "store");
    return { idempotency, rates, close: async () => void (await Promise.all([idempotency.close(), rates.close()])) };
  }
  // Loaded only here: an embedded gateway never loads the MongoDB driver.
  const { connectMongo } = await import("@engram/storage/mongo");
  const { createMongoIdempotencyStore } = await import("./idempotency.mongo");
  const { createMongoRateStore } = await import("./rate.mongo");
  const conn = await connectMongo(mongo);
  try {
    const idempotency = await createMongoIdempotencyStore(conn.db);
    const rates = await createMongoRateStore(conn.db);
    return { idempotency, rates, close: () => conn.close() };
  } catch (err) {
    await conn.close();
    throw err;
  }
}
