import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { type Clock, InvalidArgumentError } from "@engram/kernel";
import { SecretBox } from "../../src/adapters/crypto/secret-box";
import { SqliteSettingsRepository } from "../../src/adapters/embedded/settings.sqlite";
import { GetSettingsUseCase } from "../../src/app/get-settings.usecase";
import { oauthSecretContext } from "../../src/app/ports";
import { UpdateSettingsUseCase } from "../../src/app/update-settings.usecase";
import { applySettingsPatch, emptySettings } from "../../src/domain/settings";

describe("settings on SqliteSettingsRepository", () => {
  let dir: string;
  let repo: SqliteSettingsRepository;
  let box: SecretBox;
  let get: GetSettingsUseCase;
  let update: UpdateSettingsUseCase;
  let now: Date;
  const clock: Clock = { now: () => now };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-connections-"));
    repo = new SqliteSettingsRepository(dir);
    box = new SecretBox(randomBytes(32));
    now = new Date("2025-02-03T04:05:06.000Z");
    get = new GetSettingsUseCase(repo);
    update = new UpdateSettingsUseCase(repo, box, clock);
  });

  afterEach(async () => {
    await repo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers defaults for a tenant that stored nothing, without writing", async () => {
    const v = await get.execute("acme");
    expect(v.profileBuckets).toEqual([]);
    expect(v.workspacePrompt).toBeNull();
    expect(v.oauthApps.every((a) => a.clientId === null && !a.clientSecretSet && a.customKeyEnabled === null)).toBe(true);
    expect(await repo.get("acme")).toBeUndefined();
  });

  it("stores every field and reads it back after a reopen", async () => {
    await update.execute({
      tenantId: "acme",
      patch: {
        excludeItems: { paths: ["/tmp"], n: 1.5, deep: { a: [true, null] } },
        includeItems: "all",
        filterPrompt: "engineering only",
        shouldLLMFilter: false,
        chunkSize: 0,
        profileBuckets: [{ key: "work", description: "job" }, { key: "home" }],
        workspacePrompt: "Robots.",
        oauthApps: { "google-drive": { clientId: "gd-id", clientSecret: "gd-secret", customKeyEnabled: true } },
      },
    });
    await repo.close();
    repo = new SqliteSettingsRepository(dir);
    const v = await new GetSettingsUseCase(repo).execute("acme");
    expect(v).toEqual({
      excludeItems: { paths: ["/tmp"], n: 1.5, deep: { a: [true, null] } },
      includeItems: "all",
      filterPrompt: "engineering only",
      shouldLLMFilter: false,
      chunkSize: 0,
      profileBuckets: [
        { key: "work", description: "job" },
        { key: "home", description: "" },
      ],
      workspacePrompt: "Robots.",
      oauthApps: [
        { provider: "google-drive", clientId: "gd-id", clientSecretSet: true, customKeyEnabled: true },
        { provider: "notion", clientId: null, clientSecretSet: false, customKeyEnabled: null },
        { provider: "onedrive", clientId: null, clientSecretSet: false, customKeyEnabled: null },
        { provider: "github", clientId: null, clientSecretSet: false, customKeyEnabled: null },
      ],
    });
    expect((await repo.get("acme"))?.updatedAt).toBe("2025-02-03T04:05:06.000Z");
  });

  it("seals the client secret bound to tenant and provider; the database file never holds it in clear", async () => {
    const secret = "very-recognisable-client-secret-0123456789";
    await update.execute({ tenantId: "acme", patch: { oauthApps: { notion: { clientSecret: secret } } } });
    const sealed = (await repo.get("acme"))!.oauthApps.notion!.sealedClientSecret!;
    expect(box.openString(sealed, oauthSecretContext("acme", "notion"))).toBe(secret);
    expect(() => box.openString(sealed, oauthSecretContext("other", "notion"))).toThrow();
    await repo.close();
    for (const f of fs.readdirSync(dir)) {
      const bytes = fs.readFileSync(path.join(dir, f));
      expect(bytes.includes(Buffer.from(secret))).toBe(false);
    }
    repo = new SqliteSettingsRepository(dir);
  });

  it("keeps tenants apart", async () => {
    await update.execute({ tenantId: "a", patch: { workspacePrompt: "A's prompt", oauthApps: { github: { clientId: "a-gh" } } } });
    await update.execute({ tenantId: "b", patch: { workspacePrompt: "B's prompt" } });
    await update.execute({ tenantId: "b", patch: { oauthApps: { github: { clientId: null } } } });
    expect((await get.execute("a")).workspacePrompt).toBe("A's prompt");
    expect((await get.execute("a")).oauthApps.find((x) => x.provider === "github")?.clientId).toBe("a-gh");
    expect((await get.execute("b")).workspacePrompt).toBe("B's prompt");
    expect((await get.execute("c")).workspacePrompt).toBeNull();
  });

  it("applies update-mask semantics across calls and reports the sent fields", async () => {
    await update.execute({ tenantId: "acme", patch: { filterPrompt: "f", chunkSize: 500, oauthApps: { notion: { clientId: "n", clientSecret: "s" } } } });
    const res = await update.execute({ tenantId: "acme", patch: { filterPrompt: null, oauthApps: { notion: { clientSecret: null } } } });
    expect(res.orgSlug).toBe("acme");
    expect(res.tenantId).toBe("acme");
    expect(res.changed).toEqual([{ field: "filterPrompt" }, { provider: "notion", field: "clientSecret" }]);
    expect(res.settings.filterPrompt).toBeNull();
    expect(res.settings.chunkSize).toBe(500);
    expect(res.settings.oauthApps.find((a) => a.provider === "notion")).toEqual({
      provider: "notion",
      clientId: "n",
      clientSecretSet: false,
      customKeyEnabled: null,
    });
    // clearing the last field of the app removes its row
    await update.execute({ tenantId: "acme", patch: { oauthApps: { notion: { clientId: null } } } });
    expect((await repo.get("acme"))!.oauthApps).toEqual({});
  });

  it("an empty patch changes nothing and writes nothing", async () => {
    const res = await update.execute({ tenantId: "acme", patch: {} });
    expect(res.changed).toEqual([]);
    expect(await repo.get("acme")).toBeUndefined();
  });

  it("validates in the service and stores nothing on a refusal", async () => {
    await expect(update.execute({ tenantId: "acme", patch: { profileBuckets: [{ key: "x" }, { key: "x" }] } })).rejects.toThrow(InvalidArgumentError);
    await expect(update.execute({ tenantId: "", patch: {} })).rejects.toThrow(/tenant/);
    await expect(get.execute("")).rejects.toThrow(/tenant/);
    expect(await repo.get("acme")).toBeUndefined();
  });

  it("runs read-modify-write atomically, so concurrent updates of different fields are both kept", async () => {
    await Promise.all([
      update.execute({ tenantId: "acme", patch: { filterPrompt: "one" } }),
      update.execute({ tenantId: "acme", patch: { chunkSize: 2 } }),
      update.execute({ tenantId: "acme", patch: { oauthApps: { onedrive: { clientId: "od" } } } }),
    ]);
    const v = await get.execute("acme");
    expect([v.filterPrompt, v.chunkSize, v.oauthApps.find((a) => a.provider === "onedrive")?.clientId]).toEqual(["one", 2, "od"]);
  });

  it("refuses an update that would move the record to another tenant", async () => {
    await expect(repo.update("acme", () => emptySettings("other"))).rejects.toThrow(/tenant/);
    expect(await repo.get("other")).toBeUndefined();
  });

  describe("secret key binding", () => {
    it("accepts the same key again and adopts a new key while no secret is stored", () => {
      repo.bindSecretKey(box.keyId);
      repo.bindSecretKey(box.keyId);
      const other = new SecretBox(randomBytes(32));
      expect(() => repo.bindSecretKey(other.keyId)).not.toThrow();
      const row = repo.db.prepare("SELECT value FROM meta WHERE name = 'secret_key_id'").get() as { value: string };
      expect(row.value).toBe(other.keyId);
    });

    it("refuses another key once secrets are sealed with the bound one", async () => {
      repo.bindSecretKey(box.keyId);
      await update.execute({ tenantId: "acme", patch: { oauthApps: { github: { clientSecret: "gh" } } } });
      expect(() => repo.bindSecretKey(new SecretBox(randomBytes(32)).keyId)).toThrow(/differs from the one that sealed the 1 stored client secret/);
      expect(() => repo.bindSecretKey(box.keyId)).not.toThrow();
    });
  });

  it("stores only sealed bytes in the client_secret column", async () => {
    await repo.update("acme", (cur) =>
      applySettingsPatch(cur ?? emptySettings("acme"), { oauthApps: { github: { clientSecret: "plain" } } }, (_p, s) => box.seal(s, "ctx"), now.toISOString()),
    );
    await repo.close();
    const db = new Database(path.join(dir, "connections.db"), { readonly: true });
    const row = db.prepare("SELECT client_secret FROM oauth_apps WHERE tenant_id = 'acme' AND provider = 'github'").get() as { client_secret: Buffer };
    db.close();
    expect(Buffer.isBuffer(row.client_secret)).toBe(true);
    expect(box.openString(row.client_secret, "ctx")).toBe("plain");
    repo = new SqliteSettingsRepository(dir);
  });
});
