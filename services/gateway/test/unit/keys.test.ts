import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteApiKeyStore } from "../../src/auth/api-key.sqlite";
import { KeyService } from "../../src/auth/keys.service";
import { runKeysCli } from "../../src/cli/keys.cli";

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

  it("creates a scoped key with --scopes and --container-tags, and refuses unknown scopes", async () => {
    expect(await run("create", "--tenant", "acme", "--name", "app", "--scopes", "read,write", "--container-tags", "u1, u2")).toBe(0);
    expect(lines[0]).toMatch(/^created key k_[0-9A-Za-z]{20} for tenant acme, scopes read,write, container tags u1,u2 \(shown once\):\n/);
    const key = lines[0]!.split("\n")[1]!;
    const store = new SqliteApiKeyStore(dir);
    try {
      expect((await new KeyService(store, 0).authenticate(key)).rights).toEqual({ scopes: ["read", "write"], containerTags: ["u1", "u2"] });
    } finally {
      await store.close();
    }
    lines = [];
    expect(await run("list")).toBe(0);
    expect(lines[0]).toContain("scopes=read,write  tags=u1,u2");
    lines = [];
    expect(await run("create", "--tenant", "acme", "--scopes", "read,root")).toBe(2);
    expect(lines[0]).toMatch(/^--scopes/);
    expect(await run("create", "--tenant", "acme", "--container-tags", "bad tag")).toBe(2);
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
