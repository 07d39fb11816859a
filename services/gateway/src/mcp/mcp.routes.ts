import type { Request, RequestHandler, Response } from "express";
import { Router } from "express";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import Supermemory from "supermemory";
import { HttpProblem } from "../http/errors";
import { scope } from "../routes/schemas";
import { createEngramMcpServer } from "./engram-tools";

/** The header that fixes a session's container tag (the query parameter `containerTag` does the same). */
export const CONTAINER_TAG_HEADER = "x-engram-container-tag";

/**
 * The base URL of this gateway as seen from inside it: the local address and
 * port of the connection the request came in on. That is the gateway's own
 * listening socket (on loopback when the caller is local), so the tools'
 * REST calls never leave the host and never go through a proxy or
 * ENGRAM_PUBLIC_URL, whatever HOST and PORT the gateway was given (PORT=0
 * included).
 */
export function selfBaseUrl(socket: { localAddress?: string | undefined; localPort?: number | undefined }): string {
  let host = socket.localAddress ?? "127.0.0.1";
  if (host.startsWith("::ffff:") && host.includes(".")) host = host.slice("::ffff:".length);
  if (host.includes(":")) host = `[${host.replace("%", "%25")}]`;
  return `http://${host}:${socket.localPort}`;
}

/** The session's fixed container tag, from the header or the query parameter (validated like every container tag). */
export function sessionContainerTag(req: Request): string | undefined {
  const header = req.header(CONTAINER_TAG_HEADER);
  const query = req.query.containerTag;
  if (query !== undefined && typeof query !== "string")
    throw new HttpProblem(400, "Invalid request", "containerTag: give the query parameter once, as a string");
  if (header !== undefined && query !== undefined && header !== query)
    throw new HttpProblem(400, "Invalid request", `${CONTAINER_TAG_HEADER} and ?containerTag= name different container tags: give one`);
  const tag = header ?? query;
  if (tag === undefined) return undefined;
  const checked = scope(CONTAINER_TAG_HEADER).safeParse(tag);
  if (!checked.success) throw new HttpProblem(400, "Invalid request", checked.error.issues[0]!.message);
  return tag;
}

const ERROR_TITLES: Record<number, string> = {
  405: "Method not allowed",
  406: "Not acceptable",
  413: "Request body too large",
  415: "Unsupported media type",
};

/** The transport's own refusal (a JSON-RPC error body) as the API's error body. */
async function transportProblem(response: globalThis.Response): Promise<HttpProblem> {
  const text = await response.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    /* not JSON: the text as it is */
  }
  return new HttpProblem(response.status, ERROR_TITLES[response.status] ?? "Invalid MCP request", message || undefined);
}

/** Headers the transport reads (content negotiation and the MCP headers), never the key. */
const FORWARDED = ["accept", "content-type", "mcp-protocol-version", "mcp-session-id", "last-event-id"];

/**
 * One POST: a fresh MCP server and transport for this request only (stateless,
 * JSON answers), its tools calling this gateway's REST API with the caller's
 * own key. Closed when the answer is sent or the caller goes away (which
 * aborts the tools' REST calls).
 */
async function handlePost(req: Request, res: Response): Promise<void> {
  const key = /^Bearer\s+(\S+)\s*$/i.exec(req.header("authorization") ?? "")?.[1];
  if (!key) throw new HttpProblem(401, "Unauthorized", "missing Authorization header: send 'Authorization: Bearer <API key>'");
  const containerTag = sessionContainerTag(req);
  const client = new Supermemory({
    apiKey: key,
    baseURL: selfBaseUrl(req.socket),
    // The MCP client retries if it wants to; the gateway does not multiply calls to itself.
    maxRetries: 0,
    // The tools' REST calls join the trace of this request.
    ...(req.traceparent ? { defaultHeaders: { traceparent: req.traceparent } } : {}),
  });
  // Only the tools the key's scopes allow (scoped keys); each tool's REST call is checked again with the same key.
  const server = createEngramMcpServer({
    client,
    ...(containerTag !== undefined ? { containerTag } : {}),
    ...(req.principal ? { rights: req.principal.rights } : {}),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // The caller going away ends the wait (closing the server aborts the tools' REST calls).
  const gone = new Promise<undefined>((resolve) => res.once("close", () => resolve(undefined)));
  try {
    await server.connect(transport);
    const headers = new Headers();
    for (const name of FORWARDED) {
      const v = req.header(name);
      if (v !== undefined) headers.set(name, v);
    }
    const webRequest = new globalThis.Request(`http://engram.local${req.originalUrl}`, { method: "POST", headers });
    const answer = await Promise.race([transport.handleRequest(webRequest, req.body === undefined ? {} : { parsedBody: req.body }), gone]);
    if (!answer) return;
    if (answer.status >= 400) throw await transportProblem(answer);
    res.status(answer.status);
    const type = answer.headers.get("content-type");
    if (type) res.setHeader("content-type", type);
    const body = answer.body ? await answer.text() : "";
    if (body) res.setHeader("content-length", Buffer.byteLength(body));
    res.end(body);
  } finally {
    await server.close().catch(() => undefined);
  }
}

const notAllowed: RequestHandler = (_req, res, next) => {
  res.setHeader("allow", "POST");
  next(new HttpProblem(405, "Method not allowed", "the MCP endpoint is stateless: POST each JSON-RPC message (no SSE stream to open, no session to end)"));
};

/**
 * The MCP server over Streamable HTTP at /mcp, mounted behind the API key
 * check (a missing or wrong key is the API's 401 before any MCP work) and the
 * JSON body reader. Stateless: every POST is served by its own server and
 * transport (no session ids, no server-sent event stream), so any gateway
 * replica can serve any request.
 */
export function mcpRoutes(): Router {
  const r = Router();
  r.post("/mcp", handlePost);
  r.get("/mcp", notAllowed);
  r.delete("/mcp", notAllowed);
  return r;
}
