import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteApiKeyStore } from "../../src/auth/api-key.sqlite";
import { apiKeyStoreContract } from "./api-key-store.contract";

describe("SqliteApiKeyStore (API key store contract)", () => {
  apiKeyStoreContract(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-keys-"));
    let store = new SqliteApiKeyStore(dir);
    return {
      get store() {
        return store;
      },
      reopen: async () => {
        await store.close();
        store = new SqliteApiKeyStore(dir);
        return store;
      },
      // The database files as they are on disk, WAL included (the store stays open).
      rawStored: async () => Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f)))),
      close: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
