import { openSqlite, type SqliteDatabase, type SqliteStatement, statementCache } from "@engram/storage";
import { type BeginResult, classify, type IdempotencyRecord, type IdempotencyStore, type StoredAnswer } from "./idempotency";

const MIGRATIONS = [
  `CREATE TABLE idempotency (
     tenant_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL,
     expires_at INTEGER NOT NULL, lease_until INTEGER NOT NULL, status INTEGER, body TEXT,
     PRIMARY KEY (tenant_id, key));
   CREATE INDEX idempotency_expires_at ON idempotency (expires_at);`,
];

interface Row {
  fingerprint: string;
  expires_at: number;
  lease_until: number;
  status: number | null;
  body: string | null;
}

const fromRow = (r: Row): IdempotencyRecord => ({
  fingerprint: r.fingerprint,
  expiresAt: r.expires_at,
  leaseUntil: r.lease_until,
  ...(r.status !== null && r.body !== null ? { answer: { status: r.status, body: r.body } } : {}),
});

/** Embedded idempotency records: <dataDir>/gateway-idempotency.db (next to the keys' gateway.db). */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly db: SqliteDatabase;
  private readonly stmt: (sql: string) => SqliteStatement;
  private begun = 0;

  constructor(dataDir: string) {
    this.db = openSqlite({ dataDir, name: "gateway-idempotency", migrations: MIGRATIONS });
    this.stmt = statementCache(this.db);
  }

  async begin(tenantId: string, key: string, fingerprint: string, now: Date, opts: { leaseMs: number; retentionMs: number }): Promise<BeginResult> {
    const t = now.getTime();
    // Expired records go in small steps, every few hundred claims.
    if (++this.begun % 256 === 0) this.stmt("DELETE FROM idempotency WHERE rowid IN (SELECT rowid FROM idempotency WHERE expires_at <= ? LIMIT 500)").run(t);
    const claim = this.db.transaction((): BeginResult => {
      const row = this.stmt("SELECT fingerprint, expires_at, lease_until, status, body FROM idempotency WHERE tenant_id = ? AND key = ?").get(tenantId, key) as
        Row | undefined;
      const c = classify(row && fromRow(row), fingerprint, t);
      if (c !== "claim") return c;
      this.stmt(
        `INSERT INTO idempotency (tenant_id, key, fingerprint, expires_at, lease_until, status, body) VALUES (?, ?, ?, ?, ?, NULL, NULL)
         ON CONFLICT (tenant_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, expires_at = excluded.expires_at,
           lease_until = excluded.lease_until, status = NULL, body = NULL`,
      ).run(tenantId, key, fingerprint, t + Math.max(opts.retentionMs, opts.leaseMs), t + opts.leaseMs);
      return { kind: "started" };
    });
    // IMMEDIATE: the write lock is taken before the read, so two processes on one file cannot both claim.
    return claim.immediate();
  }

  async complete(tenantId: string, key: string, fingerprint: string, answer: StoredAnswer, now: Date, retentionMs: number): Promise<void> {
    this.stmt("UPDATE idempotency SET status = ?, body = ?, expires_at = ? WHERE tenant_id = ? AND key = ? AND fingerprint = ? AND status IS NULL").run(
      answer.status,
      answer.body,
      now.getTime() + retentionMs,
      tenantId,
      key,
      fingerprint,
    );
  }

  async release(tenantId: string, key: string, fingerprint: string): Promise<void> {
    this.stmt("DELETE FROM idempotency WHERE tenant_id = ? AND key = ? AND fingerprint = ? AND status IS NULL").run(tenantId, key, fingerprint);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
