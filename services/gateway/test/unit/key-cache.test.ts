import { hashApiKey } from "../../src/auth/api-key";
import { SqliteApiKeyStore } from "../../src/auth/api-key.sqlite";
import { KeyLookupCache, LruCache } from "../../src/auth/key-cache";
import { KeyService } from "../../src/auth/keys.service";
import { FULL_RIGHTS } from "../../src/auth/scopes";

describe("LruCache", () => {
  it("evicts the least recently used entry when full", () => {
    const c = new LruCache<number>(2, 1000);
    c.set("a", 1, 0);
    c.set("b", 2, 0);
    expect(c.get("a", 1)).toBe(1); // a is now the most recent
    c.set("c", 3, 2);
    expect(c.get("b", 3)).toBeUndefined();
    expect(c.get("a", 3)).toBe(1);
    expect(c.get("c", 3)).toBe(3);
    expect(c.size).toBe(2);
  });

  it("forgets entries past their lifetime; a size or lifetime of 0 caches nothing", () => {
    const c = new LruCache<number>(2, 100);
    c.set("a", 1, 0);
    expect(c.get("a", 99)).toBe(1);
    expect(c.get("a", 100)).toBeUndefined();
    const off = new LruCache<number>(0, 100);
    off.set("a", 1, 0);
    expect(off.get("a", 1)).toBeUndefined();
  });
});

describe("KeyLookupCache", () => {
  it("keeps valid and unknown keys apart: a spray of unknown keys never evicts a valid one", () => {
    const c = new KeyLookupCache<string>({ ttlMs: 60_000, maxValid: 10, maxUnknown: 100 });
    c.set("good", "acme", 0);
    for (let i = 0; i < 10_000; i++) c.set(`bad${i}`, undefined, 0);
    expect(c.get("good", 1)).toEqual({ principal: "acme" });
    expect(c.unknown.size).toBe(100);
    expect(c.get("bad9999", 1)).toEqual({ principal: undefined });
    expect(c.get("bad0", 1)).toBeUndefined();
  });
});

describe("KeyService cache", () => {
  it("serves a valid key from its cache while bad keys are sprayed, and looks each bad key up once", async () => {
    const store = new SqliteApiKeyStore(":memory:");
    const lookups = jest.spyOn(store, "findByHash");
    const keys = new KeyService(store, 60_000, { maxValid: 5, maxUnknown: 50 });
    const { key, record } = await keys.create("acme", "ci");
    await keys.authenticate(key);
    for (let i = 0; i < 500; i++) await expect(keys.authenticate(`sk_engram_bad_${i}`)).rejects.toThrow("Invalid API key");
    await expect(keys.authenticate("sk_engram_bad_499")).rejects.toThrow("Invalid API key");
    lookups.mockClear();
    expect(await keys.authenticate(key)).toEqual({ tenantId: "acme", keyId: record.id, rights: FULL_RIGHTS });
    expect(lookups).not.toHaveBeenCalled();
    expect(hashApiKey(key)).toHaveLength(64);
    await store.close();
  });
});
