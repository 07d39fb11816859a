import type { Request, RequestHandler } from "express";
import { hasScope, type KeyRights, type Scope, tagsOutside } from "../auth/scopes";
import { HttpProblem } from "./errors";

/**
 * How a route relates to container tags, for keys limited to some tags:
 * - `named`: the request names its tags (path, query or body); naming none is refused (403),
 * - `confine`: like `named`, but naming none is confined to the key's tags (the body gets `containerTags`),
 * - `tenant`: the route spans the whole tenant and cannot be confined: refused (403),
 * - `own`: the route lists the tenant's container tags; a tag-limited key is answered only its own (`ownTags`),
 * - `response`: addressed by id; answered 404 when the item read is outside the key's tags,
 * - `none`: no container tag involved (key management checks rights itself; MCP tools call the REST API with the same key).
 */
export type TagRule = "named" | "confine" | "tenant" | "own" | "response" | "none";

export interface RouteRule {
  scope: Scope;
  tags: TagRule;
}

/**
 * The one route → scope table (docs/api-decisions.md, "Scoped keys"). Every
 * route behind the key check has an entry (a unit test walks the express
 * router); the first matching entry wins, so more specific paths come first,
 * in the routers' order. A request matching none is answered 404 for keys
 * without every right, so a route added without an entry is never open.
 */
export const ROUTE_SCOPES: Record<string, RouteRule> = {
  // search and profiles
  "POST /v4/search": { scope: "read", tags: "confine" },
  "POST /v3/search": { scope: "read", tags: "confine" },
  "POST /v4/profile": { scope: "read", tags: "named" },
  "POST /v4/profile/buckets": { scope: "read", tags: "named" },
  "POST /ns/:namespace/list/chunks": { scope: "read", tags: "named" },
  // memories
  "POST /v4/memories": { scope: "write", tags: "named" },
  "PATCH /v4/memories": { scope: "write", tags: "named" },
  "DELETE /v4/memories": { scope: "write", tags: "named" },
  "POST /v4/memories/forget-matching": { scope: "write", tags: "named" },
  "POST /v4/memories/list": { scope: "read", tags: "named" },
  "POST /ns/:namespace/list/memories": { scope: "read", tags: "named" },
  "DELETE /ns/:namespace/memories/semantic": { scope: "write", tags: "named" },
  "DELETE /ns/:namespace/memories": { scope: "write", tags: "named" },
  // documents (v5, then v3 and files)
  "POST /ns/:namespace/document/file": { scope: "write", tags: "named" },
  "POST /ns/:namespace/document": { scope: "write", tags: "named" },
  "POST /ns/:namespace/document/batch": { scope: "write", tags: "named" },
  "GET /ns/:namespace/document/:id": { scope: "read", tags: "named" },
  "POST /ns/:namespace/list/documents": { scope: "read", tags: "named" },
  "DELETE /ns/:namespace/document": { scope: "write", tags: "named" },
  // The multipart parts are read by the route, which checks them (checkNamedTags).
  "POST /v3/documents/file": { scope: "write", tags: "none" },
  "POST /v3/documents": { scope: "write", tags: "named" },
  "POST /v3/documents/batch": { scope: "write", tags: "named" },
  "POST /v3/documents/list": { scope: "read", tags: "confine" },
  "GET /v3/documents/processing": { scope: "read", tags: "tenant" },
  "DELETE /v3/documents/bulk": { scope: "write", tags: "named" },
  "GET /v3/documents/:id": { scope: "read", tags: "response" },
  "PATCH /v3/documents/:id": { scope: "write", tags: "tenant" },
  "DELETE /v3/documents/:id": { scope: "write", tags: "tenant" },
  "GET /v3/documents/:id/chunks": { scope: "read", tags: "tenant" },
  "GET /v3/documents/:id/file-url": { scope: "read", tags: "tenant" },
  // settings: reads are harmless (no secrets, no content); changes and the reset are the organisation's
  "GET /v3/settings": { scope: "read", tags: "none" },
  "PATCH /v3/settings": { scope: "admin", tags: "tenant" },
  "POST /v3/settings/suggest-buckets": { scope: "read", tags: "none" },
  "POST /v3/settings/reset": { scope: "admin", tags: "tenant" },
  // connections
  "POST /v3/connections/list": { scope: "admin", tags: "tenant" },
  "GET /v3/connections/:connectionId/resources": { scope: "admin", tags: "tenant" },
  "GET /v3/connections/:connectionId/runs": { scope: "admin", tags: "tenant" },
  "POST /v3/connections/:connectionId/configure": { scope: "admin", tags: "tenant" },
  "POST /v3/connections/:provider/connection": { scope: "admin", tags: "tenant" },
  "POST /v3/connections/:provider/documents": { scope: "admin", tags: "tenant" },
  "POST /v3/connections/:provider/import": { scope: "admin", tags: "tenant" },
  "POST /v3/connections/:provider": { scope: "admin", tags: "tenant" },
  "GET /v3/connections/:connectionId": { scope: "admin", tags: "tenant" },
  "DELETE /v3/connections/:idOrProvider": { scope: "admin", tags: "tenant" },
  // tenant export and import (docs/api-decisions.md section 23): the whole tenant, its settings and connections
  "GET /v3/export": { scope: "admin", tags: "tenant" },
  "POST /v3/import": { scope: "admin", tags: "tenant" },
  // conversations
  "POST /v4/conversations": { scope: "write", tags: "named" },
  // container tags
  "GET /v3/container-tags/list": { scope: "read", tags: "own" },
  "POST /v3/container-tags/merge": { scope: "write", tags: "named" },
  "GET /v3/container-tags/merge/:mergeId": { scope: "read", tags: "tenant" },
  "GET /v3/container-tags/:containerTag": { scope: "read", tags: "named" },
  "PATCH /v3/container-tags/:containerTag": { scope: "write", tags: "named" },
  "DELETE /v3/container-tags/:containerTag": { scope: "write", tags: "named" },
  // keys: the routes check that a key never creates or revokes a key with more rights than its own
  "GET /v3/keys": { scope: "admin", tags: "none" },
  "POST /v3/keys": { scope: "admin", tags: "none" },
  "DELETE /v3/keys/:id": { scope: "admin", tags: "none" },
  // MCP: the server lists only the tools the key's scopes allow; each tool calls this API with the same key
  "POST /mcp": { scope: "read", tags: "none" },
  "GET /mcp": { scope: "read", tags: "none" },
  "DELETE /mcp": { scope: "read", tags: "none" },
};

