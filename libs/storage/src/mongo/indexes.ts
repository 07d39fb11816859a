import { type Db, type IndexDescription, MongoServerError } from "mongodb";
import { MONGO_ERROR_CODES } from "./transaction";

/** One index of a collection; the name is required so that a changed definition is detected. */
export interface IndexSpec extends IndexDescription {
  name: string;
}

/**
 * Creates a collection's indexes at start-up; idempotent, and safe when
 * several replicas start at once (the server treats an identical index as
 * already there). The collection is created too, so later transactions never
 * create it implicitly. A TTL index whose `expireAfterSeconds` changed is
 * updated in place (`collMod`); any other change of an existing index's
 * definition fails the start with the server's message (drop the index by
 * hand after checking nothing relies on the old definition).
 */
export async function ensureIndexes(db: Db, collection: string, specs: IndexSpec[]): Promise<void> {
  await createCollection(db, collection);
  if (specs.length === 0) return;
  const existing = await db.collection(collection).listIndexes().toArray();
  for (const spec of specs) {
    if (spec.expireAfterSeconds === undefined) continue;
    const current = existing.find((i) => i.name === spec.name);
    if (current && current.expireAfterSeconds !== undefined && current.expireAfterSeconds !== spec.expireAfterSeconds) {
      await db.command({ collMod: collection, index: { name: spec.name, expireAfterSeconds: spec.expireAfterSeconds } });
    }
  }
  try {
    await db.collection(collection).createIndexes(specs);
  } catch (err) {
    if (err instanceof MongoServerError && (err.code === MONGO_ERROR_CODES.IndexOptionsConflict || err.code === MONGO_ERROR_CODES.IndexKeySpecsConflict)) {
      throw new Error(`an index of ${db.databaseName}.${collection} exists with another definition: ${err.message}`, { cause: err });
    }
    throw err;
  }
}

async function createCollection(db: Db, collection: string): Promise<void> {
  try {
    await db.createCollection(collection);
  } catch (err) {
    if (!(err instanceof MongoServerError && err.code === MONGO_ERROR_CODES.NamespaceExists)) throw err;
  }
}
