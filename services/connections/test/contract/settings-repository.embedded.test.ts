import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteSettingsRepository } from "../../src/adapters/embedded/settings.sqlite";
import { settingsRepositoryContract } from "./settings-repository.contract";

describe("SqliteSettingsRepository (settings repository contract)", () => {
  settingsRepositoryContract(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-connections-"));
    let repo = new SqliteSettingsRepository(dir);
    return {
      get repo() {
        return repo;
      },
      bindSecretKey: async (fingerprints, o) => repo.bindSecretKey(fingerprints, o),
      boundKeyId: async () => (repo.db.prepare("SELECT value FROM meta WHERE name = 'secret_key_id'").get() as { value: string } | undefined)?.value,
      reopen: async () => {
        await repo.close();
        repo = new SqliteSettingsRepository(dir);
        return repo;
      },
      rawStored: async () => {
        // Closed first, so that everything is in the database file.
        await repo.close();
        const raw = Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f))));
        repo = new SqliteSettingsRepository(dir);
        return raw;
      },
      close: async () => {
        await repo.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
