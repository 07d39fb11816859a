/**
 * Container health check for any TARGETS (`node dist/healthcheck.js`, the
 * image's HEALTHCHECK and docker-compose's healthchecks): exits 0 when what
 * this container runs is healthy, 1 otherwise, with one line per failure on
 * stderr.
 *
 * - With the gateway in TARGETS: `GET /readyz` on the gateway's port (PORT,
 *   default 8787). The gateway is ready only once every backend it dials
 *   answers grpc.health.v1 SERVING, so in the all-in-one process (`TARGETS=all`,
 *   gRPC on ephemeral loopback ports) this one request covers the stack.
 * - Otherwise, for each gRPC service in TARGETS: grpc.health.v1 Check of the
 *   whole server ("") at the address it binds, `<SERVICE>_GRPC_ADDRESS`
 *   (default port: DEFAULT_GRPC_PORTS), dialled on loopback when it binds
 *   every interface.
 *
 * It stays small on purpose (no service configuration, no stores): docker runs
 * it every few seconds.
 */

/** The services TARGETS may name (kept equal to SERVICES in config.ts by a unit test). */
export const HEALTH_SERVICES = ["ingestion", "pipeline-worker", "memories", "recall", "connections", "gateway"] as const;

/** Default gRPC bind ports (equal to the services' config defaults and deploy/topology.yaml; a unit test checks both). */
export const DEFAULT_GRPC_PORTS: Record<Exclude<(typeof HEALTH_SERVICES)[number], "gateway">, number> = {
  ingestion: 50051,
  "pipeline-worker": 50052,
  memories: 50053,
  recall: 50054,
  connections: 50055,
};

/** The gateway's default HTTP port (its config default). */
export const DEFAULT_HTTP_PORT = 8787;

export type HealthCheck = { kind: "http"; service: "gateway"; url: string } | { kind: "grpc"; service: string; address: string };

type Env = Record<string, string | undefined>;

const ANY_INTERFACE = new Set(["", "0.0.0.0", "::", "[::]"]);

/** A bind host as a host to dial: every-interface binds are reached on loopback. */
function dialHost(host: string): string {
  if (ANY_INTERFACE.has(host)) return "127.0.0.1";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function splitHostPort(address: string): { host: string; port: number } {
  const i = address.lastIndexOf(":");
  const port = Number(address.slice(i + 1));
  if (i < 0 || !Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`not a host:port address: "${address}"`);
  return { host: address.slice(0, i), port };
}

/** What to check for the environment's TARGETS (throws on an unknown target, as the process itself would refuse to start). */
export function healthChecks(env: Env = process.env): HealthCheck[] {
  const raw = (env.TARGETS ?? "").trim() || "all";
  const parts = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const targets = parts.length === 1 && parts[0] === "all" ? [...HEALTH_SERVICES] : parts;
  const unknown = targets.filter((t) => !(HEALTH_SERVICES as readonly string[]).includes(t));
  if (unknown.length || targets.length === 0) throw new Error(`TARGETS must be "all" or a list of ${HEALTH_SERVICES.join(", ")} (got "${raw}")`);

  if (targets.includes("gateway")) {
    const port = env.PORT ? Number(env.PORT) : DEFAULT_HTTP_PORT;
    if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`PORT must be a port number (got "${env.PORT}")`);
    return [{ kind: "http", service: "gateway", url: `http://${dialHost(env.HOST ?? "")}:${port}/readyz` }];
  }
  return targets.map((service) => {
    const variable = `${service.toUpperCase().replace(/-/g, "_")}_GRPC_ADDRESS`;
    const fallback = `0.0.0.0:${DEFAULT_GRPC_PORTS[service as keyof typeof DEFAULT_GRPC_PORTS]}`;
    const { host, port } = splitHostPort(env[variable] || fallback);
    return { kind: "grpc", service, address: `${dialHost(host)}:${port}` };
  });
}

export interface CheckResult {
  check: HealthCheck;
  ok: boolean;
  detail: string;
}

async function checkHttp(url: string, timeoutMs: number, fetchFn: typeof fetch): Promise<{ ok: boolean; detail: string }> {
  try {
    const res = await fetchFn(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return { ok: res.status === 200, detail: `HTTP ${res.status}` };
  } catch (err) {
    return { ok: false, detail: err instanceof Error ? err.message : String(err) };
  }
}

async function checkGrpc(address: string, timeoutMs: number, env: Env): Promise<{ ok: boolean; detail: string }> {
  // Loaded here: the gateway's check needs no gRPC stack.
  const { HealthProbe } = await import("@engram/grpc/src/health");
  // With gRPC TLS configured the servers speak only mutual TLS: the probe presents the pod's own certificate.
  const { GRPC_TLS_CERT: cert, GRPC_TLS_KEY: key, GRPC_TLS_CA: ca } = env;
  let credentials;
  if (cert && key && ca) {
    const tls = await import("@engram/grpc/src/tls");
    credentials = tls.channelCredentials(tls.readTlsFiles({ cert, key, ca }));
  }
  const probe = new HealthProbe(address, "", credentials);
  try {
    const serving = await probe.serving(timeoutMs);
    return { ok: serving, detail: serving ? "SERVING" : "not SERVING (or unreachable)" };
  } finally {
    probe.close();
  }
}

/** Runs every check in parallel. */
export async function runHealthChecks(checks: HealthCheck[], opts: { timeoutMs?: number; fetch?: typeof fetch; env?: Env } = {}): Promise<CheckResult[]> {
  const timeoutMs = opts.timeoutMs ?? 3000;
  return Promise.all(
    checks.map(async (check) => ({
      check,
      ...(check.kind === "http"
        ? await checkHttp(check.url, timeoutMs, opts.fetch ?? fetch)
        : await checkGrpc(check.address, timeoutMs, opts.env ?? process.env)),
    })),
  );
}

/** The command: exit code 0 (healthy) or 1 (unhealthy or misconfigured; docker reserves 2). */
export async function main(argv: string[] = process.argv.slice(2), env: Env = process.env): Promise<number> {
  const t = argv.find((a) => a.startsWith("--timeout-ms="));
  const timeoutMs = t ? Number(t.slice("--timeout-ms=".length)) : 3000;
  let checks: HealthCheck[];
  try {
    checks = healthChecks(env);
  } catch (err) {
    process.stderr.write(`healthcheck: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  const results = await runHealthChecks(checks, { timeoutMs, env });
  for (const r of results) {
    if (!r.ok) process.stderr.write(`healthcheck: ${r.check.service} at ${r.check.kind === "http" ? r.check.url : r.check.address}: ${r.detail}\n`);
  }
  return results.every((r) => r.ok) ? 0 : 1;
}

if (require.main === module) {
  void main().then((code) => process.exit(code));
}
