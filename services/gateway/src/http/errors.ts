import type http from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorRequestHandler, RequestHandler } from "express";
import { ZodError } from "zod";
import { domainToHttp, GENERIC_HTTP_ERRORS, grpcToHttp, isServiceError, RETRY_AFTER_SECONDS, STORAGE_RETRY_AFTER_SECONDS } from "@engram/grpc";
import { InsufficientStorageError, isDomainError, isOutage, newId, storageFaultOf } from "@engram/kernel";
import type { Logger } from "@engram/observability";

/** An HTTP-level failure the gateway itself detects (route, body, size). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details?: string,
    /** Response headers that go with it (Retry-After on a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(error);
  }
}

/**
 * The 504 of a write: the backend may still store it. A retry is safe only
 * with the same Idempotency-Key (docs/api-decisions.md section 16).
 */
export const WRITE_TIMEOUT_DETAILS =
  "a backend service did not answer in time; the write may have been stored. Retry with the same Idempotency-Key header to get its outcome without storing it twice (a retry without one may store it twice)";

const isWrite = (method: string) => method !== "GET" && method !== "HEAD" && method !== "OPTIONS";

export interface ErrorBody {
  error: string;
  details?: string;
}

function zodDetails(err: ZodError): string {
  return err.issues
    .slice(0, 20)
    .map((i) => {
      const where = i.path.length ? i.path.join(".") : "body";
      if (i.code === "unrecognized_keys") return `${where}: unknown field${i.keys.length > 1 ? "s" : ""} ${i.keys.map((k) => `'${k}'`).join(", ")}`;
      return `${where}: ${i.message}`;
    })
    .join("; ");
}

/** The one mapping from anything thrown while handling a request to status + API error body. */
export function toHttpError(err: unknown): { status: number; body: ErrorBody; internal: boolean } {
  if (err instanceof HttpProblem) return { status: err.status, body: { error: err.error, ...(err.details ? { details: err.details } : {}) }, internal: false };
  if (err instanceof ZodError) return { status: 400, body: { error: "Invalid request", details: zodDetails(err) }, internal: false };
  const e = err as { type?: string; status?: number; code?: string; message?: string; limit?: number };
  // body-parser (express.json) errors
  if (e?.type === "entity.parse.failed")
    return { status: 400, body: { error: "Malformed JSON", details: "the request body is not valid JSON" }, internal: false };
  if (e?.type === "entity.too.large") return { status: 413, body: { error: "Request body too large", details: `at most ${e.limit} bytes` }, internal: false };
  if (e?.type === "encoding.unsupported" || e?.type === "charset.unsupported")
    return { status: 415, body: { error: "Unsupported content encoding", details: e.message }, internal: false };
  if (e?.type === "request.aborted") return { status: 400, body: { error: "Request aborted" }, internal: false };
  if (e?.type === "entity.too.deep")
    return {
      status: 400,
      body: { error: "JSON nested too deeply", details: `objects and arrays may be nested at most ${e.limit} levels deep` },
      internal: false,
    };
  // The router could not percent-decode a path parameter (`/v3/documents/%zz`): the client's error.
  if (err instanceof URIError && e.status === 400)
    return {
      status: 400,
      body: {
        error: "Invalid request path",
        details: "a path segment is not valid percent-encoding: each '%' must be followed by two hex digits, and the bytes must be UTF-8",
      },
      internal: false,
    };
  // Any other client error body-parser reports (a body that does not decode as its content-encoding says, …).
  if ((e as { expose?: boolean })?.expose === true && typeof e.status === "number" && e.status >= 400 && e.status < 500)
    return {
      status: e.status,
      body: { error: "Invalid request body", details: "the body could not be read as its Content-Type and Content-Encoding declare" },
      internal: false,
    };
  if (isDomainError(err)) {
    const h = domainToHttp(err);
    return { status: h.status, body: { error: h.error, ...(h.details ? { details: h.details } : {}) }, internal: h.internal };
  }
  if (isServiceError(err)) {
    const h = grpcToHttp(err);
    return { status: h.status, body: { error: h.error, ...(h.details ? { details: h.details } : {}) }, internal: h.internal };
  }
  // The gateway's own store (API keys) on a full or read-only disk: 507, like a backend's.
  const fault = storageFaultOf(err);
  if (fault) return toHttpError(new InsufficientStorageError(undefined, fault, { cause: err }));
  // The gateway's own store (API keys) unreachable or busy: retryable, like a backend's outage.
  if (isOutage(err)) return { status: 503, body: { ...GENERIC_HTTP_ERRORS[503] }, internal: true };
  return { status: 500, body: { error: "Internal server error" }, internal: true };
}

