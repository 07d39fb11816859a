import { AlreadyExistsError, UnauthenticatedError } from "@engram/kernel";
import { type ApiKeyStore, generateApiKey, hashApiKey } from "../../src/auth/api-key";
import { KeyService } from "../../src/auth/keys.service";

/** One ApiKeyStore adapter under test, fresh and empty. */
export interface ApiKeyStoreHarness {
  store: ApiKeyStore;
  /** Closes the store and opens it again on the same data. */
  reopen(): Promise<ApiKeyStore>;
  /** Every byte the store holds (database files, or the documents as BSON), to look for keys in clear. */
  rawStored(): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * The behaviour every ApiKeyStore adapter shares (with the KeyService on
 * top). `open` is called once per test and must return an empty store.
 */
export function apiKeyStoreContract(open: () => Promise<ApiKeyStoreHarness>): void {
  let h: ApiKeyStoreHarness;
  let store: ApiKeyStore;
  let keys: KeyService;

  beforeEach(async () => {
    h = await open();
    store = h.store;
    keys = new KeyService(store, 0);
  });

  afterEach(async () => {
    await h.close();
  });

  it("create -> authenticate resolves the key to its tenant", async () => {
    const { key, record } = await keys.create("acme", "ci");
    expect(key).toMatch(/^sk_engram_[0-9A-Za-z]{32}$/);
    expect(record).toMatchObject({ tenantId: "acme", name: "ci", prefix: key.slice(0, 14), hash: hashApiKey(key) });
    expect(record.id).toMatch(/^k_[0-9A-Za-z]{20}$/);
    expect(await keys.authenticate(key)).toEqual({ tenantId: "acme", keyId: record.id, rights: { scopes: ["read", "write", "admin"] } });
  });

  it("keeps a key's scopes and container tags, also across a restart; a key stored without them has every right", async () => {
    const scoped = await keys.create("acme", "reader", { scopes: ["read"], containerTags: ["u1", "u2"] });
    const full = await keys.create("acme", "full");
    expect((await keys.authenticate(scoped.key)).rights).toEqual({ scopes: ["read"], containerTags: ["u1", "u2"] });
    expect((await keys.authenticate(full.key)).rights).toEqual({ scopes: ["read", "write", "admin"] });
    store = await h.reopen();
    keys = new KeyService(store, 0);
    expect((await keys.authenticate(scoped.key)).rights).toEqual({ scopes: ["read"], containerTags: ["u1", "u2"] });
    const listed = (await store.list("acme")).map((k) => [k.name, k.scopes ?? null, k.containerTags ?? null]);
    expect(listed.sort((x, y) => String(x[0]).localeCompare(String(y[0])))).toEqual([
      ["full", null, null],
      ["reader", ["read"], ["u1", "u2"]],
    ]);
  });

  it("keys of different tenants resolve to their own tenant", async () => {
    const a = await keys.create("acme", "a");
    const b = await keys.create("globex", "b");
    expect((await keys.authenticate(a.key)).tenantId).toBe("acme");
    expect((await keys.authenticate(b.key)).tenantId).toBe("globex");
  });

  it("rejects an unknown key", async () => {
    await keys.create("acme", "a");
    await expect(keys.authenticate(generateApiKey())).rejects.toThrow(UnauthenticatedError);
    await expect(keys.authenticate("")).rejects.toThrow(UnauthenticatedError);
  });

  it("rejects a revoked key (no cache)", async () => {
    const { key, record } = await keys.create("acme", "a");
    await keys.authenticate(key);
    expect(await keys.revoke(record.id)).toBe(true);
    await expect(keys.authenticate(key)).rejects.toThrow(UnauthenticatedError);
    expect(await keys.revoke(record.id)).toBe(false);
    expect(await keys.countActive()).toBe(0);
    expect((await keys.list())[0]!.revokedAt).toBeDefined();
  });

  it("revoke takes effect at once even with a cache (revoke clears it)", async () => {
    const cached = new KeyService(store, 60_000);
    const { key, record } = await cached.create("acme", "a");
    await cached.authenticate(key);
    await cached.revoke(record.id);
    await expect(cached.authenticate(key)).rejects.toThrow(UnauthenticatedError);
  });

  it("ensure() is idempotent", async () => {
    const key = "k1234567890123456";
    expect(await keys.ensure(key, "acme", "ENGRAM_API_KEY")).toBe(true);
    expect(await keys.ensure(key, "acme", "ENGRAM_API_KEY")).toBe(false);
    expect(await keys.list()).toHaveLength(1);
    expect((await keys.authenticate(key)).tenantId).toBe("acme");
  });

  it("ensure() refuses to move a key to another tenant", async () => {
    const key = "k1234567890123456";
    await keys.ensure(key, "acme", "ENGRAM_API_KEYS");
    await expect(keys.ensure(key, "globex", "ENGRAM_API_KEYS")).rejects.toThrow(/already belongs to tenant acme/);
    expect((await keys.authenticate(key)).tenantId).toBe("acme");
    expect(await keys.list()).toHaveLength(1);
  });

  it("stores only the SHA-256 of a key, never the key itself", async () => {
    const { key } = await keys.create("acme", "a");
    const given = "my-own-secret-key-0123456789";
    await keys.ensure(given, "acme", "ENGRAM_API_KEY");
    const records = await store.list();
    expect(records).toHaveLength(2);
    expect(records.map((r) => r.hash).sort()).toEqual([hashApiKey(key), hashApiKey(given)].sort());
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    // Nowhere in what the store holds (database files with their WAL, or the documents).
    const raw = (await h.rawStored()).toString("latin1");
    expect(raw.includes(key)).toBe(false);
    expect(raw.includes(given)).toBe(false);
    expect(raw.includes(hashApiKey(key))).toBe(true);
  });

  it("stores and lists records oldest first, finds them by hash, and refuses a second record for the same key", async () => {
    const rec = (id: string, createdAt: string, hash: string) => ({ id, tenantId: "acme", name: id, prefix: "sk_engram_abcd", hash, createdAt });
    await store.insert(rec("k_b", "2025-01-02T00:00:00.000Z", "h2"));
    await store.insert(rec("k_a", "2025-01-01T00:00:00.000Z", "h1"));
    await store.insert({ ...rec("k_c", "2025-01-03T00:00:00.000Z", "h3"), revokedAt: "2025-01-04T00:00:00.000Z" });
    expect((await store.list()).map((r) => r.id)).toEqual(["k_a", "k_b", "k_c"]);
    expect(await store.findByHash("h1")).toEqual(rec("k_a", "2025-01-01T00:00:00.000Z", "h1"));
    expect((await store.findByHash("h3"))?.revokedAt).toBe("2025-01-04T00:00:00.000Z");
    expect(await store.findByHash("nope")).toBeUndefined();
    expect(await store.countActive()).toBe(2);
    await expect(store.insert(rec("k_d", "2025-01-05T00:00:00.000Z", "h1"))).rejects.toThrow(AlreadyExistsError);
    expect(await store.list()).toHaveLength(3);
    expect(await store.revoke("k_unknown", new Date())).toBe(false);
    expect(await store.revoke("k_c", new Date())).toBe(false);
    expect(await store.revoke("k_b", new Date("2025-02-01T00:00:00.000Z"))).toBe(true);
    expect((await store.findByHash("h2"))?.revokedAt).toBe("2025-02-01T00:00:00.000Z");
    expect(await store.countActive()).toBe(1);
  });

  it("lists and revokes one tenant's keys only when a tenant is given", async () => {
    const rec = (id: string, tenantId: string, hash: string) => ({
      id,
      tenantId,
      name: id,
      prefix: "sk_engram_abcd",
      hash,
      createdAt: `2025-01-0${id.at(-1)}T00:00:00.000Z`,
    });
    await store.insert(rec("k_1", "acme", "t1"));
    await store.insert(rec("k_2", "globex", "t2"));
    await store.insert(rec("k_3", "acme", "t3"));
    expect((await store.list("acme")).map((r) => r.id)).toEqual(["k_1", "k_3"]);
    expect((await store.list("globex")).map((r) => r.id)).toEqual(["k_2"]);
    expect(await store.list("nobody")).toEqual([]);
    expect(await store.revoke("k_2", new Date(), "acme")).toBe(false);
    expect((await store.findByHash("t2"))?.revokedAt).toBeUndefined();
    expect(await store.revoke("k_2", new Date(), "globex")).toBe(true);
    expect((await store.findByHash("t2"))?.revokedAt).toBeDefined();
  });

  it("keeps keys across a restart", async () => {
    const { key } = await keys.create("acme", "a");
    store = await h.reopen();
    expect((await new KeyService(store, 0).authenticate(key)).tenantId).toBe("acme");
  });
}
