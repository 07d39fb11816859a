import type { ErrorRequestHandler, RequestHandler } from "express";
import { ZodError } from "zod";
import { domainToHttp, grpcToHttp, isServiceError } from "@engram/grpc";
import { isDomainError, newId } from "@engram/kernel";
import type { Logger } from "@engram/observability";

/** An HTTP-level failure the gateway itself detects (route, body, size). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details?: string,
  ) {
    super(error);
  }
}

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
  return { status: 500, body: { error: "Internal server error" }, internal: true };
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const mapped = toHttpError(err);
    const requestId = res.getHeader("x-request-id");
    if (mapped.internal) {
      // Only the server's own failures carry a stack in the logs; the caller gets an id to quote.
      const errorId = newId("event");
      if (mapped.status === 500) mapped.body = { error: "Internal server error", details: `error id ${errorId}` };
      log.error({ err, errorId, requestId, method: req.method, path: req.path, status: mapped.status }, "request failed");
    }
    if (res.headersSent) return res.end();
    res.status(mapped.status).json(mapped.body);
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new HttpProblem(404, "Not found", `no route for ${req.method} ${req.path}`));
};
