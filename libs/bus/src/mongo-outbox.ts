import { randomBytes } from "node:crypto";
import type { Logger } from "@engram/observability";
import {
  type Binary,
  type ClientSession,
  type Collection,
  type Db,
  ensureIndexes,
  type IndexSpec,
  Long,
  ObjectId,
  withTransaction,
} from "@engram/storage/mongo";
import { type OutboxEntry, OutboxRelay, type OutboxRelayOptions, type OutboxStore } from "./outbox";
import type { EventBus, EventHeaders, OutgoingMessage } from "./port";

/** One event waiting in (or, until the TTL removes it, published from) the outbox collection. */
export interface MongoOutboxRow {
  _id: ObjectId;
  key: string;
  /**
   * Position of the row among its key's rows, in commit order: every write
   * of a key draws it from the key's counter document inside its own
   * transaction, so two transactions writing the same key serialise on that
   * document (a write conflict makes the later one retry) and the later
   * commit always gets the higher number.
   */
  seq: number | Long;
  topic: string;
  value: Binary | Uint8Array;
  headers: Record<string, string>;
  createdAt: Date;
  published: boolean;
  /** The relay that claimed the row, and until when (server time); absent when unclaimed. */
  claimedBy?: string;
  claimedUntil?: Date;
  /** Server time of the bus acknowledgement; the TTL index removes the row `retentionSeconds` later. */
  publishedAt?: Date;
}

/** The sequence counter of one key. */
interface KeyCounter {
  _id: string;
  seq: number | Long;
  /** The TTL index removes the counter this long after its key's last write. */
  expireAt: Date;
}

export interface MongoOutboxOptions {
  /** Collection of the rows (default `outbox`); the key counters live in `<collection>_keys`. */
  collection?: string;
  /** How long a relay's claim on a batch lasts (default 30 s): a relay that died holds its rows that long. */
  claimMs?: number;
  /** How long published rows are kept before the TTL index removes them (default 3 days). */
  retentionSeconds?: number;
  /** How long a key's counter outlives the key's last write (default 30 days). */
  keyRetentionSeconds?: number;
  /** Identity of this process's relay in claims (default: random per instance). */
  owner?: string;
}

export const MONGO_OUTBOX_DEFAULTS = {
  collection: "outbox",
  claimMs: 30_000,
  retentionSeconds: 3 * 24 * 3600,
  keyRetentionSeconds: 30 * 24 * 3600,
} as const;

/** A BSON int64 or double as a JS number (sequence numbers stay far below 2^53). */
function num(v: number | Long | bigint): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  return Long.isLong(v) ? v.toNumber() : Number(v);
}

function bytesOf(v: Binary | Uint8Array): Uint8Array {
  // A copy: the driver's Binary may be a view into a larger buffer.
  return v instanceof Uint8Array ? new Uint8Array(v) : new Uint8Array(v.value());
}

function toEntry(r: MongoOutboxRow): OutboxEntry<ObjectId> {
  return { id: r._id, message: { topic: r.topic, key: r.key, value: bytesOf(r.value), headers: r.headers as EventHeaders } };
}

const bySeq = (a: MongoOutboxRow, b: MongoOutboxRow) => num(a.seq) - num(b.seq) || a._id.toHexString().localeCompare(b._id.toHexString());

/**
 * Transactional outbox in MongoDB. A write adds its events with `add(session,
 * messages)` inside the transaction that stores the record, so both commit
 * or neither does. Several relays (one per replica of the service) may share
 * the collection:
 *
 * - `pending` claims a batch in a transaction: the oldest unclaimed rows (or
 *   rows whose claim expired, or this relay's own), minus any row that has an
 *   unpublished row of the same key with a lower sequence that is not in the
 *   batch (claimed by another live relay). Two relays claiming the same rows
 *   conflict and one retries, so a key's rows are never published out of
 *   order by two relays at once.
 * - `remove` marks rows published (server time); a TTL index deletes them
 *   after `retentionSeconds`.
 * - A relay that dies after publishing and before marking leaves its rows
 *   claimed; when the claim expires another relay publishes them again (at
 *   least once; consumers are idempotent).
 */
export class MongoOutbox implements OutboxStore<ObjectId> {
  readonly owner: string;
  readonly collectionName: string;
  private readonly rows: Collection<MongoOutboxRow>;
  private readonly keys: Collection<KeyCounter>;
  private readonly claimMs: number;
  private readonly retentionSeconds: number;
  private readonly keyRetentionSeconds: number;

