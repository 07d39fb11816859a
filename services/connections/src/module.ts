import { createHash, createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Clock, InvalidArgumentError, systemClock } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import type { ServiceModule } from "@engram/runtime";
import type { ClientSecurity } from "@engram/grpc";
import { loadSecretKeyring, SecretKeyring } from "./adapters/crypto/secret-box";
import { SqliteSettingsRepository } from "./adapters/embedded/settings.sqlite";
import { GetSettingsUseCase } from "./app/get-settings.usecase";
import { UpdateSettingsUseCase } from "./app/update-settings.usecase";
import { ResetOrganizationUseCase } from "./app/reset-organization.usecase";
import { ChatClient, OfflineBucketSuggester, OpenAIBucketSuggester, OpenAIImportJudge } from "@engram/nlp";
import { SuggestBucketsUseCase } from "./app/suggest-buckets.usecase";
import { OrganizationImportPolicies } from "./app/import-policy";
import type { SettingsRepository } from "./app/ports";
import type { ConnectionsConfig } from "./config";
import { settingsGrpc } from "./grpc/settings.grpc";
import { SqliteConnectionRepository } from "./adapters/embedded/connections.sqlite";
import { createCrawlFetch } from "./adapters/connectors/web-crawler";
import { WebCrawlerConnector } from "./adapters/connectors/web-crawler-connector";
import { PageAnalysisPool } from "./adapters/connectors/web-crawler/analysis-pool";
import { IngestionDocumentSink } from "./adapters/grpc/ingestion-sink.grpc";
import { ConnectionsUseCases, type CredentialCheck } from "./app/connections.usecase";
import { GranolaConnector, validateGranolaKey } from "./adapters/connectors/granola";
import { type ConnectionRepository, connectionCredentialsContext } from "./app/connection-ports";
import { ConnectorError } from "./domain/errors";
import { SyncEngine } from "./app/sync-engine";
import { SyncScheduler } from "./app/sync-scheduler";
import { type Connection, CONNECTION_PROVIDERS, webhookUrl } from "./domain/connection";
import { connectionsGrpc } from "./grpc/connections.grpc";
import { GitHubConnector } from "./adapters/connectors/github/github-connector";
import { OAuthClient } from "./adapters/oauth/oauth-client";
import { SettingsOAuthApps } from "./adapters/oauth/oauth-apps";
import { OAuthFlow } from "./app/oauth-flow";
import { ProviderEndpoints } from "./app/provider-endpoints.usecase";
import { type OAuthApp, type OAuthConnector, type OAuthProviderSpec, OAUTH_PROVIDER_SPECS, withEndpoints } from "./domain/oauth";
import type { Connector, ProviderAuth } from "./app/sync-ports";
import { GoogleDriveConnector } from "./adapters/connectors/google-drive/drive-connector";
import { GmailConnector } from "./adapters/connectors/gmail/gmail-connector";
import { NotionConnector } from "./adapters/connectors/notion/notion-connector";
import { OneDriveConnector } from "./adapters/connectors/onedrive/onedrive-connector";
import { parseS3Secret, S3Connector } from "./adapters/connectors/s3/s3-connector";

/**
 * A settings store that checks, at start, that stored secrets were sealed
 * with a key of the ring (`fingerprints`, newest first: the stored one must
 * be among them).
 */
export type BoundSettingsRepository = SettingsRepository & { bindSecretKey(fingerprints: string | readonly string[]): void | Promise<void> };
/** The connection store, with the same check. */
export type BoundConnectionRepository = ConnectionRepository & { bindSecretKey(fingerprints: string | readonly string[]): void | Promise<void> };

export interface ConnectionsDeps {
  config: ConnectionsConfig;
  logger: Logger;
  clock?: Clock;
  /** How this service signs its calls to its peers (and dials them over TLS): set by the process runtime's owner. */
  security?: ClientSecurity;
  /** The settings store, chosen by the composition root (embeddedSettingsRepository or @engram/connections/mongo). */
  settings: BoundSettingsRepository;
  /** The connection store, chosen by the composition root (embeddedConnectionRepository or @engram/connections/mongo). */
  connections: BoundConnectionRepository;
}

/**
 * This replica's name in sync leases: stable across restarts of the same
 * replica (host name and data directory), so that after a crash it takes
 * back the leases of the syncs it was running (a manual import works at
 * once) instead of waiting for them to lapse. Another replica has another
 * name and waits for the lapse, as it must.
 */
