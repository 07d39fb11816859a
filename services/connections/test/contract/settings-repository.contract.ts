import { randomBytes } from "node:crypto";
import { type Clock, InvalidArgumentError } from "@engram/kernel";
import { SecretBox } from "../../src/adapters/crypto/secret-box";
import { GetSettingsUseCase } from "../../src/app/get-settings.usecase";
import { oauthSecretContext, type SettingsRepository } from "../../src/app/ports";
import { UpdateSettingsUseCase } from "../../src/app/update-settings.usecase";
import { applySettingsPatch, emptySettings } from "../../src/domain/settings";

/** One SettingsRepository adapter under test, fresh and empty. */
export interface SettingsRepositoryHarness {
  repo: SettingsRepository;
  /** The adapter's start-up binding of the secret key (see SqliteSettingsRepository.bindSecretKey). */
  bindSecretKey(fingerprints: string | readonly string[], o?: { resealed?: boolean }): Promise<void>;
  boundKeyId(): Promise<string | undefined>;
  /** Closes the store and opens it again on the same data. */
  reopen(): Promise<SettingsRepository>;
  /** Every byte the store holds (database files, or the documents as BSON), to look for secrets in clear. */
  rawStored(): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * The behaviour every SettingsRepository adapter shares (the settings use
 * cases on top of it). `open` is called once per test and must return an
 * empty store.
 */
export function settingsRepositoryContract(open: () => Promise<SettingsRepositoryHarness>): void {
  let h: SettingsRepositoryHarness;
  let repo: SettingsRepository;
  let box: SecretBox;
  let get: GetSettingsUseCase;
  let update: UpdateSettingsUseCase;
  let now: Date;
  const clock: Clock = { now: () => now };

  beforeEach(async () => {
    h = await open();
    repo = h.repo;
    box = new SecretBox(randomBytes(32));
    now = new Date("2025-02-03T04:05:06.000Z");
    get = new GetSettingsUseCase(repo);
    update = new UpdateSettingsUseCase(repo, box, clock);
  });

  afterEach(async () => {
    await h.close();
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
        allowedRedirectOrigins: ["https://app.example.com", "http://localhost:3000"],
        oauthApps: { "google-drive": { clientId: "gd-id", clientSecret: "gd-secret", customKeyEnabled: true } },
      },
    });
    repo = await h.reopen();
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
      allowedRedirectOrigins: ["https://app.example.com", "http://localhost:3000"],
      oauthApps: [
        { provider: "google-drive", clientId: "gd-id", clientSecretSet: true, customKeyEnabled: true },
        { provider: "notion", clientId: null, clientSecretSet: false, customKeyEnabled: null },
        { provider: "onedrive", clientId: null, clientSecretSet: false, customKeyEnabled: null },
        { provider: "github", clientId: null, clientSecretSet: false, customKeyEnabled: null },
      ],
    });
    expect((await repo.get("acme"))?.updatedAt).toBe("2025-02-03T04:05:06.000Z");
  });

  it("seals the client secret bound to tenant and provider; the store never holds it in clear", async () => {
    const secret = "very-recognisable-client-secret-0123456789";
    await update.execute({ tenantId: "acme", patch: { oauthApps: { notion: { clientSecret: secret } } } });
    const sealed = (await repo.get("acme"))!.oauthApps.notion!.sealedClientSecret!;
    expect(box.openString(sealed, oauthSecretContext("acme", "notion"))).toBe(secret);
    expect(() => box.openString(sealed, oauthSecretContext("other", "notion"))).toThrow();
    const raw = await h.rawStored();
    expect(raw.includes(Buffer.from(secret))).toBe(false);
    // The sealed bytes are what is stored.
    expect(raw.includes(Buffer.from(sealed))).toBe(true);
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

  it("deletes one tenant's settings (its OAuth applications too), through a reopen, leaving the others", async () => {
    await update.execute({
      tenantId: "a",
      patch: { chunkSize: 512, oauthApps: { notion: { clientId: "a-n", clientSecret: "a-secret", customKeyEnabled: true } } },
    });
    await update.execute({ tenantId: "b", patch: { chunkSize: 256 } });
    expect(await repo.delete("a")).toBe(true);
    expect(await repo.get("a")).toBeUndefined();
    expect((await get.execute("a")).oauthApps.find((x) => x.provider === "notion")?.clientId ?? null).toBeNull();
    expect(await repo.delete("a")).toBe(false);
    repo = await h.reopen();
    expect(await repo.get("a")).toBeUndefined();
    expect((await repo.get("b"))?.chunkSize).toBe(256);
    // The tenant starts over.
    await repo.update("a", () => ({ ...emptySettings("a"), chunkSize: 1024 }));
    expect((await repo.get("a"))?.chunkSize).toBe(1024);
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
    it("accepts the same key again and adopts a new key while no secret is stored", async () => {
      await h.bindSecretKey(box.keyId);
      await h.bindSecretKey(box.keyId);
      expect(await h.boundKeyId()).toBe(box.keyId);
      const other = new SecretBox(randomBytes(32));
      await h.bindSecretKey(other.keyId);
      expect(await h.boundKeyId()).toBe(other.keyId);
    });

    it("refuses another key once secrets are sealed with the bound one, counting every sealed secret", async () => {
      await h.bindSecretKey(box.keyId);
      await update.execute({ tenantId: "acme", patch: { oauthApps: { github: { clientSecret: "gh" } } } });
      await expect(h.bindSecretKey(new SecretBox(randomBytes(32)).keyId)).rejects.toThrow(/differs from the one that sealed the 1 stored client secret/);
      await update.execute({ tenantId: "acme", patch: { oauthApps: { notion: { clientSecret: "n" }, onedrive: { clientId: "only-id" } } } });
      await update.execute({ tenantId: "other", patch: { oauthApps: { github: { clientSecret: "o" } } } });
      await expect(h.bindSecretKey(new SecretBox(randomBytes(32)).keyId)).rejects.toThrow(/differs from the one that sealed the 3 stored client secret/);
      expect(await h.boundKeyId()).toBe(box.keyId);
      await h.bindSecretKey(box.keyId);
    });

    it("with a keyring: accepts a ring holding the bound key, refuses one without it until a reseal records the newest", async () => {
      await h.bindSecretKey(box.keyId);
      await update.execute({ tenantId: "acme", patch: { oauthApps: { github: { clientSecret: "gh" } } } });
      const newer = new SecretBox(randomBytes(32));
      await h.bindSecretKey([newer.keyId, box.keyId]);
      expect(await h.boundKeyId()).toBe(box.keyId);
      await expect(h.bindSecretKey([newer.keyId])).rejects.toThrow(/differs from the one that sealed the 1 stored client secret/);
      await h.bindSecretKey([newer.keyId, box.keyId], { resealed: true });
      await h.bindSecretKey([newer.keyId]);
      expect(await h.boundKeyId()).toBe(newer.keyId);
    });
  });

  it("stores the sealed bytes it is given and hands them back unchanged", async () => {
    await repo.update("acme", (cur) =>
      applySettingsPatch(cur ?? emptySettings("acme"), { oauthApps: { github: { clientSecret: "plain" } } }, (_p, s) => box.seal(s, "ctx"), now.toISOString()),
    );
    repo = await h.reopen();
    const sealed = (await repo.get("acme"))!.oauthApps.github!.sealedClientSecret!;
    expect(sealed).toBeInstanceOf(Uint8Array);
    expect(box.openString(sealed, "ctx")).toBe("plain");
  });
}
