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
import { settingsGrpc } from "./grpc/settings.grpc";
import { SqliteConnectionRepository } from "./adapters/embedded/connections.sqlite";
import { createCrawlFetch } from "./adapters/connectors/web-crawler";
import { WebCrawlerConnector } from "./adapters/connectors/web-crawler-connector";
import { IngestionDocumentSink } from "./adapters/grpc/ingestion-sink.grpc";
import type { ConnectionRepository } from "./app/connection-ports";
import { ConnectionsUseCases } from "./app/connections.usecase";
import { SyncEngine } from "./app/sync-engine";
import { connectionsGrpc } from "./grpc/connections.grpc";

/** A settings store that checks, at start, that stored secrets were sealed with this key. */
export type BoundSettingsRepository = SettingsRepository & { bindSecretKey(keyId: string): void | Promise<void> };
/** The connection store, with the same check. */
export type BoundConnectionRepository = ConnectionRepository & { bindSecretKey(keyId: string): void | Promise<void> };

export interface ConnectionsDeps {
  config: ConnectionsConfig;
  logger: Logger;
  clock?: Clock;
  /** The settings store, chosen by the composition root (embeddedSettingsRepository or @engram/connections/mongo). */
  settings: BoundSettingsRepository;
  /** The connection store, chosen by the composition root (embeddedConnectionRepository or @engram/connections/mongo). */
  connections: BoundConnectionRepository;
}

/** Connections, their sync runs and item ledgers in SQLite under the data directory (`connectors.db`). */
export function embeddedConnectionRepository(config: Pick<ConnectionsConfig, "ENGRAM_DATA_DIR">): BoundConnectionRepository {
  return new SqliteConnectionRepository(config.ENGRAM_DATA_DIR);
}

/** Settings in SQLite under the data directory. */
export function embeddedSettingsRepository(config: Pick<ConnectionsConfig, "ENGRAM_DATA_DIR">): BoundSettingsRepository {
  return new SqliteSettingsRepository(config.ENGRAM_DATA_DIR);
}

/**
 * The connections service: the connection lifecycle and syncs (the web
 * crawler so far; the OAuth connectors answer UNIMPLEMENTED until their
 * release), and the organisation settings (client secrets sealed with the
 * secret key). ResetOrganization, SuggestProfileBuckets, resources,
 * configure, the OAuth callback and webhooks answer UNIMPLEMENTED (HTTP 501)
 * until their release. Nothing happens on import.
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
  const clock = deps.clock ?? systemClock;
  const sink = new IngestionDocumentSink(config.INGESTION_ADDRESS);
  const crawler = new WebCrawlerConnector(createCrawlFetch({ allowPrivate: config.ENGRAM_ALLOW_PRIVATE_URLS }), {
    defaultDelayMs: config.CRAWL_DEFAULT_DELAY_MS,
  });
  const sync = new SyncEngine({ repo: deps.connections, sink, connectors: { "web-crawler": crawler }, clock, logger: log.child({ component: "sync" }) });
  const connections = new ConnectionsUseCases({ repo: deps.connections, sink, sync, clock, logger: log });

  return {
    name: "connections",
    grpcServices: [
      connectionsGrpc(connections),
      settingsGrpc({
        getSettings: new GetSettingsUseCase(repo),
        updateSettings: new UpdateSettingsUseCase(repo, box, clock),
      }),
    ],
    async start() {
      await repo.bindSecretKey(box.keyId);
      await deps.connections.bindSecretKey(box.keyId);
    },
    async stop() {
      await connections.stop();
      sink.close();
      await repo.close();
      await deps.connections.close();
    },
  };
}
