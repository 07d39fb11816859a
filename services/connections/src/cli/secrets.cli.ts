/**
 * `pnpm secrets reseal`: seals every stored secret (connection credentials,
 * OAuth client secrets) again with the newest key of ENGRAM_SECRET_KEYS, then
 * records that key so that the older ones can be removed from the ring.
 * Uses the connections service's configuration (ENGRAM_DATA_DIR,
 * ENGRAM_SECRET_KEYS / ENGRAM_SECRET_KEY) and its store: the embedded one,
 * or MongoDB with STORE=mongo (MONGO_URL, MONGO_DB). Prints counts and the
 * owners of values that did not open, never a secret.
 */
import { parseArgs } from "node:util";
import { loadSecretKeyring } from "../adapters/crypto/secret-box";
import { SqliteConnectionRepository } from "../adapters/embedded/connections.sqlite";
import { SqliteSettingsRepository } from "../adapters/embedded/settings.sqlite";
import { resealSecrets } from "../app/reseal-secrets.usecase";
import { loadConnectionsConfig } from "../config";

const USAGE = "usage: secrets reseal\n  (uses ENGRAM_DATA_DIR, ENGRAM_SECRET_KEYS or ENGRAM_SECRET_KEY; with STORE=mongo, MONGO_URL and MONGO_DB)";

export async function runSecretsCli(argv: string[], out: (s: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true });
  if (positionals[0] !== "reseal" || positionals.length !== 1) {
    out(USAGE);
    return 2;
  }
  const config = loadConnectionsConfig(env);
  const { ring } = loadSecretKeyring(config.ENGRAM_DATA_DIR, { keys: config.ENGRAM_SECRET_KEYS, key: config.ENGRAM_SECRET_KEY });
  const stores = await openStores(config.ENGRAM_DATA_DIR, env);
  try {
    const report = await resealSecrets({ ring, connections: stores.connections, settings: stores.settings });
    out(`resealed ${report.connections} connection credential(s) and ${report.clientSecrets} client secret(s) with key ${ring.newestId}`);
    for (const f of report.failed) out(`not resealed: ${f.what}: ${f.reason}`);
    if (report.failed.length) {
      out("the older keys are still needed: keep them in ENGRAM_SECRET_KEYS");
      return 1;
    }
    out(`every stored secret is sealed with ${ring.newestId}: the other keys can be removed from ENGRAM_SECRET_KEYS`);
    return 0;
  } finally {
    await stores.close();
  }
}

async function openStores(dataDir: string, env: NodeJS.ProcessEnv) {
  if (env.STORE === "mongo") {
    if (!env.MONGO_URL) throw new Error("MONGO_URL is required when STORE=mongo");
    // Loaded only here: the embedded store never loads the MongoDB driver.
    const { connectMongo } = await import("@engram/storage/mongo");
    const { createMongoConnectionRepository, createMongoSettingsRepository } = await import("../adapters/mongo");
    const conn = await connectMongo({ url: env.MONGO_URL, dbName: env.MONGO_DB || "engram" });
    const connections = await createMongoConnectionRepository(conn.db);
    const settings = await createMongoSettingsRepository(conn.db);
    return { connections, settings, close: () => conn.close() };
  }
  const connections = new SqliteConnectionRepository(dataDir);
  const settings = new SqliteSettingsRepository(dataDir);
  return {
    connections,
    settings,
    close: async () => {
      await connections.close();
      await settings.close();
    },
  };
}
