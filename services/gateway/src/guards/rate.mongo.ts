import { raiseUnavailable } from "@engram/kernel";
import { type Collection, type Db, ensureIndexes, type IndexSpec, isDuplicateKeyError } from "@engram/storage/mongo";
import type { BucketRule, Decision, RateStore } from "./rate";

/** A token bucket (`tat`: epoch ms, see takeToken) or a fixed-window counter (`n`). */
export interface RateDoc {
  _id: string;
  tat?: number;
  /** The last take's decision. */
  ok?: boolean;
  n?: number;
  /** Removed by the TTL index once passed. */
  expiresAt: Date;
}

export const RATE_COLLECTION = "gateway_rate_limits";

export const RATE_INDEXES: IndexSpec[] = [{ name: "expires_at_ttl", key: { expiresAt: 1 }, expireAfterSeconds: 0 }];

/** Limiter state on MongoDB, shared by every gateway replica: one atomic update per decision. The connection belongs to the caller. */
export class MongoRateStore implements RateStore {
  readonly collection: Collection<RateDoc>;

  constructor(
    private readonly db: Db,
    opts: { collection?: string } = {},
  ) {
    this.collection = db.collection<RateDoc>(opts.collection ?? RATE_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.db, this.collection.collectionName, RATE_INDEXES);
  }

  /** Two upserts of one new `_id` at once: the loser gets a duplicate-key error and applies its update again. */
  private async upsert(run: () => Promise<RateDoc | null>): Promise<RateDoc> {
    for (let i = 0; ; i++) {
      try {
        const d = await run();
        if (d) return d;
      } catch (err) {
        if (!isDuplicateKeyError(err) || i >= 2) throw err;
      }
    }
  }

  async take(name: string, now: number, rule: BucketRule): Promise<Decision> {
    const tolerance = (rule.burst - 1) * rule.intervalMs;
    // takeToken as one pipeline update: t = max(tat, now); allowed when t - now <= tolerance, then tat = t + interval.
    const doc = await this.upsert(() =>
      this.collection.findOneAndUpdate(
        { _id: `b:${name}` },
        [
          { $set: { _t: { $max: [{ $ifNull: ["$tat", now] }, now] } } },
          { $set: { ok: { $lte: [{ $subtract: ["$_t", now] }, tolerance] } } },
          {
            $set: {
              tat: { $cond: ["$ok", { $add: ["$_t", rule.intervalMs] }, "$_t"] },
              expiresAt: { $toDate: { $add: ["$_t", rule.intervalMs, 1000] } },
            },
          },
          { $unset: "_t" },
        ],
        { upsert: true, returnDocument: "after" },
      ),
    );
    // `ok` is this update's own decision (the document returned is the one it wrote).
    if (doc.ok) return { allowed: true, retryAfterMs: 0 };
    return { allowed: false, retryAfterMs: Math.max(1, (doc.tat ?? now) - now - tolerance) };
  }

  async increment(name: string, windowStart: number, windowMs: number): Promise<number> {
    const doc = await this.upsert(() =>
      this.collection.findOneAndUpdate(
        { _id: `w:${name}:${windowStart}` },
        { $inc: { n: 1 }, $setOnInsert: { expiresAt: new Date(windowStart + windowMs) } },
        { upsert: true, returnDocument: "after" },
      ),
    );
    return doc.n ?? 1;
  }

  async count(name: string, windowStart: number): Promise<number> {
    return (await this.collection.findOne({ _id: `w:${name}:${windowStart}` }))?.n ?? 0;
  }

  async close(): Promise<void> {}
}

/** Creates the collection and its TTL index, returns the store (outages reach callers as UnavailableError, 503). */
export async function createMongoRateStore(db: Db, opts: { collection?: string } = {}): Promise<MongoRateStore> {
  const store = new MongoRateStore(db, opts);
  await store.ensureIndexes();
  return raiseUnavailable(store, "MongoDB");
}
