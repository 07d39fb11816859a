import { jsonColumn, openSqlite, type SqliteDatabase, type SqliteStatement, statementCache, transactor } from "@engram/storage";
import type { JsonValue } from "@engram/kernel";
import { isOAuthProvider, type OAuthAppRecord, type OAuthProvider, type OrgSettings, type ProfileBucket } from "../../domain/settings";
import type { SettingsRepository } from "../../app/ports";

const MIGRATIONS = [
  `CREATE TABLE org_settings (
     tenant_id TEXT PRIMARY KEY,
     exclude_items TEXT, include_items TEXT, filter_prompt TEXT, should_llm_filter INTEGER, chunk_size INTEGER,
     profile_buckets TEXT NOT NULL DEFAULT '[]', workspace_prompt TEXT,
     updated_at TEXT NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE oauth_apps (
     tenant_id TEXT NOT NULL, provider TEXT NOT NULL,
     client_id TEXT, client_secret BLOB, custom_key_enabled INTEGER,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (tenant_id, provider)
   ) WITHOUT ROWID;
   CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`,
  `ALTER TABLE org_settings ADD COLUMN allowed_redirect_origins TEXT NOT NULL DEFAULT '[]';`,
];

interface SettingsRow {
  tenant_id: string;
  exclude_items: string | null;
  include_items: string | null;
  filter_prompt: string | null;
  should_llm_filter: number | null;
  chunk_size: number | null;
  profile_buckets: string;
  workspace_prompt: string | null;
  allowed_redirect_origins: string;
  updated_at: string;
}

interface OAuthRow {
  provider: string;
  client_id: string | null;
  client_secret: Buffer | null;
  custom_key_enabled: number | null;
}

const bool = (v: number | null): boolean | null => (v === null ? null : v !== 0);
const int = (v: boolean | null): number | null => (v === null ? null : v ? 1 : 0);
/** A JSON column where SQL NULL and JSON null both mean "unset". */
const readJson = (v: string | null): JsonValue | null => jsonColumn.read<JsonValue>(v) ?? null;

/**
 * Embedded settings store: `<dataDir>/connections.db`. One `org_settings` row
 * and up to one `oauth_apps` row per provider for each tenant; the client
 * secret column holds sealed bytes only. Every statement filters by tenant.
 */
export class SqliteSettingsRepository implements SettingsRepository {
  readonly db: SqliteDatabase;
  private readonly stmt: (sql: string) => SqliteStatement;
  private readonly tx: <T>(fn: () => T) => T;

  constructor(dataDir: string) {
    this.db = openSqlite({ dataDir, name: "connections", migrations: MIGRATIONS });
    this.stmt = statementCache(this.db);
    this.tx = transactor(this.db);
  }

  async get(tenantId: string): Promise<OrgSettings | undefined> {
    return this.read(tenantId);
  }

  async update(tenantId: string, change: (current: OrgSettings | undefined) => OrgSettings): Promise<OrgSettings> {
    return this.tx(() => {
      const next = change(this.read(tenantId));
      if (next.tenantId !== tenantId) throw new Error("a settings update must not change the tenant");
      this.write(next);
      return next;
    });
  }

  async delete(tenantId: string): Promise<boolean> {
    return this.tx(() => {
      const apps = this.stmt("DELETE FROM oauth_apps WHERE tenant_id = ?").run(tenantId).changes;
      const rows = this.stmt("DELETE FROM org_settings WHERE tenant_id = ?").run(tenantId).changes;
      return apps + rows > 0;
    });
  }

  /** Seals every stored client secret again (key rotation); see SqliteConnectionRepository.resealSecrets. */
  async resealSecrets(reseal: (sealed: Uint8Array, owner: { tenantId: string; provider: string }) => Uint8Array | undefined): Promise<number> {
    const rows = this.stmt("SELECT tenant_id, provider, client_secret FROM oauth_apps WHERE client_secret IS NOT NULL").all() as {
      tenant_id: string;
      provider: string;
      client_secret: Buffer;
    }[];
    let replaced = 0;
    for (const r of rows) {
      const next = reseal(new Uint8Array(r.client_secret), { tenantId: r.tenant_id, provider: r.provider });
      if (!next) continue;
      replaced += this.stmt("UPDATE oauth_apps SET client_secret = ? WHERE tenant_id = ? AND provider = ? AND client_secret = ?").run(
        Buffer.from(next),
        r.tenant_id,
        r.provider,
        r.client_secret,
      ).changes;
    }
    return replaced;
  }

