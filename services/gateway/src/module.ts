import http from "node:http";
import type { Logger } from "@engram/observability";
import { type ClientSecurity, HealthProbe } from "@engram/grpc";
import { DEFAULT_NAMESPACE } from "@engram/kernel";
import type { ServiceModule } from "@engram/runtime";
import type { ApiKeyStore } from "./auth/api-key";
import { bootstrapKeys } from "./auth/bootstrap";
import { KeyService } from "./auth/keys.service";
import type { GatewayConfig } from "./config";
import { type AppOptions, createApp, type StorageParts } from "./http/app";
import { createBackends } from "./http/backends";
import { answerClientErrors } from "./http/errors";
import { securityHeaderValues } from "./http/security";
import type { GuardStores } from "./guards/open-guard-stores";
import { CachedUsage } from "./guards/quota";
import { usageFromBackends } from "./http/usage.grpc";

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  /** Where the first-start key is printed (stdout by default). */
  print?: (line: string) => void;
  /** Metrics of the process's other threads, merged into /metrics. */
  otherMetrics?: AppOptions["otherMetrics"];
  /** Event-loop health for /healthz (see LoopHeartbeat); always healthy when absent. */
  health?: AppOptions["health"];
  /** The API key store, opened by the composition root (openGatewayKeyStore). Closed on stop. */
  keyStore: ApiKeyStore;
  /**
   * Idempotency records and rate-limit state, opened by the composition root
   * (openGuardStores, next to the keys). Closed on stop. Absent: Idempotency-Key,
   * rate limits and quotas are off (tests that drive other parts).
   */
  guardStores?: GuardStores;
  /** How the gateway signs its calls to the services (and dials them over TLS): from the composition root. */
  security?: ClientSecurity;
}

export interface GatewayModule extends ServiceModule {
  /** The bound HTTP port (after start). */
  port(): number;
}

/** The REST gateway: express in, gRPC out. Owns only the API keys. */
export function createGatewayModule(deps: GatewayDeps): GatewayModule {
  const { config } = deps;
  const log = deps.logger.child({ component: "gateway" });
  const store = deps.keyStore;
  const keys = new KeyService(store, config.GATEWAY_KEY_CACHE_SECONDS * 1000, {
    maxValid: config.GATEWAY_KEY_CACHE_ENTRIES,
    maxUnknown: config.GATEWAY_KEY_CACHE_ENTRIES,
  });
  const backends = createBackends(config, deps.security);
  const gs = deps.guardStores;
  let stopping = false;
  let backendsReady = false;
  // Readiness follows each backend's grpc.health.v1 status, polled in the background.
  const probes = [
    new HealthProbe(config.INGESTION_ADDRESS, "engram.ingestion.v1.IngestionService", deps.security?.credentials),
    new HealthProbe(config.MEMORIES_ADDRESS, "engram.memories.v1.MemoriesService", deps.security?.credentials),
    new HealthProbe(config.RECALL_ADDRESS, "engram.recall.v1.RecallService", deps.security?.credentials),
    new HealthProbe(config.CONNECTIONS_ADDRESS, "engram.connections.v1.ConnectionsService", deps.security?.credentials),
  ];
  let probeTimer: NodeJS.Timeout | undefined;
  // Each storage part's state as the backends report it (the worst where several do; the same process reports
  // the same parts on every port).
  let parts: StorageParts = {};
  const probe = async () => {
    const [results, states] = await Promise.all([Promise.all(probes.map((p) => p.serving(1000))), Promise.all(probes.map((p) => p.storageStates(1000)))]);
    const ready = results.every(Boolean);
    if (ready !== backendsReady) log.info({ ready }, ready ? "all backends serving" : "a backend is not serving");
    backendsReady = ready;
    parts = worstStates(states);
  };
  const app = createApp({
    backends,
    keys,
    logger: log,
    jsonLimitBytes: config.GATEWAY_JSON_LIMIT_BYTES,
    uploadLimitBytes: config.GATEWAY_UPLOAD_LIMIT_BYTES,
    publicUrl: config.ENGRAM_PUBLIC_URL,
    defaultNamespace: DEFAULT_NAMESPACE,
    ready: () => backendsReady && !stopping,
    storageParts: () => parts,
    otherMetrics: deps.otherMetrics,
    health: deps.health,
    trustProxy: config.GATEWAY_TRUST_PROXY,
    guards: gs && {
      idempotency: gs.idempotency,
      rates: gs.rates,
      usage: new CachedUsage(usageFromBackends(backends), config.GATEWAY_QUOTA_CACHE_SECONDS * 1000),
      logger: log,
      answerWithinMs: config.GATEWAY_RPC_DEADLINE_MS,
      completionMs: config.GATEWAY_IDEMPOTENT_COMPLETION_MS,
      retentionMs: config.GATEWAY_IDEMPOTENCY_TTL_HOURS * 3600_000,
      limits: {
        enabled: config.GATEWAY_LIMITS_ENABLED,
        authFailuresPerMinute: config.GATEWAY_AUTH_FAILURES_PER_MINUTE,
        keyRequestsPerSecond: config.GATEWAY_KEY_REQUESTS_PER_SECOND,
        keyBurst: config.GATEWAY_KEY_BURST,
        tenantMaxDocuments: config.GATEWAY_TENANT_MAX_DOCUMENTS,
        tenantMaxMemories: config.GATEWAY_TENANT_MAX_MEMORIES,
        tenants: config.GATEWAY_TENANT_LIMITS,
      },
    },
  });
  const server = http.createServer(app);
  // Requests refused by node's HTTP parser answer with the API error body and the security headers too.
  answerClientErrors(server, securityHeaderValues({ hsts: config.ENGRAM_PUBLIC_URL?.startsWith("https://") ?? false }));
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 5 * 60_000;
  let boundPort = 0;

  return {
    name: "gateway",
    port: () => boundPort,
    ready: () => backendsReady && !stopping,
    async start() {
      await bootstrapKeys(keys, config, log, deps.print ?? ((l) => process.stdout.write(l + "\n")));
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(config.PORT, config.HOST, () => {
          server.off("error", reject);
          resolve();
        });
      });
      boundPort = (server.address() as { port: number }).port;
      log.info({ port: boundPort }, "gateway listening");
      await probe();
      probeTimer = setInterval(() => void probe(), 2000);
      probeTimer.unref();
    },
    async stop() {
      stopping = true;
      if (probeTimer) clearInterval(probeTimer);
      probes.forEach((p) => p.close());
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      });
      backends.close();
      await store.close();
      await gs?.close();
    },
  };
}

const SEVERITY: Record<string, number> = { ok: 0, low: 1, failing: 2, unwritable: 3, full: 4 };

/** Per part, the worst state any backend reports. */
export function worstStates(reports: StorageParts[]): StorageParts {
  const out: StorageParts = {};
  for (const r of reports)
    for (const [part, state] of Object.entries(r) as [keyof StorageParts, string][]) {
      const seen = out[part];
      if (seen === undefined || (SEVERITY[state] ?? 2) > (SEVERITY[seen] ?? 2)) out[part] = state;
    }
  return out;
}
