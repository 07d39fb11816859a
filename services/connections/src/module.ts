import fs from "node:fs";
import { type Clock, systemClock } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import type { ServiceModule } from "@engram/runtime";
import { loadSecretKey, SecretBox } from "./adapters/crypto/secret-box";
import { SqliteSettingsRepository } from "./adapters/embedded/settings.sqlite";
import { GetSettingsUseCase } from "./app/get-settings.usecase";
import { UpdateSettingsUseCase } from "./app/update-settings.usecase";
import type { SettingsRepository } from "./app/ports";
import type { ConnectionsConfig } from "./config";
import { ConnectionsService, implement } from "@engram/grpc";
import { settingsGrpc } from "./grpc/settings.grpc";

/** A settings store that checks, at start, that stored secrets were sealed with this key. */
export type BoundSettingsRepository = SettingsRepository & { bindSecretKey(keyId: string): void | Promise<void> };

export interface ConnectionsDeps {
  config: ConnectionsConfig;
  logger: Logger;
  clock?: Clock;
  /** The settings store, chosen by the composition root (embeddedSettingsRepository or @engram/connections/mongo). */
  settings: BoundSettingsRepository;
}

/** Settings in SQLite under the data directory. */
export function embeddedSettingsRepository(config: Pick<ConnectionsConfig, "ENGRAM_DATA_DIR">): BoundSettingsRepository {
  return new SqliteSettingsRepository(config.ENGRAM_DATA_DIR);
}

/**
 * The connections service (connectors, OAuth, settings). SettingsService
 * GetSettings and UpdateSettings are served from `<dataDir>/connections.db`,
 * client secrets sealed with the secret key; ResetOrganization,
 * SuggestProfileBuckets and every ConnectionsService RPC answer UNIMPLEMENTED
 * (HTTP 501) until the connectors release. Nothing happens on import.
 */
export function createConnectionsModule(deps: ConnectionsDeps): ServiceModule {
  const { config } = deps;
  const log = deps.logger.child({ component: "connections" });
  const secretKey = loadSecretKey(config.ENGRAM_DATA_DIR, config.ENGRAM_SECRET_KEY);
  if (secretKey.source === "generated") log.info({ file: secretKey.file }, "generated the secret key");
  if (secretKey.file && (fs.statSync(secretKey.file).mode & 0o077) !== 0) {
    log.warn({ file: secretKey.file }, "the secret key file is readable by other users; chmod 600 it");
  }
  const box = new SecretBox(secretKey.key);
  const repo = deps.settings;

  return {
    name: "connections",
    grpcServices: [
      // Contract designed; connectors arrive with a later release (UNIMPLEMENTED until then).
      implement(ConnectionsService, {}),
      settingsGrpc({
        getSettings: new GetSettingsUseCase(repo),
        updateSettings: new UpdateSettingsUseCase(repo, box, deps.clock ?? systemClock),
      }),
    ],
    async start() {
      await repo.bindSecretKey(box.keyId);
    },
    async stop() {
      await repo.close();
    },
  };
}
