import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { emptySettings } from "../../src/domain/settings";
import { SecretBox, SecretKeyring } from "../../src/adapters/crypto/secret-box";
import { SqliteConnectionRepository } from "../../src/adapters/embedded/connections.sqlite";
import { SqliteSettingsRepository } from "../../src/adapters/embedded/settings.sqlite";
import { connectionCredentialsContext } from "../../src/app/connection-ports";
import { oauthSecretContext } from "../../src/app/ports";
import { resealSecrets } from "../../src/app/reseal-secrets.usecase";
import { runSecretsCli } from "../../src/cli/secrets.cli";
import { newConnection } from "../../src/domain/connection";

describe("resealing secrets after a key rotation", () => {
  const k0 = randomBytes(32);
  const k1 = randomBytes(32);
  const old = new SecretBox(k0); // id "default", as ENGRAM_SECRET_KEY gives
  const ring = new SecretKeyring([
    { id: "k1", key: k1 },
    { id: "default", key: k0 },
  ]);
  const newestOnly = new SecretKeyring([{ id: "k1", key: k1 }]);
  let dir: string;
  let connections: SqliteConnectionRepository;
  let settings: SqliteSettingsRepository;
  let connId: string;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-reseal-"));
    connections = new SqliteConnectionRepository(dir);
    settings = new SqliteSettingsRepository(dir);
    connections.bindSecretKey(old.fingerprints);
    settings.bindSecretKey(old.fingerprints);
    const draft = newConnection({ tenantId: "acme", provider: "granola", namespace: "notes" }, new Date().toISOString());
    connId = draft.id;
    await connections.create({ ...draft, sealedCredentials: old.seal("grn_api_key", connectionCredentialsContext("acme", draft.id)) });
    await settings.update("acme", () => ({
      ...emptySettings("acme"),
      oauthApps: { github: { clientId: "gh", sealedClientSecret: old.seal("gh-secret", oauthSecretContext("acme", "github")), customKeyEnabled: true } },
    }));
  });
  afterEach(async () => {
    await connections.close();
    await settings.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = async () => ({
    creds: (await connections.get("acme", connId))!.sealedCredentials!,
    secret: (await settings.get("acme"))!.oauthApps.github!.sealedClientSecret!,
  });

  it("seals every value again with the newest key, then records it so that the old key can leave the ring", async () => {
    // Before: a ring without the old key is refused at start.
    expect(() => connections.bindSecretKey(newestOnly.fingerprints)).toThrow(/differs/);
    const report = await resealSecrets({ ring, connections, settings });
    expect(report).toEqual({ connections: 1, clientSecrets: 1, failed: [] });
    const after = await stored();
    expect(ring.sealedWith(after.creds)).toBe("k1");
    expect(newestOnly.openString(after.creds, connectionCredentialsContext("acme", connId))).toBe("grn_api_key");
    expect(newestOnly.openString(after.secret, oauthSecretContext("acme", "github"))).toBe("gh-secret");
    connections.bindSecretKey(newestOnly.fingerprints);
    settings.bindSecretKey(newestOnly.fingerprints);
    // Again: nothing left to do.
    expect(await resealSecrets({ ring, connections, settings })).toEqual({ connections: 0, clientSecrets: 0, failed: [] });
  });

  it("refuses to run with a ring that lacks the stored key, and reports values no key opens without recording the newest", async () => {
    await expect(resealSecrets({ ring: newestOnly, connections, settings })).rejects.toThrow(/differs/);
    // A value sealed with a key outside the ring (here: another tenant's row copied under a key nobody has).
    const stranger = new SecretKeyring([{ id: "zz", key: randomBytes(32) }]);
    const draft = newConnection({ tenantId: "acme", provider: "granola", namespace: "x" }, new Date().toISOString());
    await connections.create({ ...draft, sealedCredentials: stranger.seal("x", connectionCredentialsContext("acme", draft.id)) });
    const report = await resealSecrets({ ring, connections, settings });
    expect(report.connections).toBe(1);
    expect(report.failed).toEqual([{ what: `connection ${draft.id} of tenant acme`, reason: expect.stringMatching(/key zz/) }]);
    expect(connections.boundSecretKeyId()).toBe(old.keyId);
  });

  it("`pnpm secrets reseal` does it from the configuration and prints no secret", async () => {
    await connections.close();
    await settings.close();
    const lines: string[] = [];
    const keys = `k1:${k1.toString("base64")},default:${k0.toString("base64")}`;
    expect(await runSecretsCli(["reseal"], (s) => lines.push(s), { ENGRAM_DATA_DIR: dir, ENGRAM_SECRET_KEYS: keys })).toBe(0);
    expect(lines[0]).toBe("resealed 1 connection credential(s) and 1 client secret(s) with key k1");
    expect(lines.join("\n")).not.toMatch(/grn_api_key|gh-secret/);
    expect(lines.join("\n")).not.toContain(k0.toString("base64"));
    expect(await runSecretsCli(["nothing"], (s) => lines.push(s), { ENGRAM_DATA_DIR: dir, ENGRAM_SECRET_KEYS: keys })).toBe(2);
    connections = new SqliteConnectionRepository(dir);
    settings = new SqliteSettingsRepository(dir);
    connections.bindSecretKey(newestOnly.fingerprints);
    settings.bindSecretKey(newestOnly.fingerprints);
  });
});
