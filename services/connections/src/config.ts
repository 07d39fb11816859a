import { env, loadConfig, z, type Env } from "@engram/config";
import { isValidSecretKey } from "./adapters/crypto/secret-box";

export const connectionsConfigSchema = z.object({
  ENGRAM_DATA_DIR: env.string("./.data"),
  CONNECTIONS_GRPC_ADDRESS: env.string("0.0.0.0:50055"),
  /** Where imported items go (IngestionService). */
  INGESTION_ADDRESS: env.string("127.0.0.1:50051"),
  /** Let connectors reach private, loopback and link-local addresses (an on-premises site to crawl; tests). */
  ENGRAM_ALLOW_PRIVATE_URLS: env.bool(false),
  /** Wait between two requests of the web crawler when robots.txt sets no Crawl-delay (ms). */
  CRAWL_DEFAULT_DELAY_MS: env.int(1000, { min: 0, max: 60_000 }),
  /**
   * Where browsers and providers reach the gateway (https://engram.example.com):
   * OAuth callbacks ({url}/v3/connections/auth/callback/{provider}) and
   * webhooks ({url}/v3/connections/webhooks/{provider}) are built from it.
   * OAuth connections need it; the all-in-one process defaults it to its own
   * address.
   */
  ENGRAM_PUBLIC_URL: z.string().url("must be a URL such as https://engram.example.com").optional(),
  /** Engram's own GitHub OAuth application (GitHub App or OAuth App); a tenant's custom one (PATCH /v3/settings) wins when enabled. */
  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  /** GitHub's REST API and its web host for OAuth (GitHub Enterprise Server, or a local fake in tests). */
  GITHUB_API_URL: z.string().url("must be a URL").default("https://api.github.com"),
  GITHUB_WEB_URL: z.string().url("must be a URL").default("https://github.com"),
  /** Wait after a webhook before its sync, so that a burst of pushes is one sync (ms; the hosted service waits about 10 minutes). */
  WEBHOOK_DEBOUNCE_MS: env.int(120_000, { min: 0, max: 3_600_000 }),
  /** Granola's API (a local fake in tests). */
  GRANOLA_API_URL: z.string().url("must be a URL").default("https://public-api.granola.ai"),
  /**
   * How often each replica looks for connections due for a scheduled sync
   * (every 4 h; the web crawler when its last run is 7 days old, or its
   * recrawlIntervalDays) (ms). 0 turns scheduled syncs off; manual imports
   * and initial syncs still run.
   */
  SYNC_SCHEDULER_INTERVAL_MS: env.int(60_000, { min: 0, max: 86_400_000 }),
  /** Scheduled syncs one replica runs at once (manual imports and initial syncs are not counted). */
  SYNC_MAX_CONCURRENT: env.int(2, { min: 1, max: 64 }),
  /**
   * Key that encrypts secrets at rest (OAuth client secrets): 32 bytes as
   * base64 or hex. Default: generated once into <dataDir>/secret.key.
   */
  ENGRAM_SECRET_KEY: z
    .string()
    .refine(isValidSecretKey, "must be 32 bytes written as base64 (44 characters) or hex (64 characters), e.g. the output of `openssl rand -base64 32`")
    .optional(),
});

export type ConnectionsConfig = z.infer<typeof connectionsConfigSchema>;

export function loadConnectionsConfig(e: Env = process.env): ConnectionsConfig {
  return loadConfig("connections", connectionsConfigSchema, e);
}
