import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { UnauthenticatedError } from "@engram/kernel";
import { generateApiKey, hashApiKey } from "../../src/auth/api-key";
import { SqliteApiKeyStore } from "../../src/auth/api-key.sqlite";
import { KeyService } from "../../src/auth/keys.service";
import { runKeysCli } from "../../src/cli/keys.cli";

describe("KeyService with SqliteApiKeyStore", () => {
  let dir: string;
  let store: SqliteApiKeyStore;
  let keys: KeyService;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-keys-"));
    store = new SqliteApiKeyStore(dir);
    keys = new KeyService(store, 0);
  });

  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("create -> authenticate resolves the key to its tenant", async () => {
    const { key, record } = await keys.create("acme", "ci");
    expect(key).toMatch(/^sk_engram_[0-9A-Za-z]{32}$/);
    expect(record).toMatchObject({ tenantId: "acme", name: "ci", prefix: key.slice(0, 14), hash: hashApiKey(key) });
    expect(record.id).toMatch(/^k_[0-9A-Za-z]{20}$/);
    expect(await keys.authenticate(key)).toEqual({ tenantId: "acme", keyId: record.id });
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
    await store.close();

    const file = path.join(dir, "gateway.db");
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare("SELECT * FROM api_keys").all() as Record<string, unknown>[];
      expect(rows).toHaveLength(2);
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(given);
      expect(rows.map((r) => r.hash).sort()).toEqual([hashApiKey(key), hashApiKey(given)].sort());
      expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      db.close();
    }
    // Nor anywhere in the database files (including the WAL).
    for (const f of fs.readdirSync(dir)) {
      const raw = fs.readFileSync(path.join(dir, f)).toString("latin1");
      expect(raw.includes(key)).toBe(false);
      expect(raw.includes(given)).toBe(false);
    }
  });
});

describe("runKeysCli", () => {
  let dir: string;
  let lines: string[];
  const run = (...argv: string[]) => runKeysCli(argv, (s) => void lines.push(s), dir);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-keys-cli-"));
    lines = [];
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("create prints the key once, list shows it, revoke revokes it", async () => {
    expect(await run("create", "--tenant", "acme", "--name", "ci")).toBe(0);
    expect(lines).toHaveLength(1);
    const [, keyId] = /^created key (k_[0-9A-Za-z]{20}) for tenant acme \(shown once\):\n(sk_engram_[0-9A-Za-z]{32})$/.exec(lines[0]!) ?? [];
    expect(keyId).toBeDefined();
    const key = lines[0]!.split("\n")[1]!;

    // The created key authenticates against the same store.
    const store = new SqliteApiKeyStore(dir);
    try {
      expect((await new KeyService(store, 0).authenticate(key)).tenantId).toBe("acme");
    } finally {
      await store.close();
    }

    lines = [];
    expect(await run("list")).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(keyId!);
    expect(lines[0]).toContain("tenant=acme");
    expect(lines[0]).toContain("name=ci");
    expect(lines[0]).toContain(`prefix=${key.slice(0, 14)}…`);
    expect(lines[0]).not.toContain(key);
    expect(lines[0]).not.toContain("REVOKED");

    lines = [];
    expect(await run("revoke", keyId!)).toBe(0);
    expect(lines).toEqual([`revoked ${keyId}`]);

    lines = [];
    expect(await run("list")).toBe(0);
    expect(lines[0]).toContain("REVOKED");

    lines = [];
    expect(await run("revoke", keyId!)).toBe(1);
    expect(lines).toEqual([`no active key ${keyId}`]);
  });

  it("defaults the key name to cli", async () => {
    expect(await run("create", "--tenant", "beta")).toBe(0);
    lines = [];
    await run("list");
    expect(lines[0]).toContain("name=cli");
  });

  it("list on an empty store says so", async () => {
    expect(await run("list")).toBe(0);
    expect(lines).toEqual(["no keys"]);
  });

  it.each([
    ["no command", []],
    ["an unknown command", ["rotate"]],
    ["create without --tenant", ["create"]],
    ["create with an invalid tenant", ["create", "--tenant", "bad tenant!"]],
    ["revoke without an id", ["revoke"]],
  ])("exits 2 with usage for %s", async (_label, argv) => {
    expect(await run(...argv)).toBe(2);
    expect(lines.join("\n")).toContain("usage: keys");
  });

  it("creates nothing on a usage error", async () => {
    await run("create", "--tenant", "bad tenant!");
    lines = [];
    await run("list");
    expect(lines).toEqual(["no keys"]);
  });
});