/** Matches an express path template made of literal and `:name` segments; the parameters as sent (not decoded). */
function matcher(template: string): (path: string) => Record<string, string> | undefined {
  const parts = template.split("/");
  return (path) => {
    const segs = path.split("/");
    if (segs.length !== parts.length) return undefined;
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      const s = segs[i]!;
      if (p.startsWith(":")) {
        if (s === "") return undefined;
        params[p.slice(1)] = s;
      } else if (p !== s) return undefined;
    }
    return params;
  };
}

const COMPILED = Object.entries(ROUTE_SCOPES).map(([key, rule]) => {
  const [method, path] = key.split(" ") as [string, string];
  return { key, method, test: matcher(path), rule };
});

/** The table entry a request matches (method and path), with the route's parameters. */
export function ruleFor(method: string, path: string): { key: string; rule: RouteRule; params: Record<string, string> } | undefined {
  for (const c of COMPILED) {
    if (c.method !== method) continue;
    const m = c.test(path);
    if (m) return { key: c.key, rule: c.rule, params: m };
  }
  return undefined;
}

const isFull = (r: KeyRights) => !r.containerTags && r.scopes.length === 3;

function rightsOfReq(req: Request): KeyRights {
  if (!req.principal) throw new Error("route reached without authentication");
  return req.principal.rights;
}

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

