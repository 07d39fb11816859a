import { connectMongo, type Db, type MongoConnection } from "@engram/storage/mongo";
import { uniqueMongoDbName } from "./containers";

/**
 * A database of its own for one MongoDB suite (inside describeWithEngines):
 * connected before the suite, dropped and closed after it. `next(prefix)`
 * names a fresh collection per test, so tests never see each other's data.
 * Imported from `@engram/testing/src/mongo` only by MongoDB suites, so other
 * tests never load the driver.
 */
export function useMongoDatabase(mongoUrl: string, suite: string): { readonly db: Db; readonly conn: MongoConnection; next(prefix: string): string } {
  const dbName = uniqueMongoDbName(suite);
  let conn: MongoConnection | undefined;
  let n = 0;
  beforeAll(async () => {
    conn = await connectMongo({ url: mongoUrl, dbName });
  });
  afterAll(async () => {
    await conn?.db.dropDatabase();
    await conn?.close();
  });
  return {
    get db() {
      if (!conn) throw new Error("the MongoDB suite is not connected yet (use it inside tests or hooks)");
      return conn.db;
    },
    get conn() {
      if (!conn) throw new Error("the MongoDB suite is not connected yet (use it inside tests or hooks)");
      return conn;
    },
    next: (prefix: string) => `${prefix}_${++n}`,
  };
}
