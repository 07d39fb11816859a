import { env, loadConfig, z, type Env } from "@engram/config";
import { isValidSecretKey, isValidSecretKeys } from "./adapters/crypto/secret-box";

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
  /**
   * Engram's own Google OAuth client (Drive and Gmail share it; a tenant's
   * custom one, set as the google-drive app in PATCH /v3/settings, wins when
   * enabled), and Google's endpoints (local fakes in tests).
   */
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_AUTH_URL: z.string().url("must be a URL").default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: z.string().url("must be a URL").default("https://oauth2.googleapis.com/token"),
  /** The Drive API's root URL (the client's rootUrl). */
  GOOGLE_DRIVE_API_URL: z.string().url("must be a URL").default("https://www.googleapis.com/"),
  /** The Gmail API's root URL (the client's rootUrl). */
  GMAIL_API_URL: z.string().url("must be a URL").default("https://gmail.googleapis.com/"),
  /**
   * Gmail real-time: the Pub/Sub topic users.watch publishes to
   * (projects/<project>/topics/<topic>; grant gmail-api-push@system.gserviceaccount.com
   * the Publisher role), pushed to {ENGRAM_PUBLIC_URL}/v3/connections/webhooks/gmail
   * by an authenticated push subscription. Unset: Gmail follows the 4-hour schedule only.
   */
  GMAIL_PUBSUB_TOPIC: z
    .string()
    .regex(/^projects\/[^/]+\/topics\/[^/]+$/, "must be projects/<project>/topics/<topic>")
    .optional(),
  /** The audience the push subscription's OIDC token carries (default: the push URL). */
  GMAIL_PUSH_AUDIENCE: z.string().min(1).optional(),
  /** The service account the push subscription signs as; tokens from any other account are refused, and every push is refused (503) while it is unset. */
  GMAIL_PUSH_SERVICE_ACCOUNT: z.string().min(1).optional(),
  /** Where Google's token-signing certificates are published (PEM form). */
  GOOGLE_CERTS_URL: z.string().url("must be a URL").default("https://www.googleapis.com/oauth2/v1/certs"),
  /** Engram's own Notion public integration (a tenant's custom one wins when enabled) and Notion's API. */
  NOTION_CLIENT_ID: z.string().min(1).optional(),
  NOTION_CLIENT_SECRET: z.string().min(1).optional(),
  NOTION_API_URL: z.string().url("must be a URL").default("https://api.notion.com"),
  /**
   * The verification token Notion sent to {ENGRAM_PUBLIC_URL}/v3/connections/webhooks/notion
   * when the integration's webhook subscription was created (Engram logs it):
   * signatures of Engram's integration's events are checked with it. Unset:
   * Notion events are refused and Notion follows the 4-hour schedule.
   */
  NOTION_WEBHOOK_VERIFICATION_TOKEN: z.string().min(1).optional(),
  /** Engram's own Microsoft Entra application (a tenant's custom one wins when enabled), and Microsoft's endpoints. */
  MICROSOFT_CLIENT_ID: z.string().min(1).optional(),
  MICROSOFT_CLIENT_SECRET: z.string().min(1).optional(),
  /** The authority: .../common for work and school accounts of any tenant, or .../<tenant id> for one organisation. */
  MICROSOFT_LOGIN_URL: z.string().url("must be a URL").default("https://login.microsoftonline.com/common"),
  GRAPH_API_URL: z.string().url("must be a URL").default("https://graph.microsoft.com/v1.0"),
  /**
   * The OpenAI-compatible chat model that applies the organisation's
   * filterPrompt to imported items (PATCH /v3/settings shouldLLMFilter). Unset:
   * imports are filtered by includeItems / excludeItems only, and PATCH says so.
   */
  LLM_BASE_URL: z.string().url("must be a URL such as http://localhost:11434/v1").optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: env.int(30_000, { min: 100, max: 600_000 }),
  LLM_MAX_RETRIES: env.int(3, { min: 0, max: 20 }),
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
   * Key that encrypts secrets at rest (OAuth client secrets, provider
   * tokens): 32 bytes as base64 or hex; a one-key ring whose key id is
   * `default`. Default: generated once into <dataDir>/secret.key.
   */
  ENGRAM_SECRET_KEY: z
    .string()
    .refine(isValidSecretKey, "must be 32 bytes written as base64 (44 characters) or hex (64 characters), e.g. the output of `openssl rand -base64 32`")
    .optional(),
  /**
   * The keyring, for rotation: `id:key` entries separated by commas, newest
   * first (`2026-11:<base64>,default:<base64>`). The newest seals; every key
   * opens what it sealed. Wins over ENGRAM_SECRET_KEY, which, when also
   * set, must be one of its keys.
   */
  ENGRAM_SECRET_KEYS: z
    .string()
    .refine(
      isValidSecretKeys,
      "must be id:key entries separated by commas, newest first, each key 32 bytes as base64 or hex (e.g. 2026-11:<openssl rand -base64 32>)",
    )
    .optional(),
});

export type ConnectionsConfig = z.infer<typeof connectionsConfigSchema>;

export function loadConnectionsConfig(e: Env = process.env): ConnectionsConfig {
  return loadConfig("connections", connectionsConfigSchema, e);
}
