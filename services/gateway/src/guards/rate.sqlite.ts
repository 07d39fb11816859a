import { openSqlite, type SqliteDatabase, type SqliteStatement, statementCache } from "@engram/storage";
import { type BucketRule, type Decision, type RateStore, takeToken } from "./rate";

const MIGRATIONS = [
  `CREATE TABLE rate_buckets (name TEXT PRIMARY KEY, tat REAL NOT NULL, expires_at INTEGER NOT NULL);
   CREATE INDEX rate_buckets_expires_at ON rate_buckets (expires_at);
   CREATE TABLE rate_windows (name TEXT NOT NULL, window_start INTEGER NOT NULL, n INTEGER NOT NULL, expires_at INTEGER NOT NULL,
     PRIMARY KEY (name, window_start));
   CREATE INDEX rate_windows_expires_at ON rate_windows (expires_at);`,
];

/** Embedded limiter state: <dataDir>/gateway-limits.db (shared by every process on that data directory). */
export class SqliteRateStore implements RateStore {
  private readonly db: SqliteDatabase;
  private readonly stmt: (sql: string) => SqliteStatement;
  private ops = 0;

  constructor(dataDir: string) {
    this.db = openSqlite({ dataDir, name: "gateway-limits", migrations: MIGRATIONS });
    // Limiter rows are cheap to lose on a power cut (a window or a bucket starts over): no fsync per request.
    this.db.pragma("synchronous = OFF");
    this.stmt = statementCache(this.db);
  }

  private purge(now: number): void {
    if (++this.ops % 1024 !== 0) return;
    this.stmt("DELETE FROM rate_buckets WHERE rowid IN (SELECT rowid FROM rate_buckets WHERE expires_at <= ? LIMIT 1000)").run(now);
    this.stmt("DELETE FROM rate_windows WHERE rowid IN (SELECT rowid FROM rate_windows WHERE expires_at <= ? LIMIT 1000)").run(now);
  }

  async take(name: string, now: number, rule: BucketRule): Promise<Decision> {
    this.purge(now);
    const run = this.db.transaction((): Decision => {
      const row = this.stmt("SELECT tat FROM rate_buckets WHERE name = ?").get(name) as { tat: number } | undefined;
      const d = takeToken(row?.tat, now, rule);
      if (d.allowed)
        this.stmt(
          "INSERT INTO rate_buckets (name, tat, expires_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET tat = excluded.tat, expires_at = excluded.expires_at",
        ).run(name, d.tat, Math.ceil(d.tat) + 1000);
      return { allowed: d.allowed, retryAfterMs: d.retryAfterMs };
    });
    return run.immediate();
  }

  async increment(name: string, windowStart: number, windowMs: number): Promise<number> {
    this.purge(windowStart);
    const row = this.stmt(
      "INSERT INTO rate_windows (name, window_start, n, expires_at) VALUES (?, ?, 1, ?) ON CONFLICT (name, window_start) DO UPDATE SET n = n + 1 RETURNING n",
    ).get(name, windowStart, windowStart + windowMs) as { n: number };
    return row.n;
  }

  async count(name: string, windowStart: number): Promise<number> {
    return (this.stmt("SELECT n FROM rate_windows WHERE name = ? AND window_start = ?").get(name, windowStart) as { n: number } | undefined)?.n ?? 0;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
