import { type JsonValue, raiseUnavailable } from "@engram/kernel";
import { type Binary, type Collection, type Db, ensureIndexes, isDuplicateKeyError, withTransaction } from "@engram/storage/mongo";
import type { SettingsRepository } from "../../app/ports";
import { isOAuthProvider, type OAuthAppRecord, type OAuthProvider, type OrgSettings, type ProfileBucket } from "../../domain/settings";

/** A custom OAuth application inside the tenant's settings document; the secret is sealed bytes only. */
interface OAuthAppDoc {
  provider: string;
  clientId: string | null;
  sealedClientSecret: Binary | Uint8Array | null;
  customKeyEnabled: boolean | null;
}

/**
 * One tenant's settings: one document per tenant (`_id` = tenant id) in
 * `org_settings`, the OAuth apps embedded, so that every read and write is a
 * single-document operation (atomic without a transaction). Free-form JSON
 * values (include/excludeItems) are stored as JSON text, since their keys
 * are the caller's. `version` drives the optimistic read-modify-write.
 */
export interface SettingsDoc {
  _id: string;
  excludeItemsJson: string | null;
  includeItemsJson: string | null;
  filterPrompt: string | null;
  shouldLLMFilter: boolean | null;
  chunkSize: number | null;
  profileBuckets: ProfileBucket[];
  workspacePrompt: string | null;
  /** Absent in documents written before the setting existed. */
  allowedRedirectOrigins?: string[];
  oauthApps: OAuthAppDoc[];
  updatedAt: string;
  version: number;
}

interface MetaDoc {
  _id: string;
  value: string;
}

export const SETTINGS_COLLECTION = "org_settings";
export const CONNECTIONS_META_COLLECTION = "connections_meta";
const SECRET_KEY_ID = "secret_key_id";

/** A JSON value as text, where JSON null and absence both mean "unset" (as in the embedded store). */
const writeJson = (v: JsonValue | null): string | null => (v === null || v === undefined ? null : JSON.stringify(v));
const readJson = (v: string | null | undefined): JsonValue | null => (typeof v === "string" ? ((JSON.parse(v) as JsonValue) ?? null) : null);
const bytesOf = (v: Binary | Uint8Array): Uint8Array => (v instanceof Uint8Array ? new Uint8Array(v) : new Uint8Array(v.value()));

export function fromSettingsDoc(d: SettingsDoc): OrgSettings {
  const oauthApps: Partial<Record<OAuthProvider, OAuthAppRecord>> = {};
  for (const a of d.oauthApps ?? []) {
    if (!isOAuthProvider(a.provider)) continue;
    oauthApps[a.provider] = {
      clientId: a.clientId ?? null,
      sealedClientSecret: a.sealedClientSecret ? bytesOf(a.sealedClientSecret) : null,
      customKeyEnabled: a.customKeyEnabled ?? null,
    };
  }
  return {
    tenantId: d._id,
    excludeItems: readJson(d.excludeItemsJson),
    includeItems: readJson(d.includeItemsJson),
    filterPrompt: d.filterPrompt ?? null,
    shouldLLMFilter: d.shouldLLMFilter ?? null,
    chunkSize: d.chunkSize ?? null,
    profileBuckets: (d.profileBuckets ?? []).map((b) => ({ key: b.key, description: b.description })),
    workspacePrompt: d.workspacePrompt ?? null,
    allowedRedirectOrigins: [...(d.allowedRedirectOrigins ?? [])],
    oauthApps,
    updatedAt: d.updatedAt ?? null,
  };
}

export function toSettingsDoc(s: OrgSettings, version: number): SettingsDoc {
  const apps: OAuthAppDoc[] = [];
  for (const [provider, app] of Object.entries(s.oauthApps)) {
    if (!app) continue;
    apps.push({
      provider,
      clientId: app.clientId,
      sealedClientSecret: app.sealedClientSecret === null ? null : Buffer.from(app.sealedClientSecret),
      customKeyEnabled: app.customKeyEnabled,
    });
  }
  return {
    _id: s.tenantId,
    excludeItemsJson: writeJson(s.excludeItems),
    includeItemsJson: writeJson(s.includeItems),
    filterPrompt: s.filterPrompt,
    shouldLLMFilter: s.shouldLLMFilter,
    chunkSize: s.chunkSize,
    profileBuckets: s.profileBuckets.map((b) => ({ key: b.key, description: b.description })),
    workspacePrompt: s.workspacePrompt,
    allowedRedirectOrigins: [...s.allowedRedirectOrigins],
    oauthApps: apps,
    updatedAt: s.updatedAt ?? new Date().toISOString(),
    version,
  };
}

export interface MongoSettingsRepositoryOptions {
  /** Default `org_settings`. */
  collection?: string;
  /** Default `connections_meta` (the secret key's fingerprint). */
  metaCollection?: string;
}

/**
 * Production settings store. `update` is an optimistic read-modify-write of
 * the tenant's document (compare-and-set on `version`, retried on a
 * concurrent change), so concurrent patches of different fields are all
 * kept. The connection belongs to the caller: `close` does not close it.
 */
export class MongoSettingsRepository implements SettingsRepository {
  readonly collection: Collection<SettingsDoc>;
  readonly meta: Collection<MetaDoc>;

  constructor(
    private readonly db: Db,
    opts: MongoSettingsRepositoryOptions = {},
  ) {
    this.collection = db.collection<SettingsDoc>(opts.collection ?? SETTINGS_COLLECTION);
    this.meta = db.collection<MetaDoc>(opts.metaCollection ?? CONNECTIONS_META_COLLECTION);
  }

