import { env, loadConfig, z, type Env } from "@engram/config";

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
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export function loadGatewayConfig(e: Env = process.env): GatewayConfig {
  return loadConfig("gateway", gatewayConfigSchema, e);
}