  /**
   * Records which key seals the stored secrets (its fingerprint, not the key).
   * A different key is refused while sealed secrets exist, since none of them
   * could be opened any more; without stored secrets the new key is adopted.
   *
   * With a keyring (`fingerprints`, newest first) the stored fingerprint
   * is kept while it is one of the ring's: values sealed with that key still
   * open. `resealed` (after every value was sealed again with the newest key,
   * `pnpm secrets reseal`) records the newest key, so that the older ones can
   * leave the ring.
   */
  bindSecretKey(fingerprints: string | readonly string[], o: { resealed?: boolean } = {}): void {
    const ring = typeof fingerprints === "string" ? [fingerprints] : fingerprints;
    const keyId = ring[0]!;
    this.tx(() => {
      const row = this.stmt("SELECT value FROM meta WHERE name = 'secret_key_id'").get() as { value: string } | undefined;
      if (row?.value === keyId || (row && !o.resealed && ring.includes(row.value))) return;
      if (row && !o.resealed) {
        const sealed = (this.stmt("SELECT count(*) AS n FROM oauth_apps WHERE client_secret IS NOT NULL").get() as { n: number }).n;
        if (sealed > 0) {
          throw new Error(
            `the secret key differs from the one that sealed the ${sealed} stored client secret(s) in connections.db; ` +
              "restore the previous ENGRAM_SECRET_KEY or <dataDir>/secret.key, or list it in ENGRAM_SECRET_KEYS until `pnpm secrets reseal` has run",
          );
        }
      }
      this.stmt("INSERT INTO meta (name, value) VALUES ('secret_key_id', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value").run(keyId);
    });
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private read(tenantId: string): OrgSettings | undefined {
    const r = this.stmt("SELECT * FROM org_settings WHERE tenant_id = ?").get(tenantId) as SettingsRow | undefined;
    const apps = this.stmt("SELECT provider, client_id, client_secret, custom_key_enabled FROM oauth_apps WHERE tenant_id = ?").all(tenantId) as OAuthRow[];
    if (!r && apps.length === 0) return undefined;
    const oauthApps: Partial<Record<OAuthProvider, OAuthAppRecord>> = {};
    for (const a of apps) {
      if (!isOAuthProvider(a.provider)) continue;
      oauthApps[a.provider] = {
        clientId: a.client_id,
        sealedClientSecret: a.client_secret === null ? null : new Uint8Array(a.client_secret),
        customKeyEnabled: bool(a.custom_key_enabled),
      };
    }
    return {
      tenantId,
      excludeItems: readJson(r?.exclude_items ?? null),
      includeItems: readJson(r?.include_items ?? null),
      filterPrompt: r?.filter_prompt ?? null,
      shouldLLMFilter: bool(r?.should_llm_filter ?? null),
      chunkSize: r?.chunk_size ?? null,
      profileBuckets: r ? (JSON.parse(r.profile_buckets) as ProfileBucket[]) : [],
      workspacePrompt: r?.workspace_prompt ?? null,
      allowedRedirectOrigins: r ? (JSON.parse(r.allowed_redirect_origins) as string[]) : [],
      oauthApps,
      updatedAt: r?.updated_at ?? null,
    };
  }

  private write(s: OrgSettings): void {
    const updatedAt = s.updatedAt ?? new Date().toISOString();
    this.stmt(
      `INSERT INTO org_settings (tenant_id, exclude_items, include_items, filter_prompt, should_llm_filter, chunk_size, profile_buckets, workspace_prompt, allowed_redirect_origins, updated_at)
       VALUES (@tenant_id, @exclude_items, @include_items, @filter_prompt, @should_llm_filter, @chunk_size, @profile_buckets, @workspace_prompt, @allowed_redirect_origins, @updated_at)
       ON CONFLICT (tenant_id) DO UPDATE SET
         exclude_items = excluded.exclude_items, include_items = excluded.include_items, filter_prompt = excluded.filter_prompt,
         should_llm_filter = excluded.should_llm_filter, chunk_size = excluded.chunk_size, profile_buckets = excluded.profile_buckets,
         workspace_prompt = excluded.workspace_prompt, allowed_redirect_origins = excluded.allowed_redirect_origins, updated_at = excluded.updated_at`,
    ).run({
      tenant_id: s.tenantId,
      exclude_items: jsonColumn.write(s.excludeItems),
      include_items: jsonColumn.write(s.includeItems),
      filter_prompt: s.filterPrompt,
      should_llm_filter: int(s.shouldLLMFilter),
      chunk_size: s.chunkSize,
      profile_buckets: JSON.stringify(s.profileBuckets),
      workspace_prompt: s.workspacePrompt,
      allowed_redirect_origins: JSON.stringify(s.allowedRedirectOrigins),
      updated_at: updatedAt,
    });
    // Providers without an app are removed; the others are replaced whole.
    const stored = new Set(Object.keys(s.oauthApps));
    for (const a of this.stmt("SELECT provider FROM oauth_apps WHERE tenant_id = ?").all(s.tenantId) as { provider: string }[]) {
      if (!stored.has(a.provider)) this.stmt("DELETE FROM oauth_apps WHERE tenant_id = ? AND provider = ?").run(s.tenantId, a.provider);
    }
    for (const [provider, app] of Object.entries(s.oauthApps)) {
      if (!app) continue;
      this.stmt(
        `INSERT INTO oauth_apps (tenant_id, provider, client_id, client_secret, custom_key_enabled, updated_at)
         VALUES (@tenant_id, @provider, @client_id, @client_secret, @custom_key_enabled, @updated_at)
         ON CONFLICT (tenant_id, provider) DO UPDATE SET
           client_id = excluded.client_id, client_secret = excluded.client_secret,
           custom_key_enabled = excluded.custom_key_enabled, updated_at = excluded.updated_at`,
      ).run({
        tenant_id: s.tenantId,
        provider,
        client_id: app.clientId,
        client_secret: app.sealedClientSecret === null ? null : Buffer.from(app.sealedClientSecret),
        custom_key_enabled: int(app.customKeyEnabled),
        updated_at: updatedAt,
      });
    }
  }
}
