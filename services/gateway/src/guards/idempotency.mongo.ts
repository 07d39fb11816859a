import { raiseUnavailable } from "@engram/kernel";
import { type Collection, type Db, ensureIndexes, type IndexSpec, isDuplicateKeyError } from "@engram/storage/mongo";
import { type BeginResult, classify, type IdempotencyRecord, type IdempotencyStore, type StoredAnswer } from "./idempotency";

/** An idempotency record: `_id` is `{ tenantId, key }`, so a key never reaches across tenants. */
export interface IdempotencyDoc {
  _id: { t: string; k: string };
  fingerprint: string;
  /** Removed by the TTL index once passed (the server's TTL monitor runs every 60 s; `begin` ignores expired records anyway). */
  expiresAt: Date;
  leaseUntil: Date;
  status?: number | null;
  body?: string | null;
}

export const IDEMPOTENCY_COLLECTION = "gateway_idempotency";

export const IDEMPOTENCY_INDEXES: IndexSpec[] = [{ name: "expires_at_ttl", key: { expiresAt: 1 }, expireAfterSeconds: 0 }];

const fromDoc = (d: IdempotencyDoc): IdempotencyRecord => ({
  fingerprint: d.fingerprint,
  expiresAt: d.expiresAt.getTime(),
  leaseUntil: d.leaseUntil.getTime(),
  ...(typeof d.status === "number" && typeof d.body === "string" ? { answer: { status: d.status, body: d.body } } : {}),
});

/** Production idempotency records on MongoDB (shared by every gateway replica). The connection belongs to the caller. */
export class MongoIdempotencyStore implements IdempotencyStore {
  readonly collection: Collection<IdempotencyDoc>;

  constructor(
    private readonly db: Db,
    opts: { collection?: string } = {},
  ) {
    this.collection = db.collection<IdempotencyDoc>(opts.collection ?? IDEMPOTENCY_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.db, this.collection.collectionName, IDEMPOTENCY_INDEXES);
  }

  async begin(tenantId: string, key: string, fingerprint: string, now: Date, opts: { leaseMs: number; retentionMs: number }): Promise<BeginResult> {
    const t = now.getTime();
    const _id = { t: tenantId, k: key };
    const claimed: IdempotencyDoc = {
      _id,
      fingerprint,
      expiresAt: new Date(t + Math.max(opts.retentionMs, opts.leaseMs)),
      leaseUntil: new Date(t + opts.leaseMs),
      status: null,
      body: null,
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const found = await this.collection.findOne({ _id });
      const c = classify(found ? fromDoc(found) : undefined, fingerprint, t);
      if (c !== "claim") return c;
      try {
        if (!found) {
          await this.collection.insertOne(claimed);
          return { kind: "started" };
        }
        // Take over the dead record only if it is still the one read (compare-and-set on its lease and expiry).
        const res = await this.collection.replaceOne(
          { _id, fingerprint: found.fingerprint, expiresAt: found.expiresAt, leaseUntil: found.leaseUntil },
          claimed,
        );
        if (res.modifiedCount === 1) return { kind: "started" };
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      // Another replica claimed it first: read again.
    }
    const last = await this.collection.findOne({ _id });
    const c = classify(last ? fromDoc(last) : undefined, fingerprint, t);
    return c === "claim" ? { kind: "in_flight", retryAfterMs: 1000 } : c;
  }

  async complete(tenantId: string, key: string, fingerprint: string, answer: StoredAnswer, now: Date, retentionMs: number): Promise<void> {
    await this.collection.updateOne(
      { _id: { t: tenantId, k: key }, fingerprint, status: null },
      { $set: { status: answer.status, body: answer.body, expiresAt: new Date(now.getTime() + retentionMs) } },
    );
  }

  async release(tenantId: string, key: string, fingerprint: string): Promise<void> {
    await this.collection.deleteOne({ _id: { t: tenantId, k: key }, fingerprint, status: null });
  }

  async close(): Promise<void> {}
}

/** Creates the collection and its TTL index, returns the store (outages reach callers as UnavailableError, 503). */
export async function createMongoIdempotencyStore(db: Db, opts: { collection?: string } = {}): Promise<MongoIdempotencyStore> {
  const store = new MongoIdempotencyStore(db, opts);
  await store.ensureIndexes();
  return raiseUnavailable(store, "MongoDB");
}
