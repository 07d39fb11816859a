import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { rootLogger } from "@engram/observability";
import { SqliteApiKeyStore } from "../../src/auth/api-key.sqlite";
import { KeyService } from "../../src/auth/keys.service";
import { createApp } from "../../src/http/app";
import { backendsAt } from "../../src/http/backends";

/**
 * The gateway's app on a loopback port with real API keys (SQLite in a
 * temporary folder) and backends at an address nothing listens on: a request
 * that passes the gateway's own checks answers 503, so what a test sees from
 * the gateway alone is unmistakable.
 */
export async function startOfflineGateway(prefix: string, keyCacheMs = 0) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const store = new SqliteApiKeyStore(dir);
  const keys = new KeyService(store, keyCacheMs);
  const backends = backendsAt("127.0.0.1:1", 2000);
  const app = createApp({
    backends,
    keys,
    logger: rootLogger({ level: "silent" }),
    jsonLimitBytes: 1 << 20,
    uploadLimitBytes: 1 << 20,
    defaultNamespace: "default",
    uploadSpoolDir: path.join(dir, "spool"),
    ready: () => true,
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return {
    app,
    keys,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((r) => server.close(r));
      backends.close();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
