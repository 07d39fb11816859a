import { randomUUID } from "node:crypto";
import type { Request, RequestHandler } from "express";
import {
  childTraceparent,
  type Context,
  context,
  extractContext,
  type Logger,
  metrics,
  SpanKind,
  SpanStatusCode,
  startSpan,
  trace,
  traceIdOf,
  traceparentOfContext,
  type Span,
} from "@engram/observability";
import type { KeyService } from "../auth/keys.service";
import { HttpProblem } from "./errors";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Probes and scrapes: trace context for their log lines, but no spans. */
const untraced = (path: string) => path === "/healthz" || path === "/readyz" || path === "/metrics";

/** The route template a request matched (`/v3/documents/:id`), or "unmatched". */
function routeOf(req: Request): string {
  return (req.route?.path as string | undefined) ? `${req.baseUrl}${req.route.path}` : "unmatched";
}

/** File-link tokens are credentials: never logged nor put on spans. */
const loggedPath = (path: string) => (path.startsWith("/files/") ? "/files/[token]" : path);

const httpDuration = metrics.histogram(
  "engram_http_request_duration_seconds",
  "Gateway HTTP request duration",
  ["method", "route", "status"],
  [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);

/**
 * Every request's id, trace context, log line, metric and span, with one
 * listener per request.
 *
 * Request id: the caller's x-request-id when sane, otherwise a new one; echoed
 * in the response. Trace context: a server span per request continuing the
 * caller's `traceparent` (else a new trace); its traceparent is echoed in the
 * response and passed to the backends, and the rest of the request runs in it.
 * Probes and scrapes get trace context but no span. When the response is
 * done: one structured log line and one histogram sample (responses sent in
 * full), and the span's end (failed when the client went away first).
 */
export function observeRequests(log: Logger): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    const given = req.header("x-request-id");
    req.requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader("x-request-id", req.requestId);
    const probe = untraced(req.path);
    let span: Span | undefined;
    let ctx: Context | undefined;
    if (probe) req.traceparent = childTraceparent(req.header("traceparent"));
    else {
      const parent = extractContext(req.headers);
      span = startSpan(
        req.method,
        {
          kind: SpanKind.SERVER,
          attributes: { "http.request.method": req.method, "url.path": loggedPath(req.path), "url.scheme": req.protocol, "engram.request_id": req.requestId },
        },
        parent,
      );
      ctx = trace.setSpan(parent, span);
      req.traceparent = traceparentOfContext(ctx) ?? childTraceparent(req.header("traceparent"));
    }
    res.setHeader("traceparent", req.traceparent);
    res.once("close", () => {
      const route = routeOf(req);
      const finished = res.writableFinished;
      if (finished) {
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        httpDuration.labels(req.method, route, String(res.statusCode)).observe(seconds);
        const entry = {
          requestId: req.requestId,
          traceId: traceIdOf(req.traceparent),
          method: req.method,
          path: loggedPath(req.path),
          status: res.statusCode,
          ms: Math.round(seconds * 1000),
          tenant: req.principal?.tenantId,
        };
        // Probes at debug even when failing (a not-ready state is logged once where it changes: a full disk by the
        // storage monitor), a 507 (a disk that is full, logged once with its cause) as a warning.
        if (probe) log.debug(entry, "request");
        else if (res.statusCode === 507) log.warn(entry, "request");
        else if (res.statusCode >= 500) log.error(entry, "request");
        else log.info(entry, "request");
      }
      if (!span) return;
      span.updateName(route === "unmatched" ? req.method : `${req.method} ${route}`);
      if (route !== "unmatched") span.setAttribute("http.route", route);
      if (req.principal?.tenantId) span.setAttribute("engram.tenant", req.principal.tenantId);
      if (finished) {
        span.setAttribute("http.response.status_code", res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      } else {
        // The client went away before the response was complete.
        span.setStatus({ code: SpanStatusCode.ERROR, message: "connection closed before the response was sent" });
      }
      span.end();
    });
    if (ctx) context.with(ctx, next);
    else next();
  };
}

/** Authorization: Bearer <key> on every route this is mounted on. */
export function authenticate(keys: KeyService): RequestHandler {
  return async (req, _res, next) => {
    const header = req.header("authorization");
    const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!m)
      return next(
        new HttpProblem(
          401,
          "Unauthorized",
          header ? "the Authorization header must be 'Bearer <API key>'" : "missing Authorization header: send 'Authorization: Bearer <API key>'",
        ),
      );
    try {
      req.principal = await keys.authenticate(m[1]!);
      next();
    } catch (err) {
      next(err);
    }
  };
}