/** What the logs keep of an error whose body is generic: a gRPC status in full, else the message. */
function cause(err: unknown): Record<string, unknown> {
  if (isServiceError(err)) return { grpcCode: err.code, grpcDetails: err.details };
  return { message: err instanceof Error ? err.message : String(err) };
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const mapped = toHttpError(err);
    if (mapped.status === 504 && isWrite(req.method)) mapped.body = { error: mapped.body.error, details: WRITE_TIMEOUT_DETAILS };
    const requestId = res.getHeader("x-request-id");
    if (mapped.internal) {
      // The body says only what kind of failure it was; the caller gets an id to quote, the log the cause.
      const errorId = newId("event");
      // File-link tokens are credentials: never logged.
      const where = { errorId, requestId, method: req.method, path: req.path.startsWith("/files/") ? "/files/[token]" : req.path, status: mapped.status };
      if (mapped.status === 500) {
        mapped.body = { error: "Internal server error", details: `error id ${errorId}` };
        // Only the server's own failures carry a stack in the logs.
        log.error({ err, ...where }, "request failed");
      } else {
        mapped.body = { error: mapped.body.error, details: `${mapped.body.details ? `${mapped.body.details} ` : ""}(error id ${errorId})` };
        log.warn({ ...cause(err), ...where }, "request failed");
      }
    }
    // A write answered 504 by its idempotency guard still reports its outcome (recorded, not sent): see guards.ts.
    if (res.headersSent) return res.locals.answeredEarly ? res.status(mapped.status).json(mapped.body) : res.end();
    // A 503 is temporary (a backend or an engine unavailable): the client is told when to try again.
    if (mapped.status === 503 && mapped.internal) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    // A 507 lasts until space is freed (or the volume is writable again): the client is told to come back later, not at once.
    if (mapped.status === 507) res.setHeader("Retry-After", String(STORAGE_RETRY_AFTER_SECONDS));
    if (mapped.status === 401) res.setHeader("WWW-Authenticate", wwwAuthenticate(err, req.header("authorization") !== undefined));
    if (err instanceof HttpProblem && err.headers) for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
    res.status(mapped.status).json(mapped.body);
  };
}

/**
 * RFC 6750's challenge on every 401: bare when no credentials were sent,
 * `invalid_token` for an unknown or revoked key, `invalid_request` for an
 * Authorization header that is not `Bearer <key>`.
 */
export function wwwAuthenticate(err: unknown, sentAuthorization: boolean): string {
  if (isDomainError(err)) return 'Bearer realm="engram", error="invalid_token", error_description="the API key is unknown or was revoked"';
  if (sentAuthorization) return 'Bearer realm="engram", error="invalid_request"';
  return 'Bearer realm="engram"';
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new HttpProblem(404, "Not found", `no route for ${req.method} ${req.path}`));
};

/**
 * Requests node's HTTP parser refuses before express sees them get the API
 * error body and the security headers too, instead of node's bare status
 * line: a request line and headers over node's limit (16 KiB) 431, a request
 * not received within the server's request timeout 408, anything else that
 * is not valid HTTP 400. The connection is closed afterwards, as node does.
 * A HEAD request (when the refused bytes show it) gets the headers only.
 */
export function answerClientErrors(server: http.Server, securityHeaders: [string, string][]): void {
  const head = securityHeaders.map(([k, v]) => `${k}: ${v}\r\n`).join("");
  server.on("clientError", (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable) return socket.destroy();
    const [status, reason, body]: [number, string, ErrorBody] =
      err.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", { error: "Request headers too large", details: "the request line and headers are limited to 16 KiB" }]
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "Request Timeout", { error: "Request timeout", details: "the request was not received in time" }]
          : [400, "Bad Request", { error: "Bad request", details: "the request is not valid HTTP/1.1" }];
    const text = JSON.stringify(body);
    const isHead = err.rawPacket?.subarray(0, 5).toString("latin1") === "HEAD ";
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n${head}content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${isHead ? "" : text}`,
    );
  });
}