  /** Creates the collections (their only query path is the `_id` index: the tenant, or the meta name). */
  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.db, this.collection.collectionName, []);
    await ensureIndexes(this.db, this.meta.collectionName, []);
  }

  async get(tenantId: string): Promise<OrgSettings | undefined> {
    const d = await this.collection.findOne({ _id: tenantId });
    return d ? fromSettingsDoc(d) : undefined;
  }

  async delete(tenantId: string): Promise<boolean> {
    return (await this.collection.deleteOne({ _id: tenantId })).deletedCount > 0;
  }

  async update(tenantId: string, change: (current: OrgSettings | undefined) => OrgSettings): Promise<OrgSettings> {
    for (;;) {
      const cur = await this.collection.findOne({ _id: tenantId });
      const next = change(cur ? fromSettingsDoc(cur) : undefined);
      if (next.tenantId !== tenantId) throw new Error("a settings update must not change the tenant");
      if (!cur) {
        try {
          await this.collection.insertOne(toSettingsDoc(next, 1));
          return next;
        } catch (err) {
          if (isDuplicateKeyError(err)) continue; // created concurrently: apply the change to that
          throw err;
        }
      }
      const res = await this.collection.replaceOne({ _id: tenantId, version: cur.version }, toSettingsDoc(next, cur.version + 1));
      if (res.matchedCount === 1) return next;
      // Changed concurrently: read again and re-apply.
    }
  }

  /** Seals every stored client secret again (key rotation); see SqliteConnectionRepository.resealSecrets. */
  async resealSecrets(reseal: (sealed: Uint8Array, owner: { tenantId: string; provider: string }) => Uint8Array | undefined): Promise<number> {
    let replaced = 0;
    for await (const d of this.collection.find({ "oauthApps.sealedClientSecret": { $type: "binData" } })) {
      let changed = 0;
      const apps = d.oauthApps.map((a) => {
        if (!a.sealedClientSecret) return a;
        const next = reseal(bytesOf(a.sealedClientSecret), { tenantId: d._id, provider: a.provider });
        if (!next) return a;
        changed++;
        return { ...a, sealedClientSecret: Buffer.from(next) };
      });
      if (!changed) continue;
      // Optimistic: a document changed meanwhile was written (sealed) by another writer and is left alone.
      const res = await this.collection.updateOne({ _id: d._id, version: d.version }, { $set: { oauthApps: apps, version: d.version + 1 } });
      if (res.modifiedCount) replaced += changed;
    }
    return replaced;
  }

  /**
   * Records which key seals the stored secrets (its fingerprint, not the
   * key). A different key is refused while sealed secrets exist, since none
   * of them could be opened any more; without stored secrets the new key is
   * adopted. Run at start.
   *
   * With a keyring (`fingerprints`, newest first) the stored fingerprint
   * is kept while it is one of the ring's: values sealed with that key still
   * open. `resealed` (after every value was sealed again with the newest key,
   * `pnpm secrets reseal`) records the newest key, so that the older ones can
   * leave the ring.
   */
  async bindSecretKey(fingerprints: string | readonly string[], o: { resealed?: boolean } = {}): Promise<void> {
    const ring = typeof fingerprints === "string" ? [fingerprints] : fingerprints;
    const keyId = ring[0]!;
    await withTransaction(this.db.client, async (session) => {
      const row = await this.meta.findOne({ _id: SECRET_KEY_ID }, { session });
      if (row?.value === keyId || (row && !o.resealed && ring.includes(row.value))) return;
      if (row && !o.resealed) {
        const [counted] = await this.collection
          .aggregate<{ n: number }>(
            [
              { $match: { "oauthApps.sealedClientSecret": { $type: "binData" } } },
              { $unwind: "$oauthApps" },
              { $match: { "oauthApps.sealedClientSecret": { $type: "binData" } } },
              { $count: "n" },
            ],
            { session },
          )
          .toArray();
        const sealed = counted?.n ?? 0;
        if (sealed > 0) {
          throw new Error(
            `the secret key differs from the one that sealed the ${sealed} stored client secret(s) in MongoDB (${this.db.databaseName}.${this.collection.collectionName}); ` +
              "restore the previous ENGRAM_SECRET_KEY, or list it in ENGRAM_SECRET_KEYS until `pnpm secrets reseal` has run",
          );
        }
      }
      await this.meta.updateOne({ _id: SECRET_KEY_ID }, { $set: { value: keyId } }, { upsert: true, session });
    });
  }

  /** The bound key fingerprint (inspection and tests). */
  async boundSecretKeyId(): Promise<string | undefined> {
    return (await this.meta.findOne({ _id: SECRET_KEY_ID }))?.value;
  }

  async close(): Promise<void> {}
}

/** The connections settings store on MongoDB: creates its collections and returns it. Bind the secret key at start with `await repo.bindSecretKey(box.keyId)`. */
export async function createMongoSettingsRepository(db: Db, opts: MongoSettingsRepositoryOptions = {}): Promise<MongoSettingsRepository> {
  const repo = new MongoSettingsRepository(db, opts);
  await repo.ensureIndexes();
  // Outages of MongoDB (no primary, refused connections, timeouts) reach callers as UnavailableError (503).
  return raiseUnavailable(repo, "MongoDB");
}
