import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import { childTraceparent, type Logger, metrics, traceIdOf } from "@engram/observability";
import type { KeyService } from "../auth/keys.service";
import { HttpProblem } from "./errors";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request id: the caller's x-request-id when sane, otherwise a new one; echoed in the response. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.header("x-request-id");
  req.requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader("x-request-id", req.requestId);
  // Continue the caller's trace when it sent a valid traceparent, else start one.
  req.traceparent = childTraceparent(req.header("traceparent"));
  res.setHeader("traceparent", req.traceparent);
  next();
};

const httpDuration = metrics.histogram(
  "engram_http_request_duration_seconds",
  "Gateway HTTP request duration",
  ["method", "route", "status"],
  [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);

/** One structured log line and one histogram sample per request. */
export function accessLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const route = (req.route?.path as string | undefined) ? `${req.baseUrl}${req.route.path}` : "unmatched";
      httpDuration.labels(req.method, route, String(res.statusCode)).observe(seconds);
      const entry = {
        requestId: req.requestId,
        traceId: traceIdOf(req.traceparent),
        method: req.method,
        // File-link tokens are credentials: never logged.
        path: req.path.startsWith("/files/") ? "/files/[token]" : req.path,
        status: res.statusCode,
        ms: Math.round(seconds * 1000),
        tenant: req.principal?.tenantId,
      };
      if (res.statusCode >= 500) log.error(entry, "request");
      else if (req.path.startsWith("/healthz") || req.path.startsWith("/readyz") || req.path === "/metrics") log.debug(entry, "request");
      else log.info(entry, "request");
    });
    next();
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