  constructor(
    private readonly db: Db,
    opts: MongoOutboxOptions = {},
  ) {
    this.collectionName = opts.collection ?? MONGO_OUTBOX_DEFAULTS.collection;
    this.rows = db.collection<MongoOutboxRow>(this.collectionName);
    this.keys = db.collection<KeyCounter>(`${this.collectionName}_keys`);
    this.claimMs = opts.claimMs ?? MONGO_OUTBOX_DEFAULTS.claimMs;
    this.retentionSeconds = opts.retentionSeconds ?? MONGO_OUTBOX_DEFAULTS.retentionSeconds;
    this.keyRetentionSeconds = opts.keyRetentionSeconds ?? MONGO_OUTBOX_DEFAULTS.keyRetentionSeconds;
    this.owner = opts.owner ?? `relay-${randomBytes(6).toString("hex")}`;
  }

  /** The indexes of both collections (documented in docs/deployment.md, "MongoDB adapters"). */
  indexSpecs(): { rows: IndexSpec[]; keys: IndexSpec[] } {
    return {
      rows: [
        // The relay's scan: unpublished rows in sequence order.
        { name: "pending_by_seq", key: { seq: 1, _id: 1 }, partialFilterExpression: { published: false } },
        // Rows of the same keys that block a batch (claimed elsewhere, lower sequence).
        { name: "pending_by_key", key: { key: 1, seq: 1 }, partialFilterExpression: { published: false } },
        // Published rows expire after the retention period (rows without publishedAt never do).
        { name: "published_ttl", key: { publishedAt: 1 }, expireAfterSeconds: this.retentionSeconds },
      ],
      keys: [{ name: "expire_ttl", key: { expireAt: 1 }, expireAfterSeconds: 0 }],
    };
  }

  /** Creates both collections and their indexes; run at start-up (idempotent). */
  async ensureIndexes(): Promise<void> {
    const specs = this.indexSpecs();
    await ensureIndexes(this.db, this.collectionName, specs.rows);
    await ensureIndexes(this.db, `${this.collectionName}_keys`, specs.keys);
  }

