import express, { type Express } from "express";
import path from "node:path";
import { STORAGE_PART_LABELS, type StoragePart } from "@engram/kernel";
import { type Logger, type LoopHealthStatus, metrics } from "@engram/observability";
import type { KeyService } from "../auth/keys.service";
import { conversationRoutes } from "../routes/conversations.routes";
import { connectionRoutes, publicConnectionRoutes } from "../routes/connections.routes";
import { containerTagRoutes } from "../routes/container-tags.routes";
import { v3DocumentRoutes } from "../routes/documents.v3.routes";
import { v5DocumentRoutes } from "../routes/documents.v5.routes";
import { memoryRoutes } from "../routes/memories.routes";
import { searchRoutes } from "../routes/search.routes";
import { settingsRoutes } from "../routes/settings.routes";
import { fileRoutes, UPLOAD_DEADLINE_MS } from "../routes/files.routes";
import { keyRoutes } from "../routes/keys.routes";
import { archiveRoutes } from "../routes/archive.routes";
import { defaultSpoolDir } from "./upload-spool";
import { mcpRoutes } from "../mcp/mcp.routes";
import { docsRoutes } from "../openapi/docs.routes";
import type { Backends } from "./backends";
import { consoleRoutes } from "./console";
import { errorHandler, notFoundHandler } from "./errors";
import { jsonBody, sendJson } from "./json";
import { authorizeScopes, authorizeTags } from "./authorize";
import { createGuards, type GuardOptions } from "./guards";
import { authenticate, observeRequests } from "./middleware";
import { securityHeaders } from "./security";

export interface AppOptions {
  backends: Backends;
  keys: KeyService;
  logger: Logger;
  jsonLimitBytes: number;
  uploadLimitBytes: number;
  defaultNamespace: string;
  publicUrl?: string;
  /** Where multipart uploads wait while their request runs (default `<tmpdir>/engram-uploads`). */
  uploadSpoolDir?: string;
  /** Readiness: every backend serving and not shutting down. */
  ready: () => boolean;
  /** Readiness of each storage part the backends report (store, fileStore, index, bus): `ok` or why it cannot write. */
  storageParts?: () => StorageParts;
  /** Metrics of the process's other threads, merged into /metrics (all-in-one with the gateway on its own thread). */
  otherMetrics?: () => Promise<MetricsSnapshot[]>;
  /** Liveness: the event loops of the process are not blocked (LoopHeartbeat); /healthz answers 503 otherwise. */
  health?: () => LoopHealthStatus;
  /** Idempotency-Key, rate limits and quotas (http/guards.ts); none of them when absent. */
  guards?: GuardOptions;
  /** "trust proxy" (GATEWAY_TRUST_PROXY): which proxies' X-Forwarded-For gives the client's address. */
  trustProxy?: string;
}

type MetricsSnapshot = Awaited<ReturnType<typeof metrics.snapshot>>;

/** Each storage part's state: `ok`, `low`, `full` or `unwritable` (docs/api-decisions.md section 21). */
export type StorageParts = Partial<Record<StoragePart, string>>;

/**
 * GET /readyz: 200 `{status: "ready", parts}` while every backend serves and every storage part writes;
 * otherwise 503 with the API's error body, `status: "not_ready"` and the parts, the details naming the parts
 * that cannot write. /healthz (liveness) does not look at storage: a full disk must not get the process restarted.
 */
function readiness(ready: boolean, parts: StorageParts): { status: number; body: Record<string, unknown> } {
  const failing = (Object.entries(parts) as [StoragePart, string][]).filter(([, state]) => state !== "ok");
  if (ready && failing.length === 0) return { status: 200, body: { status: "ready", parts } };
  const details = failing.length
    ? `${failing.map(([part, state]) => `the ${STORAGE_PART_LABELS[part]} (${part}) ${STATE_TEXT[state] ?? "cannot write"}`).join("; ")}`
    : "a backend service is not serving yet or the gateway is shutting down";
  return { status: 503, body: { error: "Not ready", details, status: "not_ready", parts } };
}

