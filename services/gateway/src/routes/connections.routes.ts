import express, { type Request, Router } from "express";
import { fromStruct, protoEnum, toStruct } from "@engram/grpc";
import { CONNECTOR_PROVIDERS, type ConnectorProvider, type JsonObject } from "@engram/kernel";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { HttpProblem } from "../http/errors";
import { presentConnection, presentConnectionDocument, presentSyncRun } from "./presenters";
import {
  configureBody,
  connectionIdParam,
  connectionRunsQuery,
  connectorProvider,
  createConnectionBody,
  deleteConnectionQuery,
  listConnectionsBody,
  oauthCallbackQuery,
  optionalProviderTagsBody,
  providerTagsBody,
  resourcesQuery,
} from "./schemas";

/** Largest webhook body accepted (GitHub caps its payloads at 25 MB). */
export const WEBHOOK_MAX_BYTES = 25 * 1024 * 1024;

const isProvider = (x: string): x is ConnectorProvider => (CONNECTOR_PROVIDERS as readonly string[]).includes(x);
/** The provider named in the path (an unknown one is a 400 naming the path parameter, not a body field). */
const providerOf = (req: Request) => {
  const r = connectorProvider.safeParse(req.params.provider);
  if (!r.success) throw new HttpProblem(400, "Invalid request", `path parameter provider: ${r.error.issues[0]?.message ?? "unknown provider"}`);
  return protoEnum.provider.to(r.data);
};
const body = (req: Request) => req.body ?? {};

/**
 * Connections (/v3/connections...): validated against the OpenAPI description
 * and forwarded to the connections service, whose answers are presented in
 * the description's shapes.
 */
export function connectionRoutes(b: Backends, opts: { defaultNamespace: string }): Router {
  const r = Router();
  const c = b.connections;

  r.post("/v3/connections/list", async (req, res) => {
    const { containerTags } = listConnectionsBody.parse(body(req));
    const out = await c.ListConnections({ context: callContext(req), containerTags: containerTags ?? [] }, req);
    res.json(out.connections.map(presentConnection));
  });

  r.get("/v3/connections/:connectionId/resources", async (req, res) => {
    const q = resourcesQuery.parse(req.query);
    const out = await c.ListConnectionResources(
      {
        context: callContext(req),
        connectionId: connectionIdParam.parse(req.params.connectionId),
        page: q.page ?? 1,
        perPage: q.per_page ?? 30,
        parentId: q.parent_id ?? "",
      },
      req,
    );
    res.json({ resources: out.resources.map((x) => fromStruct(x) ?? {}), ...(out.totalCount !== undefined ? { total_count: out.totalCount } : {}) });
  });

  // Engram extension: the connection's sync runs, newest first (registered before GET /v3/connections/:connectionId, like the other sub-paths).
  r.get("/v3/connections/:connectionId/runs", async (req, res) => {
    const connectionId = connectionIdParam.parse(req.params.connectionId);
    const { limit } = connectionRunsQuery.parse(req.query);
    const out = await c.ListSyncRuns({ context: callContext(req), connectionId, limit }, req);
    res.json({ runs: out.runs.map(presentSyncRun) });
  });

  r.post("/v3/connections/:connectionId/configure", async (req, res) => {
    const { resources } = configureBody.parse(body(req));
    const out = await c.ConfigureConnection(
      {
        context: callContext(req),
        connectionId: connectionIdParam.parse(req.params.connectionId),
        resources: resources.map((x) => toStruct(x as JsonObject)!),
      },
      req,
    );
    res.json({ success: out.success, message: out.message, webhooksRegistered: out.webhooksRegistered });
  });

  r.post("/v3/connections/:provider/connection", async (req, res) => {
    const provider = providerOf(req);
    const { containerTags } = providerTagsBody.parse(body(req));
    const out = await c.GetConnectionByTags({ context: callContext(req), provider, containerTags }, req);
    res.json(presentConnection(out.connection!));
  });

  r.post("/v3/connections/:provider/documents", async (req, res) => {
    const provider = providerOf(req);
    const { containerTags } = optionalProviderTagsBody.parse(body(req));
    const out = await c.ListConnectionDocuments({ context: callContext(req), provider, containerTags: containerTags ?? [] }, req);
    res.json(out.documents.map(presentConnectionDocument));
  });

  r.post("/v3/connections/:provider/import", async (req, res) => {
    const provider = providerOf(req);
    const { containerTags } = optionalProviderTagsBody.parse(body(req));
    const out = await c.ImportConnections({ context: callContext(req), provider, containerTags: containerTags ?? [] }, req);
    res
      .status(202)
      .type("text/plain")
      .send(out.message || "Importing connections...");
  });

  r.post("/v3/connections/:provider", async (req, res) => {
    const provider = providerOf(req);
    const p = createConnectionBody.parse(body(req));
    const out = await c.CreateConnection(
      {
        context: callContext(req),
        provider,
        redirectUrl: p.redirectUrl ?? "",
        // No container tag at all: the default one, as for documents added without one.
        namespace: p.containerTag ?? (p.containerTags?.length ? "" : opts.defaultNamespace),
        containerTags: p.containerTags ?? [],
        ...(p.documentLimit !== undefined ? { documentLimit: p.documentLimit } : {}),
        metadata: toStruct(p.metadata ?? undefined),
      },
      req,
    );
    res.json({ id: out.id, authLink: out.authLink, expiresIn: out.expiresIn, ...(out.redirectsTo ? { redirectsTo: out.redirectsTo } : {}) });
  });

  r.get("/v3/connections/:connectionId", async (req, res) => {
    const out = await c.GetConnection({ context: callContext(req), connectionId: connectionIdParam.parse(req.params.connectionId) }, req);
    res.json(presentConnection(out.connection!));
  });

  // One path, two operations: a provider name deletes that provider's connection of the given container tags.
  r.delete("/v3/connections/:idOrProvider", async (req, res) => {
    const x = String(req.params.idOrProvider);
    const q = deleteConnectionQuery.parse(req.query);
    const deleteDocuments = q.deleteDocuments !== "false";
    if (isProvider(x)) {
      const { containerTags } = providerTagsBody.parse(body(req));
      const out = await c.DeleteConnectionByProvider({ context: callContext(req), provider: protoEnum.provider.to(x), containerTags, deleteDocuments }, req);
      res.json({ id: out.id, provider: protoEnum.provider.from(out.provider) ?? x });
      return;
    }
    const out = await c.DeleteConnection({ context: callContext(req), connectionId: connectionIdParam.parse(x), deleteDocuments }, req);
    res.json({ id: out.id, provider: protoEnum.provider.from(out.provider) ?? "unknown" });
  });
  return r;
}