export function leaseHolder(dataDir: string): string {
  return `connections@${os.hostname()}#${createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 12)}`;
}

/** Engram's own OAuth applications, from configuration (Gmail uses the Google client, as Drive does). */
export function engramOAuthApps(config: ConnectionsConfig): Partial<Record<OAuthConnector, OAuthApp>> {
  const app = (id: string | undefined, secret: string | undefined) => (id && secret ? { clientId: id, clientSecret: secret } : undefined);
  const google = app(config.GOOGLE_CLIENT_ID, config.GOOGLE_CLIENT_SECRET);
  const apps: Partial<Record<OAuthConnector, OAuthApp | undefined>> = {
    github: app(config.GITHUB_CLIENT_ID, config.GITHUB_CLIENT_SECRET),
    "google-drive": google,
    gmail: google,
    notion: app(config.NOTION_CLIENT_ID, config.NOTION_CLIENT_SECRET),
    onedrive: app(config.MICROSOFT_CLIENT_ID, config.MICROSOFT_CLIENT_SECRET),
  };
  return Object.fromEntries(Object.entries(apps).filter(([, a]) => a !== undefined));
}

/** Each OAuth provider's spec with its endpoints from configuration (the real ones by default; local fakes in tests). */
export function oauthSpecs(config: ConnectionsConfig): Record<OAuthConnector, OAuthProviderSpec> {
  const githubWeb = config.GITHUB_WEB_URL.replace(/\/+$/, "");
  const microsoft = config.MICROSOFT_LOGIN_URL.replace(/\/+$/, "");
  const notion = config.NOTION_API_URL.replace(/\/+$/, "");
  const google = { authorizeUrl: config.GOOGLE_AUTH_URL, tokenUrl: config.GOOGLE_TOKEN_URL };
  return {
    github: withEndpoints(OAUTH_PROVIDER_SPECS.github, {
      authorizeUrl: `${githubWeb}/login/oauth/authorize`,
      tokenUrl: `${githubWeb}/login/oauth/access_token`,
    }),
    "google-drive": withEndpoints(OAUTH_PROVIDER_SPECS["google-drive"], google),
    gmail: withEndpoints(OAUTH_PROVIDER_SPECS.gmail, google),
    notion: withEndpoints(OAUTH_PROVIDER_SPECS.notion, { authorizeUrl: `${notion}/v1/oauth/authorize`, tokenUrl: `${notion}/v1/oauth/token` }),
    onedrive: withEndpoints(OAUTH_PROVIDER_SPECS.onedrive, { authorizeUrl: `${microsoft}/oauth2/v2.0/authorize`, tokenUrl: `${microsoft}/oauth2/v2.0/token` }),
  };
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
 * The connections service: the connection lifecycle and syncs of every
 * provider (the web crawler, Granola and S3 with direct credentials; GitHub,
 * Google Drive, Gmail, Notion and OneDrive/SharePoint through OAuth), their
 * webhooks and renewals, and the organisation settings (client secrets
 * sealed with the secret key). ResetOrganization and SuggestProfileBuckets
 * answer UNIMPLEMENTED (HTTP 501) until their release. Nothing happens on
 * import.
 */
export function createConnectionsModule(deps: ConnectionsDeps): ServiceModule {
  const { config } = deps;
  const log = deps.logger.child({ component: "connections" });
  const secretKey = loadSecretKeyring(config.ENGRAM_DATA_DIR, { keys: config.ENGRAM_SECRET_KEYS, key: config.ENGRAM_SECRET_KEY });
  if (secretKey.source === "generated") log.info({ file: secretKey.file }, "generated the secret key");
  if (secretKey.file && (fs.statSync(secretKey.file).mode & 0o077) !== 0) {
    log.warn({ file: secretKey.file }, "the secret key file is readable by other users; chmod 600 it");
  }
  const box = secretKey.ring;
  const repo = deps.settings;
  const clock = deps.clock ?? systemClock;
  const sink = new IngestionDocumentSink(config.INGESTION_ADDRESS, deps.security);
  // Crawled pages are decoded and analysed in a worker thread, never on the thread that serves requests.
  const pagePool = new PageAnalysisPool({ threads: 1, timeoutMs: 30_000, onError: (err) => log.error({ err }, "page analysis worker failed") });
  const crawler = new WebCrawlerConnector(createCrawlFetch({ allowPrivate: config.ENGRAM_ALLOW_PRIVATE_URLS }), {
    defaultDelayMs: config.CRAWL_DEFAULT_DELAY_MS,
    analyse: (body, contentType) => pagePool.analyse(body, contentType),
  });
  // A direct connection's secret (an API key, S3 access keys), opened from its sealed credentials (bound to its tenant and id).
  const credentialOf = (c: Connection) => {
    if (!c.sealedCredentials) throw new ConnectorError("auth_expired", "the connection has no credentials");
    return box.openString(c.sealedCredentials, connectionCredentialsContext(c.tenantId, c.id));
  };
  const granola = new GranolaConnector({ baseUrl: config.GRANOLA_API_URL, apiKeyOf: credentialOf });
  const s3 = new S3Connector({ credentialsOf: (c) => parseS3Secret(credentialOf(c)), allowPrivate: config.ENGRAM_ALLOW_PRIVATE_URLS });
  const checkCredentials: CredentialCheck = async (provider, key, metadata) => {
    // S3: the access keys, bucket, prefix, region and endpoint, checked with one listing; answers the config to keep.
    if (provider === "s3") return s3.check(key, metadata ?? {});
    if (provider !== "granola") return;
    try {
      await validateGranolaKey(key, { baseUrl: config.GRANOLA_API_URL });
    } catch (err) {
      if (err instanceof ConnectorError && err.code === "auth_expired")
        throw new InvalidArgumentError("Granola refused the API key", "create an API key in Granola under Settings → API");
      throw err;
    }
  };
  // OAuth: Engram's own applications from configuration, the tenant's custom ones from settings.
  const engramApps = engramOAuthApps(config);
  const specs = oauthSpecs(config);
  // Connectors identify the account of a completed consent; filled in below, once they exist (they need the flow's tokens).
  const oauthConnectors: Partial<Record<OAuthConnector, Connector>> = {};
  const oauth = new OAuthFlow({
    repo: deps.connections,
    sealer: box,
    // The state's own keys, derived from each key of the ring (a link issued before a rotation still completes).
    stateKeys: new SecretKeyring(box.deriveKeys("oauth-state")),
    specs,
    apps: new SettingsOAuthApps(repo, box, engramApps),
    // Plain-http token endpoints only when the operator configured one (a local fake).
    tokens: new OAuthClient({ allowHttp: Object.values(specs).some((s) => s.tokenUrl.startsWith("http:")), now: () => clock.now().getTime() }),
    identify: async (provider, tokens) => (await oauthConnectors[provider]?.identify?.(tokens)) ?? {},
    redirectPolicy: async (tenantId) => ({ origins: (await repo.get(tenantId))?.allowedRedirectOrigins ?? [], publicUrl: config.ENGRAM_PUBLIC_URL }),
    publicUrl: config.ENGRAM_PUBLIC_URL,
    clock,
    logger: log.child({ component: "oauth" }),
  });
  const authOf = (c: Connection): ProviderAuth => ({
    token: () => oauth.accessToken(c.tenantId, c.id),
    refreshed: (failed) => oauth.accessToken(c.tenantId, c.id, failed),
  });
  Object.assign(oauthConnectors, {
    github: new GitHubConnector({ baseUrl: config.GITHUB_API_URL, authOf }),
    "google-drive": new GoogleDriveConnector({ apiUrl: config.GOOGLE_DRIVE_API_URL, authOf }),
    gmail: new GmailConnector({
      apiUrl: config.GMAIL_API_URL,
      authOf,
      push: {
        topic: config.GMAIL_PUBSUB_TOPIC,
        audience:
          config.GMAIL_PUSH_AUDIENCE ??
          (config.ENGRAM_PUBLIC_URL ? `${config.ENGRAM_PUBLIC_URL.replace(/\/+$/, "")}/v3/connections/webhooks/gmail` : undefined),
        serviceAccountEmail: config.GMAIL_PUSH_SERVICE_ACCOUNT,
        certsUrl: config.GOOGLE_CERTS_URL,
      },
    }),
    notion: new NotionConnector({
      apiUrl: config.NOTION_API_URL,
      authOf,
      webhookVerificationToken: config.NOTION_WEBHOOK_VERIFICATION_TOKEN,
      logger: log.child({ component: "notion" }),
    }),
    onedrive: new OneDriveConnector({ graphUrl: config.GRAPH_API_URL, authOf }),
  } satisfies Record<OAuthConnector, Connector>);
  // Each connection's webhooks are signed with a secret derived from the newest secret key: nothing to store or leak.
  // Those derived from older keys of the ring still verify (hooks registered before a rotation) until the key leaves the ring.
  const webhookKeys = box.deriveKeys("webhook-secret").map((k) => k.key);
  const webhookSecret = (key: Buffer, c: Connection) => createHmac("sha256", key).update(`${c.tenantId}\u0000${c.id}`).digest("hex");
  const webhookTarget = (c: Connection) => ({
    url: webhookUrl(oauth.publicBase(), c),
    secret: webhookSecret(webhookKeys[0]!, c),
    previousSecrets: webhookKeys.slice(1).map((k) => webhookSecret(k, c)),
  });
  // The organisation's chat model, when configured: the import filter's prompt and bucket suggestions.
  const chat =
    config.LLM_BASE_URL && config.LLM_MODEL
      ? new ChatClient({
          baseUrl: config.LLM_BASE_URL,
          model: config.LLM_MODEL,
          apiKey: config.LLM_API_KEY,
          timeoutMs: config.LLM_TIMEOUT_MS,
          maxRetries: config.LLM_MAX_RETRIES,
        })
      : undefined;
  const judge = chat ? new OpenAIImportJudge(chat) : undefined;
  const importPolicies = new OrganizationImportPolicies({ settings: repo, judge });
  const sync = new SyncEngine(
    {
      repo: deps.connections,
      sink,
      connectors: { "web-crawler": crawler, granola, s3, ...oauthConnectors },
      clock,
      logger: log.child({ component: "sync" }),
      webhookTarget,
      importPolicy: (c) => importPolicies.forConnection(c),
    },
    // A sync asked for during a run follows it at once (the scheduler looks when the run ends).
    {
      holder: leaseHolder(config.ENGRAM_DATA_DIR),
      onFollowUpDue: () => {
        if (config.SYNC_SCHEDULER_INTERVAL_MS > 0) scheduler.tick().catch((err) => log.warn({ err }, "could not look for due syncs after a run"));
      },
    },
  );
  const connections = new ConnectionsUseCases({ repo: deps.connections, sink, sync, clock, logger: log, sealer: box, checkCredentials, oauth });
  const providerEndpoints = new ProviderEndpoints({
    repo: deps.connections,
    sync,
    oauth,
    runSync: (t, id, trigger) => connections.runSync(t, id, trigger),
    webhookTarget,
    webhookDebounceMs: config.WEBHOOK_DEBOUNCE_MS,
    clock,
    logger: log.child({ component: "webhooks" }),
  });
  // Scheduled syncs (every 4 h; the web crawler weekly): started the way manual imports are, so stopping the use cases stops them.
  const scheduler = new SyncScheduler(
    {
      repo: deps.connections,
      runSync: (due) => connections.runSync(due.tenantId, due.connectionId, due.requested ? (due.requestedBy ?? "webhook") : "scheduled"),
      providers: CONNECTION_PROVIDERS.filter((p) => sync.supports(p)),
      clock,
      logger: log,
    },
    { intervalMs: config.SYNC_SCHEDULER_INTERVAL_MS, maxConcurrent: config.SYNC_MAX_CONCURRENT },
  );

  return {
    name: "connections",
    grpcServices: [
      connectionsGrpc(connections, providerEndpoints),
      settingsGrpc({
        getSettings: new GetSettingsUseCase(repo),
        updateSettings: new UpdateSettingsUseCase(repo, box, clock, judge !== undefined),
        resetOrganization: new ResetOrganizationUseCase({ connections, repo: deps.connections, settings: repo, logger: log }),
        suggestBuckets: new SuggestBucketsUseCase({
          settings: repo,
          offline: new OfflineBucketSuggester(),
          ...(chat ? { model: new OpenAIBucketSuggester(chat) } : {}),
          logger: log,
        }),
      }),
    ],
    async start() {
      await repo.bindSecretKey(box.fingerprints);
      await deps.connections.bindSecretKey(box.fingerprints);
      scheduler.start();
    },
    // Shutdown: no sync starts any more, and the ones under way (crawls included) stop at their next item, recorded as
    // interrupted and requested again, so the first look for due syncs after the restart resumes them.
    abort(reason) {
      scheduler.stop().catch(() => undefined);
      connections.abort(reason);
    },
    async stop() {
      // The timer first (no sync starts after it), then the syncs under way are aborted and awaited.
      await scheduler.stop();
      await connections.stop();
      await pagePool.close();
      sink.close();
      await repo.close();
      await deps.connections.close();
    },
  };
}
