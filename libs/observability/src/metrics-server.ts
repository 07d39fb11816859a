import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { metrics } from "./index";
import type { LoopHealthStatus } from "./loop-health";

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Prometheus endpoint for a process that serves no HTTP of its own (every
 * service but the gateway in the distributed topology): GET /metrics, and
 * GET /healthz answering 200 while the process's event loop is healthy (503
 * with the API error body while `health` says it is not: blocked or
 * repeatedly stalling; a loop blocked outright does not answer at all).
 */
export async function startMetricsServer(address: string, log: Logger, health?: () => LoopHealthStatus): Promise<MetricsServer> {
  const i = address.lastIndexOf(":");
  const host = address.slice(0, i);
  const port = Number(address.slice(i + 1));
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    if (path === "/healthz") {
      const h = health?.();
      if (h && !h.ok) res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ error: "Unhealthy", details: h.details }));
      else res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
      return;
    }
    if (path !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    metrics.exposition().then(
      (body) => res.writeHead(200, { "content-type": metrics.registry.contentType }).end(body),
      (err: unknown) => {
        log.error({ err }, "metrics exposition failed");
        res.writeHead(500).end();
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  log.info({ address: `${host}:${bound}` }, "metrics endpoint listening");
  return {
    port: bound,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
