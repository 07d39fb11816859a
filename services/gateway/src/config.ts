import { env, loadConfig, z, type Env } from "@engram/config";

/** One tenant's own limits (GATEWAY_TENANT_LIMITS); absent fields keep the deployment's. 0 = unlimited. */
const tenantLimits = z
  .object({
    documents: z.number().int().min(0).optional(),
    memories: z.number().int().min(0).optional(),
    requestsPerSecond: z.number().positive().optional(),
    burst: z.number().int().min(1).optional(),
  })
  .strict();

export type TenantLimits = z.infer<typeof tenantLimits>;

export const gatewayConfigSchema = z.object({
  PORT: env.port(8787),
  HOST: env.string("0.0.0.0"),
  ENGRAM_DATA_DIR: env.string("./.data"),
  /** A key to accept (created for tenant ENGRAM_DEFAULT_TENANT when missing). */
  ENGRAM_API_KEY: z.string().min(16, "must be at least 16 characters").optional(),
  /** Several tenants at once: comma-separated key=tenant pairs. */
  ENGRAM_API_KEYS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return [] as { key: string; tenant: string }[];
      const out: { key: string; tenant: string }[] = [];
      for (const pair of v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)) {
        const i = pair.lastIndexOf("=");
        const key = pair.slice(0, i);
        const tenant = pair.slice(i + 1);
        if (i <= 0 || !tenant || key.length < 16 || !/^[A-Za-z0-9._-]{1,64}$/.test(tenant)) {
          ctx.addIssue({
            code: "custom",
            message: `"${pair.slice(0, 8)}…" must be key=tenant with a key of at least 16 characters and a tenant of letters, digits, '.', '_' or '-'`,
          });
          return z.NEVER;
        }
        out.push({ key, tenant });
      }
      return out;
    }),
  ENGRAM_DEFAULT_TENANT: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "letters, digits, '.', '_' or '-'")
    .default("default"),
  INGESTION_ADDRESS: env.string("127.0.0.1:50051"),
  MEMORIES_ADDRESS: env.string("127.0.0.1:50053"),
  RECALL_ADDRESS: env.string("127.0.0.1:50054"),
  CONNECTIONS_ADDRESS: env.string("127.0.0.1:50055"),
  /** Largest JSON body accepted (bytes). */
  GATEWAY_JSON_LIMIT_BYTES: env.int(16 * 1024 * 1024, { min: 1024 }),
  /** Largest file upload accepted (bytes); larger gets 413. */
  GATEWAY_UPLOAD_LIMIT_BYTES: env.int(50 * 1024 * 1024, { min: 1024 }),
  /** Public base URL of the gateway, used in file links (default: taken from each request's Host). */
  ENGRAM_PUBLIC_URL: z.string().url("must be a URL such as https://engram.example.com").optional(),
  /** Deadline of each gRPC call made for a request. */
  GATEWAY_RPC_DEADLINE_MS: env.int(30_000, { min: 100 }),
  /** Seconds an API key lookup is cached (revocations take effect within this time). */
  GATEWAY_KEY_CACHE_SECONDS: env.int(10, { min: 0 }),
  /** Most valid keys cached, and separately most unknown keys (a spray of bad keys never evicts good ones). */
  GATEWAY_KEY_CACHE_ENTRIES: env.int(10_000, { min: 0 }),
  /** Hours a write's answer is replayed for a repeat with the same Idempotency-Key. */
  GATEWAY_IDEMPOTENCY_TTL_HOURS: env.int(24, { min: 1, max: 24 * 30 }),
  /**
   * How long a write sent with an Idempotency-Key may keep running after the
   * client was answered 504 (its gRPC deadline); its outcome is then recorded for the retry.
   */
  GATEWAY_IDEMPOTENT_COMPLETION_MS: env.int(5 * 60_000, { min: 1000 }),
  /** Rate limits and quotas on (false turns every one of them off). */
  GATEWAY_LIMITS_ENABLED: env.bool(true),
  /** Failed authentications per client address per minute before 429 (0 = unlimited). */
  GATEWAY_AUTH_FAILURES_PER_MINUTE: env.int(20, { min: 0 }),
  /** Requests per API key per second, on average (token bucket; 0 = unlimited). */
  GATEWAY_KEY_REQUESTS_PER_SECOND: env.int(1000, { min: 0 }),
  /** Requests an API key may send at once (the bucket's size). */
  GATEWAY_KEY_BURST: env.int(2000, { min: 1 }),
  /** Documents per tenant (0 = unlimited); more answer 402 "Quota exceeded". */
  GATEWAY_TENANT_MAX_DOCUMENTS: env.int(1_000_000, { min: 0 }),
  /** Memories per tenant (0 = unlimited); more answer 402 "Quota exceeded". */
  GATEWAY_TENANT_MAX_MEMORIES: env.int(10_000_000, { min: 0 }),
  /** Seconds a tenant's document and memory counts are reused for quota checks. */
  GATEWAY_QUOTA_CACHE_SECONDS: env.int(5, { min: 0 }),
  /** Per-tenant limits as JSON: {"acme": {"documents": 1000, "memories": 50000, "requestsPerSecond": 5, "burst": 10}}. */
  GATEWAY_TENANT_LIMITS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return {} as Record<string, TenantLimits>;
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON object of tenant -> limits" });
        return z.NEVER;
      }
      const r = z.record(z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "tenant names are letters, digits, '.', '_' or '-'"), tenantLimits).safeParse(parsed);
      if (!r.success) {
        ctx.addIssue({ code: "custom", message: r.error.issues.map((i) => `${i.path.join(".") || "value"}: ${i.message}`).join("; ") });
        return z.NEVER;
      }
      return r.data;
    }),
  /**
   * Express's "trust proxy": which proxies' X-Forwarded-For decides a client's address
   * (for the failed-authentication limit). Unset: the TCP peer. E.g. "loopback", "10.0.0.0/8", or a hop count "1".
   */
  GATEWAY_TRUST_PROXY: z.string().optional(),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export function loadGatewayConfig(e: Env = process.env): GatewayConfig {
  return loadConfig("gateway", gatewayConfigSchema, e);
}
