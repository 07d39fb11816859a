import { AlreadyExistsError } from "@engram/kernel";
import { openSqlite, type SqliteDatabase, type SqliteStatement, statementCache } from "@engram/storage";
import type { ApiKeyRecord, ApiKeyStore } from "./api-key";
import { rightsOf, type Scope } from "./scopes";

const MIGRATIONS = [
  `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, name TEXT NOT NULL, prefix TEXT NOT NULL,
     hash TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL, revoked_at TEXT);`,
  // Scoped keys: JSON arrays; NULL on keys stored before, which keep every scope and every tag.
  `ALTER TABLE api_keys ADD COLUMN scopes TEXT; ALTER TABLE api_keys ADD COLUMN container_tags TEXT;`,
];

interface Row {
  id: string;
  tenant_id: string;
  name: string;
  prefix: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
  scopes: string | null;
  container_tags: string | null;
}

const fromRow = (r: Row): ApiKeyRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  name: r.name,
  prefix: r.prefix,
  hash: r.hash,
  createdAt: r.created_at,
  revokedAt: r.revoked_at ?? undefined,
  ...(r.scopes !== null ? { scopes: rightsOf({ scopes: JSON.parse(r.scopes) as string[] }).scopes as Scope[] } : {}),
  ...(r.container_tags !== null ? { containerTags: JSON.parse(r.container_tags) as string[] } : {}),
});

/** Embedded key store: <dataDir>/gateway.db. */
export class SqliteApiKeyStore implements ApiKeyStore {
  private readonly db: SqliteDatabase;
  private readonly stmt: (sql: string) => SqliteStatement;
  constructor(dataDir: string) {
    this.db = openSqlite({ dataDir, name: "gateway", migrations: MIGRATIONS });
    this.stmt = statementCache(this.db);
  }
  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const r = this.stmt("SELECT * FROM api_keys WHERE hash = ?").get(hash) as Row | undefined;
    return r && fromRow(r);
  }
  async insert(rec: ApiKeyRecord): Promise<void> {
    try {
      this.stmt(
        "INSERT INTO api_keys (id, tenant_id, name, prefix, hash, created_at, revoked_at, scopes, container_tags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ).run(
        rec.id,
        rec.tenantId,
        rec.name,
        rec.prefix,
        rec.hash,
        rec.createdAt,
        rec.revokedAt ?? null,
        rec.scopes ? JSON.stringify(rec.scopes) : null,
        rec.containerTags ? JSON.stringify(rec.containerTags) : null,
      );
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY")
        throw new AlreadyExistsError(`API key ${rec.prefix}… is already stored`);
      throw err;
    }
  }
  async list(tenantId?: string): Promise<ApiKeyRecord[]> {
    const rows =
      tenantId === undefined
        ? this.stmt("SELECT * FROM api_keys ORDER BY created_at, id").all()
        : this.stmt("SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY created_at, id").all(tenantId);
    return (rows as Row[]).map(fromRow);
  }
  async revoke(id: string, at: Date, tenantId?: string): Promise<boolean> {
    const res =
      tenantId === undefined
        ? this.stmt("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(at.toISOString(), id)
        : this.stmt("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND tenant_id = ? AND revoked_at IS NULL").run(at.toISOString(), id, tenantId);
    return res.changes === 1;
  }
  async countActive(): Promise<number> {
    return (this.stmt("SELECT COUNT(*) AS n FROM api_keys WHERE revoked_at IS NULL").get() as { n: number }).n;
  }
  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