/** Headers as the service verifies them (signatures, channel tokens, Pub/Sub's bearer JWT): names lower-cased, repeated values joined. */
function headerMap(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

/**
 * What providers call without an API key: the OAuth callback (the browser is
 * redirected to the connection's redirectUrl with the outcome) and webhooks
 * (the raw body and headers go to the service, which verifies them and says
 * what to answer).
 */
export function publicConnectionRoutes(b: Backends): Router {
  const r = Router();
  const context = (req: Request) => ({ tenantId: "", requestId: req.requestId ?? "" });

  r.get("/v3/connections/auth/callback/:provider", async (req, res) => {
    const provider = providerOf(req);
    const q = oauthCallbackQuery.parse(req.query);
    const out = await b.connections.HandleOAuthCallback(
      { context: context(req), provider, code: q.code ?? "", state: q.state ?? "", error: q.error ?? "", errorDescription: q.error_description ?? "" },
      req,
    );
    if (out.redirectUrl) return res.redirect(302, out.redirectUrl);
    // No redirectUrl was given at creation: a plain page says how it went.
    if (out.success) return res.type("text/plain").send(`Connected (connection ${out.connectionId}). You can close this window.`);
    throw new HttpProblem(400, out.error || "the authorization could not be completed", "start again from the connection's authLink");
  });

  r.post("/v3/connections/webhooks/:provider", express.raw({ type: () => true, limit: WEBHOOK_MAX_BYTES }), async (req, res) => {
    const provider = providerOf(req);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.query)) if (typeof v === "string") query[k] = v;
    const out = await b.connections.HandleProviderWebhook({ context: context(req), provider, headers: headerMap(req), query, body: raw }, req);
    // Refusals carry the API's error body like every other 4xx; successes what the provider expects (echoed challenges).
    if (out.httpStatus >= 400) throw new HttpProblem(out.httpStatus, Buffer.from(out.responseBody ?? []).toString("utf8") || "the notification was refused");
    res.status(out.httpStatus || 200);
    if (out.responseBody && out.responseBody.length > 0) res.type(out.responseContentType || "text/plain").send(out.responseBody);
    else res.end();
  });
  return r;
}