const strings = (v: unknown): string[] => (typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** Every container tag a request names: path, query and JSON body (batch items and a merge's target included). */
export function namedTags(params: Record<string, string>, query: unknown, body: unknown): string[] {
  const out: string[] = [];
  if (params.namespace !== undefined) out.push(safeDecode(params.namespace));
  if (params.containerTag !== undefined) out.push(safeDecode(params.containerTag));
  const fromObject = (o: unknown) => {
    if (!o || typeof o !== "object" || Array.isArray(o)) return;
    const b = o as Record<string, unknown>;
    out.push(...strings(b.containerTag), ...strings(b.containerTags), ...strings(b.targetContainerTag));
  };
  fromObject(query);
  fromObject(body);
  const items = body && typeof body === "object" ? (body as { documents?: unknown }).documents : undefined;
  if (Array.isArray(items)) items.forEach(fromObject);
  return out;
}

/** A batch whose envelope names no tag and one of whose items names none either (it would go to the default tag). */
function untaggedBatchItem(body: unknown): boolean {
  if (!body || typeof body !== "object" || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  if (!Array.isArray(b.documents) || strings(b.containerTag).length || strings(b.containerTags).length) return false;
  return b.documents.some(
    (d) =>
      !d ||
      typeof d !== "object" ||
      (!strings((d as Record<string, unknown>).containerTag).length && !strings((d as Record<string, unknown>).containerTags).length),
  );
}

/** The container tags a route of rule `own` may answer about: the key's own, or undefined (every tag of the tenant). */
export function ownTags(req: Request): ReadonlySet<string> | undefined {
  const tags = rightsOfReq(req).containerTags;
  return tags ? new Set(tags) : undefined;
}

const forbidden = (details: string) => new HttpProblem(403, "Forbidden", details);

/** 403 unless every tag is the key's; `none` named is refused too (the route would default to another tag). */
export function checkNamedTags(rights: KeyRights, tags: readonly string[]): void {
  if (!rights.containerTags) return;
  if (tags.length === 0) throw forbidden(`this key is limited to container tags (${rights.containerTags.join(", ")}): name one of them in the request`);
  const outside = tagsOutside(rights, tags);
  if (outside.length) throw forbidden(`this key is not allowed container tag${outside.length > 1 ? "s" : ""} ${[...new Set(outside)].join(", ")}`);
}

/**
 * The scope check, mounted right after the key check: a call outside the
 * key's scopes is 403 naming the missing scope; tenant-wide routes are
 * refused to tag-limited keys. Tags in a JSON body are checked by
 * `authorizeTags`, mounted after the body reader.
 */
export function authorizeScopes(): RequestHandler {
  return function authorizeScopes(req, _res, next) {
    const rights = rightsOfReq(req);
    const found = ruleFor(req.method === "HEAD" ? "GET" : req.method, req.path);
    if (!found) return next(isFull(rights) ? undefined : new HttpProblem(404, "Not found", `no route for ${req.method} ${req.path}`));
    const { rule } = found;
    if (!hasScope(rights, rule.scope)) return next(forbidden(`this key lacks the '${rule.scope}' scope needed for ${found.key}`));
    if (rights.containerTags && rule.tags === "tenant")
      return next(forbidden(`${found.key} spans every container tag of the organisation: a key limited to container tags cannot call it`));
    // Tags in the path and query are refused before any body is read (file uploads included).
    if (rights.containerTags && (rule.tags === "named" || rule.tags === "confine")) {
      const outside = tagsOutside(rights, namedTags(found.params, req.query, undefined));
      if (outside.length) return next(forbidden(`this key is not allowed container tag${outside.length > 1 ? "s" : ""} ${[...new Set(outside)].join(", ")}`));
    }
    next();
  };
}

/** Container-tag limits on the JSON body, path and query (after the body reader); see TagRule. */
export function authorizeTags(): RequestHandler {
  return function authorizeTags(req, res, next) {
    const rights = rightsOfReq(req);
    if (!rights.containerTags) return next();
    const found = ruleFor(req.method === "HEAD" ? "GET" : req.method, req.path);
    if (!found) return next();
    const { rule, params } = found;
    try {
      if (rule.tags === "named" || rule.tags === "confine") {
        const tags = namedTags(params, req.query, req.body);
        if (params.namespace === undefined && untaggedBatchItem(req.body)) checkNamedTags(rights, []);
        if (tags.length === 0 && rule.tags === "confine" && (req.body === undefined || (typeof req.body === "object" && !Array.isArray(req.body)))) {
          req.body = { ...(req.body as object | undefined), containerTags: [...rights.containerTags] };
        } else checkNamedTags(rights, tags);
      } else if (rule.tags === "response") {
        // Read by id: an item outside the key's tags is answered like an unknown one.
        const json = res.json.bind(res);
        res.json = (body: unknown) => {
          if (res.statusCode < 300 && body && typeof body === "object") {
            const b = body as { containerTags?: unknown; containerTag?: unknown };
            const tags = [...strings(b.containerTag), ...strings(b.containerTags)];
            if (tags.length === 0 || tagsOutside(rights, tags).length) {
              res.status(404);
              return json({ error: "Not found", details: `no document ${String(params.id ?? "")}` });
            }
          }
          return json(body);
        };
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}