  /**
   * Adds the events inside the caller's transaction (`session` must be in a
   * transaction started with `withTransaction`). Rows of one key get
   * consecutive sequence numbers in array order.
   */
  async add(session: ClientSession, messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    if (!session.inTransaction()) throw new Error("MongoOutbox.add must run inside the record's transaction");
    const counts = new Map<string, number>();
    for (const m of messages) counts.set(m.key, (counts.get(m.key) ?? 0) + 1);
    const keepMs = this.keyRetentionSeconds * 1000;
    // next = max(last, now in µs) + n: monotonic per key even when an expired
    // counter is created again (it restarts above every number it handed out).
    await this.keys.bulkWrite(
      [...counts].map(([key, n]) => ({
        updateOne: {
          filter: { _id: key },
          update: [
            {
              $set: {
                seq: { $add: [{ $max: [{ $ifNull: ["$seq", 0] }, { $multiply: [{ $toLong: "$$NOW" }, 1000] }] }, n] },
                expireAt: { $add: ["$$NOW", keepMs] },
              },
            },
          ],
          upsert: true,
        },
      })),
      { session, ordered: true },
    );
    const counters = await this.keys.find({ _id: { $in: [...counts.keys()] } }, { session, projection: { seq: 1 } }).toArray();
    const next = new Map<string, number>();
    for (const c of counters) next.set(c._id, num(c.seq) - counts.get(c._id)! + 1);
    const createdAt = new Date();
    await this.rows.insertMany(
      messages.map((m) => {
        const seq = next.get(m.key);
        if (seq === undefined) throw new Error(`outbox counter of key ${m.key} missing in the transaction`);
        next.set(m.key, seq + 1);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(m.headers)) if (v !== undefined) headers[k] = v;
        const row: MongoOutboxRow = {
          _id: new ObjectId(),
          key: m.key,
          seq,
          topic: m.topic,
          value: Buffer.from(m.value.buffer, m.value.byteOffset, m.value.byteLength),
          headers,
          createdAt,
          published: false,
        };
        return row;
      }),
      { session, ordered: true },
    );
  }

  /** Claims the next batch for this relay (see the class comment) and returns it in publish order. */
  async pending(limit: number): Promise<OutboxEntry<ObjectId>[]> {
    const rows = await withTransaction(this.db.client, async (session) => {
      const candidates = await this.rows
        .find(
          {
            published: false,
            $or: [{ claimedUntil: { $exists: false } }, { claimedBy: this.owner }, { $expr: { $lt: ["$claimedUntil", "$$NOW"] } }],
          },
          { session, sort: { seq: 1, _id: 1 }, limit },
        )
        .toArray();
      if (candidates.length === 0) return [];
      const keys = [...new Set(candidates.map((c) => c.key))];
      const blocking = await this.rows
        .aggregate<{ _id: string; min: number | Long }>(
          [
            { $match: { published: false, key: { $in: keys }, _id: { $nin: candidates.map((c) => c._id) } } },
            { $group: { _id: "$key", min: { $min: "$seq" } } },
          ],
          { session },
        )
        .toArray();
      const firstBlocked = new Map(blocking.map((b) => [b._id, num(b.min)]));
      const eligible = candidates.filter((c) => {
        const b = firstBlocked.get(c.key);
        return b === undefined || num(c.seq) < b;
      });
      if (eligible.length === 0) return [];
      await this.rows.updateMany(
        { _id: { $in: eligible.map((e) => e._id) } },
        [{ $set: { claimedBy: { $literal: this.owner }, claimedUntil: { $add: ["$$NOW", this.claimMs] } } }],
        { session },
      );
      return eligible;
    });
    return rows.sort(bySeq).map(toEntry);
  }

  /** A third of the claim: two renewals may fail before the claim lapses. */
  get renewEveryMs(): number {
    return Math.max(1, Math.floor(this.claimMs / 3));
  }

  /**
   * Extends this relay's claim on rows it is still publishing. Rows whose
   * claim another relay took over (this one stalled past the claim) are not
   * touched and reported: that relay publishes them again (at least once).
   */
  async renew(ids: ObjectId[]): Promise<void> {
    if (ids.length === 0) return;
    const res = await this.rows.updateMany({ _id: { $in: ids }, claimedBy: this.owner, published: false }, [
      { $set: { claimedUntil: { $add: ["$$NOW", this.claimMs] } } },
    ]);
    if (res.matchedCount < ids.length) throw new Error(`outbox claim lost on ${ids.length - res.matchedCount} of ${ids.length} rows`);
  }

  /** Marks rows published (the bus acknowledged them). */
  async remove(ids: ObjectId[]): Promise<void> {
    if (ids.length === 0) return;
    await this.rows.updateMany(
      { _id: { $in: ids }, published: false },
      { $set: { published: true }, $currentDate: { publishedAt: true }, $unset: { claimedBy: "", claimedUntil: "" } },
    );
  }

  /** Rows not yet published. */
  async backlog(): Promise<number> {
    return this.rows.countDocuments({ published: false });
  }

  /** Unpublished rows in publish order, without claiming them (inspection and tests). */
  async unpublished(limit = 1000): Promise<OutboxEntry<ObjectId>[]> {
    return (await this.rows.find({ published: false }, { sort: { seq: 1, _id: 1 }, limit }).toArray()).map(toEntry);
  }

  /** Gives up this relay's claims on rows it did not publish, so another relay takes them at once. */
  async release(): Promise<void> {
    await this.rows.updateMany({ published: false, claimedBy: this.owner }, { $unset: { claimedBy: "", claimedUntil: "" } });
  }
}

/**
 * The relay of a MongoOutbox: the embedded relay's loop, options and metric
 * (`engram_outbox_backlog{outbox}`), plus the claim release on stop. Run one
 * per service replica.
 */
export class MongoOutboxRelay extends OutboxRelay<ObjectId> {
  constructor(
    name: string,
    private readonly outbox: MongoOutbox,
    bus: EventBus,
    log: Logger,
    opts: OutboxRelayOptions = {},
  ) {
    super(name, outbox, bus, log, opts);
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.outbox.release().catch((err) => this.log.warn({ err }, "could not release outbox claims; they expire on their own"));
  }
}

/** Creates a MongoOutbox and its indexes. */
export async function createMongoOutbox(db: Db, opts: MongoOutboxOptions = {}): Promise<MongoOutbox> {
  const outbox = new MongoOutbox(db, opts);
  await outbox.ensureIndexes();
  return outbox;
}