const STATE_TEXT: Record<string, string> = {
  full: "cannot write: its disk is full",
  unwritable: "cannot write: its storage is read-only or not writable",
  low: "is low on disk space",
};

/** The REST API: health, metrics, the OpenAPI description and its reference page open, everything else behind a Bearer key. */
export function createApp(o: AppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  if (o.trustProxy !== undefined) app.set("trust proxy", trustProxyValue(o.trustProxy));
  app.response.json = sendJson;
  // Security headers on every response, errors included; HSTS only behind TLS (an https public URL).
  app.use(securityHeaders({ hsts: o.publicUrl?.startsWith("https://") ?? false }));
  app.use(observeRequests(o.logger));

  app.get("/healthz", (_req, res) => {
    const h = o.health?.();
    if (h && !h.ok) return res.status(503).json({ error: "Unhealthy", details: h.details });
    return res.json({ status: "ok" });
  });
  app.get("/readyz", (_req, res) => {
    const r = readiness(o.ready(), o.storageParts?.() ?? {});
    res.status(r.status).json(r.body);
  });
  app.get("/metrics", async (_req, res) => {
    res.setHeader("content-type", metrics.registry.contentType);
    res.send(await metrics.exposition(o.otherMetrics ? await o.otherMetrics() : []));
  });

  const guards = o.guards ? createGuards(o.guards) : undefined;
  const files = fileRoutes(o.backends, {
    maxBytes: o.uploadLimitBytes,
    defaultNamespace: o.defaultNamespace,
    logger: o.logger,
    spoolDir: o.uploadSpoolDir,
    afterParse: guards ? [guards.idempotency(Math.max(o.guards!.answerWithinMs, UPLOAD_DEADLINE_MS)), guards.quota] : [],
  });
  app.use(docsRoutes()); // GET /openapi.json and the reference page at /docs (docs/api-decisions.md section 7): open
  app.use(consoleRoutes()); // the web console at /console (apps/console): open, its API calls carry the key
  app.use(publicConnectionRoutes(o.backends));
  app.use(files.open);
  app.use(guards ? guards.authenticateGuarded(authenticate(o.keys)) : authenticate(o.keys));
  // Scoped keys (docs/api-decisions.md, "Scoped keys"): the route → scope table, then container-tag limits on the body.
  app.use(authorizeScopes());
  app.use(files.authed);
  // The archive import reads its raw (tar) body itself: before the JSON body parser.
  app.use(archiveRoutes(o.backends, { spoolDir: path.join(o.uploadSpoolDir ?? defaultSpoolDir(), "archives"), logger: o.logger }));
  app.use(jsonBody(o.jsonLimitBytes));
  app.use(authorizeTags());
  // Creating POSTs: Idempotency-Key first (a replay answers even over quota), then the tenant's quota.
  if (guards) app.use(guards.idempotency(o.guards!.answerWithinMs), guards.quota);
  // Most-called first: express tries each route in order (no two of these routers share a path).
  app.use(searchRoutes(o.backends));
  app.use(memoryRoutes(o.backends));
  app.use(v5DocumentRoutes(o.backends));
  app.use(v3DocumentRoutes(o.backends, { defaultNamespace: o.defaultNamespace, publicUrl: o.publicUrl }));
  app.use(settingsRoutes(o.backends));
  app.use(connectionRoutes(o.backends, { defaultNamespace: o.defaultNamespace }));
  app.use(conversationRoutes(o.backends, { defaultNamespace: o.defaultNamespace }));
  app.use(containerTagRoutes(o.backends));
  app.use(keyRoutes(o.keys)); // the caller's tenant's API keys (docs/api-decisions.md section 8)
  app.use(mcpRoutes()); // MCP over Streamable HTTP at /mcp (docs/mcp.md): behind the key check, its tools call this REST API
  app.use(notFoundHandler);
  app.use(errorHandler(o.logger));
  return app;
}

/** GATEWAY_TRUST_PROXY as express takes it: true/false, a hop count, or addresses and subnets. */
function trustProxyValue(v: string): boolean | number | string {
  if (v === "true" || v === "false") return v === "true";
  return /^\d+$/.test(v) ? Number(v) : v;
}
