import { UnauthenticatedError } from "@engram/kernel";
import { type ApiKeyRecord, type ApiKeyStore, generateApiKey, hashApiKey, newKeyRecord } from "./api-key";
import { type KeyRights, rightsOf } from "./scopes";
import { KeyLookupCache } from "./key-cache";

export interface Principal {
  tenantId: string;
  keyId: string;
  /** The key's scopes and container-tag limit (every scope, no limit, for keys stored before scopes existed). */
  rights: KeyRights;
}

/** Key operations shared by the gateway, its start-up bootstrap and the keys CLI. */
export class KeyService {
  /** Valid keys in a bounded LRU, unknown and revoked ones in a separate bounded cache (a spray of bad keys never evicts good ones). */
  private readonly cache: KeyLookupCache<Principal>;

  constructor(
    private readonly store: ApiKeyStore,
    cacheMs: number,
    cacheSizes: { maxValid?: number; maxUnknown?: number } = {},
  ) {
    this.cache = new KeyLookupCache<Principal>({ ttlMs: cacheMs, ...cacheSizes });
  }

  /** Resolves a bearer key to its tenant; unknown and revoked keys are rejected alike. */
  async authenticate(key: string): Promise<Principal> {
    const hash = hashApiKey(key);
    const now = Date.now();
    let hit = this.cache.get(hash, now);
    if (!hit) {
      const rec = await this.store.findByHash(hash);
      hit = { principal: rec && !rec.revokedAt ? { tenantId: rec.tenantId, keyId: rec.id, rights: rightsOf(rec) } : undefined };
      this.cache.set(hash, hit.principal, now);
    }
    if (!hit.principal) throw new UnauthenticatedError("Invalid API key", "the key is unknown or was revoked");
    return hit.principal;
  }

  /** Stores a given key for a tenant unless it is already stored. Returns true when added. */
  async ensure(key: string, tenantId: string, name: string): Promise<boolean> {
    const existing = await this.store.findByHash(hashApiKey(key));
    if (existing) {
      if (existing.tenantId !== tenantId) throw new Error(`API key ${existing.prefix}… already belongs to tenant ${existing.tenantId}, not ${tenantId}`);
      return false;
    }
    await this.store.insert(newKeyRecord(key, tenantId, name, new Date()));
    return true;
  }

  /** A new key; without `rights` it has every scope and no tag limit (the CLI's and the first start's default). */
  async create(tenantId: string, name: string, rights?: KeyRights): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = generateApiKey();
    const record = newKeyRecord(key, tenantId, name, new Date(), rights);
    await this.store.insert(record);
    return { key, record };
  }

  /** Every key, or one tenant's. */
  list(tenantId?: string): Promise<ApiKeyRecord[]> {
    return this.store.list(tenantId);
  }

  /** Revokes an active key (only one of `tenantId`'s when given); the lookup cache is emptied so it is refused at once here. */
  async revoke(id: string, tenantId?: string): Promise<boolean> {
    const ok = await this.store.revoke(id, new Date(), tenantId);
    this.cache.clear();
    return ok;
  }

  countActive(): Promise<number> {
    return this.store.countActive();
  }
}
