import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteRateStore } from "../../src/guards/rate.sqlite";
import { rateStoreContract } from "./rate-store.contract";

describe("SqliteRateStore (rate store contract)", () => {
  rateStoreContract(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-rate-"));
    const store = new SqliteRateStore(dir);
    return {
      store,
      close: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
