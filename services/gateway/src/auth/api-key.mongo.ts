import { AlreadyExistsError, raiseUnavailable } from "@engram/kernel";
import { type Collection, type Db, ensureIndexes, type IndexSpec, isDuplicateKeyError } from "@engram/storage/mongo";
import type { ApiKeyRecord, ApiKeyStore } from "./api-key";
import { rightsOf, type Scope } from "./scopes";

/** An API key in the `api_keys` collection: `_id` is the key id; only the key's SHA-256 is stored. */
export interface ApiKeyDoc {
  _id: string;
  tenantId: string;
  name: string;
  prefix: string;
  hash: string;
  createdAt: string;
  /** Absent while the key is active (queries match it as null). */
  revokedAt?: string | null;
  /** Scoped keys; absent on keys stored before, which keep every scope and every tag (no migration needed). */
  scopes?: string[];
  containerTags?: string[];
}

export const API_KEYS_COLLECTION = "api_keys";

export const API_KEY_INDEXES: IndexSpec[] = [
  // authenticate (findByHash), and one record per key.
  { name: "hash_unique", key: { hash: 1 }, unique: true },
  // list, oldest first.
  { name: "created_at", key: { createdAt: 1, _id: 1 } },
  // one tenant's list (GET /v3/keys), oldest first.
  { name: "tenant_created_at", key: { tenantId: 1, createdAt: 1, _id: 1 } },
  // countActive (an absent revokedAt is indexed as null).
  { name: "revoked_at", key: { revokedAt: 1 } },
];

const fromDoc = (d: ApiKeyDoc): ApiKeyRecord => ({
  id: d._id,
  tenantId: d.tenantId,
  name: d.name,
  prefix: d.prefix,
  hash: d.hash,
  createdAt: d.createdAt,
  revokedAt: d.revokedAt ?? undefined,
  ...(d.scopes ? { scopes: rightsOf({ scopes: d.scopes }).scopes as Scope[] } : {}),
  ...(d.containerTags ? { containerTags: [...d.containerTags] } : {}),
});

/** Production key store. The connection belongs to the caller: `close` does not close it. */
export class MongoApiKeyStore implements ApiKeyStore {
  readonly collection: Collection<ApiKeyDoc>;

  constructor(
    private readonly db: Db,
    opts: { collection?: string } = {},
  ) {
    this.collection = db.collection<ApiKeyDoc>(opts.collection ?? API_KEYS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.db, this.collection.collectionName, API_KEY_INDEXES);
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const d = await this.collection.findOne({ hash });
    return d ? fromDoc(d) : undefined;
  }

  async insert(rec: ApiKeyRecord): Promise<void> {
    const doc: ApiKeyDoc = { _id: rec.id, tenantId: rec.tenantId, name: rec.name, prefix: rec.prefix, hash: rec.hash, createdAt: rec.createdAt };
    if (rec.revokedAt !== undefined) doc.revokedAt = rec.revokedAt;
    if (rec.scopes) doc.scopes = [...rec.scopes];
    if (rec.containerTags) doc.containerTags = [...rec.containerTags];
    try {
      await this.collection.insertOne(doc);
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new AlreadyExistsError(`API key ${rec.prefix}… is already stored`);
      throw err;
    }
  }

  async list(tenantId?: string): Promise<ApiKeyRecord[]> {
    const filter = tenantId === undefined ? {} : { tenantId };
    return (await this.collection.find(filter, { sort: { createdAt: 1, _id: 1 } }).toArray()).map(fromDoc);
  }

  async revoke(id: string, at: Date, tenantId?: string): Promise<boolean> {
    const filter = tenantId === undefined ? { _id: id, revokedAt: null } : { _id: id, tenantId, revokedAt: null };
    const res = await this.collection.updateOne(filter, { $set: { revokedAt: at.toISOString() } });
    return res.modifiedCount === 1;
  }

  async countActive(): Promise<number> {
    return this.collection.countDocuments({ revokedAt: null });
  }

  async close(): Promise<void> {}
}

/** The gateway's key store on MongoDB: creates the collection and its indexes, returns the store. */
export async function createMongoApiKeyStore(db: Db, opts: { collection?: string } = {}): Promise<MongoApiKeyStore> {
  const store = new MongoApiKeyStore(db, opts);
  await store.ensureIndexes();
  // Outages of MongoDB (no primary, refused connections, timeouts) reach callers as UnavailableError (503).
  return raiseUnavailable(store, "MongoDB");
}
