import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { SecretBox } from "../../src/adapters/crypto/secret-box";
import { SqliteSettingsRepository } from "../../src/adapters/embedded/settings.sqlite";
import { applySettingsPatch, emptySettings } from "../../src/domain/settings";

/** What only the embedded store has: its SQLite layout (the shared behaviour is in test/contract). */
describe("SqliteSettingsRepository storage", () => {
  let dir: string;
  let repo: SqliteSettingsRepository;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-connections-"));
    repo = new SqliteSettingsRepository(dir);
  });

  afterEach(async () => {
    await repo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("stores only sealed bytes in the client_secret column", async () => {
    const box = new SecretBox(randomBytes(32));
    await repo.update("acme", (cur) =>
      applySettingsPatch(
        cur ?? emptySettings("acme"),
        { oauthApps: { github: { clientSecret: "plain" } } },
        (_p, s) => box.seal(s, "ctx"),
        "2025-02-03T04:05:06.000Z",
      ),
    );
    await repo.close();
    const db = new Database(path.join(dir, "connections.db"), { readonly: true });
    const row = db.prepare("SELECT client_secret FROM oauth_apps WHERE tenant_id = 'acme' AND provider = 'github'").get() as { client_secret: Buffer };
    db.close();
    expect(Buffer.isBuffer(row.client_secret)).toBe(true);
    expect(box.openString(row.client_secret, "ctx")).toBe("plain");
    repo = new SqliteSettingsRepository(dir);
  });

  it("records the bound key's fingerprint in the meta table", () => {
    repo.bindSecretKey("fingerprint-1");
    const row = repo.db.prepare("SELECT value FROM meta WHERE name = 'secret_key_id'").get() as { value: string };
    expect(row.value).toBe("fingerprint-1");
  });
});
