import { type Db, MongoClient, type MongoClientOptions } from "mongodb";

/** Database used when MONGO_DB is not set. */
export const DEFAULT_MONGO_DB = "engram";

/**
 * Client defaults for every Engram process. Each applies only when the
 * connection string does not set the same option, so an operator can tune
 * any of them in MONGO_URL (`?maxPoolSize=50&w=1`, ...).
 */
export const MONGO_CLIENT_DEFAULTS = {
  appName: "engram",
  /** Per process; one gRPC service's handlers share it. */
  maxPoolSize: 20,
  minPoolSize: 0,
  maxIdleTimeMS: 60_000,
  /** How long an operation may wait for a free pooled connection. */
  waitQueueTimeoutMS: 10_000,
  connectTimeoutMS: 10_000,
  /** Fail fast when no primary is reachable (a replica set election takes ~10 s). */
  serverSelectionTimeoutMS: 15_000,
  /** A socket that sees no reply for this long is closed (no single Engram operation runs that long). */
  socketTimeoutMS: 60_000,
  retryWrites: true,
  retryReads: true,
} as const;

/** The URL's own options, lower-cased (the driver treats option names case-insensitively). */
function urlOptionNames(url: string): Set<string> {
  const q = url.indexOf("?");
  if (q < 0) return new Set();
  return new Set([...new URLSearchParams(url.slice(q + 1)).keys()].map((k) => k.toLowerCase()));
}

/**
 * Options for `new MongoClient(url, options)`: the defaults above plus
 * majority write and read concerns (an acknowledged write survives a
 * failover; reads never see what a failover could roll back), primary reads,
 * and `ignoreUndefined` (an undefined field is left out, not stored as null).
 * Options in `url` win over the defaults; `overrides` win over both.
 */
export function mongoClientOptions(url: string, overrides: MongoClientOptions = {}): MongoClientOptions {
  const inUrl = urlOptionNames(url);
  const opts: MongoClientOptions = { ignoreUndefined: true };
  for (const [k, v] of Object.entries(MONGO_CLIENT_DEFAULTS)) {
    if (!inUrl.has(k.toLowerCase())) (opts as Record<string, unknown>)[k] = v;
  }
  if (!inUrl.has("w")) opts.writeConcern = { w: "majority" };
  if (!inUrl.has("readconcernlevel")) opts.readConcern = { level: "majority" };
  if (!inUrl.has("readpreference")) opts.readPreference = "primary";
  return { ...opts, ...overrides };
}

export interface MongoConnectOptions {
  /** MONGO_URL: a replica set (transactions need one), e.g. mongodb://h1,h2,h3/?replicaSet=rs0 */
  url: string;
  /** MONGO_DB; default `engram`. */
  dbName?: string;
  /** Tags the connections in server logs and currentOp (default `engram`). */
  appName?: string;
  /** Extra client options; they win over the defaults and the URL. */
  options?: MongoClientOptions;
}

export interface MongoConnection {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

/**
 * Connects and checks the deployment answers (a `ping`), so a wrong URL or
 * an unreachable server fails the start, not the first request.
 */
export async function connectMongo(opts: MongoConnectOptions): Promise<MongoConnection> {
  const client = new MongoClient(opts.url, mongoClientOptions(opts.url, { ...(opts.appName ? { appName: opts.appName } : {}), ...opts.options }));
  try {
    await client.connect();
    const db = client.db(opts.dbName ?? DEFAULT_MONGO_DB);
    await db.command({ ping: 1 });
    return { client, db, close: () => client.close() };
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
}

/** MONGO_URL and MONGO_DB from the environment (the URL is undefined when not configured). */
export function mongoSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): { url: string | undefined; dbName: string } {
  const url = env.MONGO_URL?.trim();
  const dbName = env.MONGO_DB?.trim();
  return { url: url || undefined, dbName: dbName || DEFAULT_MONGO_DB };
}
