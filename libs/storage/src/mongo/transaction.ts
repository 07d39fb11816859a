import { type ClientSession, type MongoClient, MongoServerError, type TransactionOptions } from "mongodb";

/**
 * Options of every multi-document transaction: snapshot reads (every read in
 * the transaction sees one consistent point in time, and a write to a
 * document changed by a concurrent transaction is a write conflict, not a
 * lost update), majority commit (a committed transaction survives a
 * failover), primary reads.
 */
export const TRANSACTION_OPTIONS: TransactionOptions = {
  readConcern: { level: "snapshot" },
  writeConcern: { w: "majority" },
  readPreference: "primary",
  maxCommitTimeMS: 10_000,
};

/**
 * Runs `fn` in a transaction on a fresh session and returns its result.
 * The driver retries the whole callback on a transient error (a write
 * conflict with a concurrent transaction, a failover) and the commit on an
 * unknown commit result, so `fn` must be safe to run more than once: compute
 * everything from what it reads through `session`, and pass `session` to
 * every operation. It must never swallow a driver error (the driver would
 * then retry a transaction the server already aborted). Operations inside
 * must run one after another, never in parallel.
 */
export async function withTransaction<T>(client: MongoClient, fn: (session: ClientSession) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  return client.withSession((session) => session.withTransaction(() => fn(session), { ...TRANSACTION_OPTIONS, ...options }));
}

/** E11000: a unique index refused the write. */
export function isDuplicateKeyError(err: unknown): boolean {
  return err instanceof MongoServerError && err.code === 11000;
}

/** Server error codes the helpers look at. */
export const MONGO_ERROR_CODES = {
  NamespaceNotFound: 26,
  NamespaceExists: 48,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  DuplicateKey: 11000,
} as const;
