import fs from "node:fs";
import { createHash } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "@engram/observability";
import type { TenantLimits } from "../config";
import { fingerprint, IDEMPOTENCY_KEY, type IdempotencyStore, type MultipartPart, type StoredAnswer } from "../guards/idempotency";
import { isCreatingPost, quotaRouteOf } from "../guards/creating-posts";
import { type CachedUsage, type QuotaKind, withinQuota } from "../guards/quota";
import { bucketRule, type RateStore, retryAfterSeconds, windowOf } from "../guards/rate";
import { HttpProblem, toHttpError, WRITE_TIMEOUT_DETAILS } from "./errors";

/** What the guards enforce (from the gateway's configuration; docs/configuration.md). */
export interface GuardLimits {
  enabled: boolean;
  authFailuresPerMinute: number;
  keyRequestsPerSecond: number;
  keyBurst: number;
  tenantMaxDocuments: number;
  tenantMaxMemories: number;
  tenants: Record<string, TenantLimits>;
}

export interface GuardOptions {
  idempotency: IdempotencyStore;
  rates: RateStore;
  usage: CachedUsage;
  limits: GuardLimits;
  logger: Logger;
  /** The gateway's answer deadline for a request (GATEWAY_RPC_DEADLINE_MS). */
  answerWithinMs: number;
  /** How long a keyed write may keep running after its 504 (GATEWAY_IDEMPOTENT_COMPLETION_MS). */
  completionMs: number;
  /** How long a keyed write's answer is replayed. */
  retentionMs: number;
  now?: () => number;
}

/** Which quota a creating POST counts against, and how many items it adds. */
function quotaOf(req: Request): { kind: QuotaKind; adding: number } | undefined {
  const q = quotaRouteOf(req.method, req.path);
  if (!q) return undefined;
  return { kind: q.kind, adding: q.perItemOf ? Math.max(1, arrayLength((req.body as Record<string, unknown> | undefined)?.[q.perItemOf])) : 1 };
}

const arrayLength = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** Answers worth replaying: successes and the client's own mistakes. Anything the client may retry (402, 408, 409, 429, 5xx) frees the key instead. */
const recordable = (status: number) => (status >= 200 && status < 300) || (status >= 400 && status < 500 && ![402, 408, 409, 429].includes(status));

/** What a replay must not show again: a created API key's secret is shown once only. */
function storedBody(req: Request, body: unknown): string {
  if (req.path === "/v3/keys" && body && typeof body === "object" && "key" in body) {
    const { key: _secret, ...rest } = body as Record<string, unknown>;
    return JSON.stringify(rest);
  }
  return JSON.stringify(body) ?? "";
}

const tooMany = (error: string, details: string, retryAfterMs: number) =>
  new HttpProblem(429, error, details, { "Retry-After": String(retryAfterSeconds(retryAfterMs)) });

/**
 * The gateway's guards, in request order: the failed-authentication limit
 * around the key check, the per-key token bucket after it, then on creating
 * POSTs idempotency (first) and quotas.
 */
export function createGuards(o: GuardOptions) {
  const now = o.now ?? Date.now;
  const log = o.logger;
  const L = o.limits;

  /** Limiter state unreachable: the request goes through (availability first), logged. */
  const failOpen = (what: string) => (err: unknown) => {
    log.warn({ err: err instanceof Error ? err.message : String(err) }, `${what}: limiter store unavailable, not limiting`);
    return undefined;
  };

  /**
   * `authenticate` with failed attempts counted per client address: past the
   * limit every request from that address answers 429 until the minute ends,
   * before its key is even looked at (so the limit reveals nothing about keys).
   * Then each key's token bucket.
   */
  function authenticateGuarded(authenticate: RequestHandler): RequestHandler {
    return async (req, res, next) => {
      const perMinute = L.enabled ? L.authFailuresPerMinute : 0;
      const address = req.ip ?? req.socket.remoteAddress ?? "unknown";
      const w = windowOf(now(), 60_000);
      if (perMinute > 0) {
        const failures = await o.rates.count(`auth:${address}`, w.start).catch(failOpen("failed authentications"));
        if (failures !== undefined && failures >= perMinute)
          return next(
            tooMany(
              "Too many failed authentications",
              `more than ${perMinute} requests with a missing or invalid API key from this address this minute`,
              w.endsInMs,
            ),
          );
      }
      await authenticate(req, res, async (err?: unknown) => {
        if (err) {
          if (perMinute > 0 && toHttpError(err).status === 401)
            await o.rates.increment(`auth:${address}`, w.start, 60_000).catch(failOpen("failed authentications"));
          return next(err);
        }
        const p = req.principal;
        const t = p ? L.tenants[p.tenantId] : undefined;
        const rps = L.enabled ? (t?.requestsPerSecond ?? L.keyRequestsPerSecond) : 0;
        if (p && rps > 0) {
          const d = await o.rates.take(`key:${p.keyId}`, now(), bucketRule(rps, t?.burst ?? L.keyBurst)).catch(failOpen("requests per key"));
          if (d && !d.allowed) return next(tooMany("Too many requests", `this API key may send ${rps} requests a second on average`, d.retryAfterMs));
        }
        next();
      });
    };
  }

  /** Quota of a creating POST (402 "Quota exceeded", the API's status for it); counted from the services. */
  const quota: RequestHandler = async (req, _res, next) => {
    const q = L.enabled && req.principal ? quotaOf(req) : undefined;
    if (!q) return next();
    const tenantId = req.principal!.tenantId;
    const t = L.tenants[tenantId];
    const limit = q.kind === "documents" ? (t?.documents ?? L.tenantMaxDocuments) : (t?.memories ?? L.tenantMaxMemories);
    if (limit <= 0) return next();
    try {
      // Under the request's deadline: a keyed write's count is part of the write (see idempotency below).
      const used = await o.usage.used(q.kind, tenantId, now(), { deadlineMs: req.deadlineMs, requestId: req.requestId });
      if (!withinQuota(used, q.adding, limit))
        return next(
          new HttpProblem(
            402,
            "Quota exceeded",
            `this tenant holds ${used} of at most ${limit} ${q.kind}${q.adding > 1 ? ` and the request adds ${q.adding}` : ""}: delete some, or ask the operator to raise the quota`,
          ),
        );
      o.usage.admit(q.kind, tenantId, q.adding);
      next();
    } catch (err) {
      next(err);
    }
  };

  /**
   * Idempotency-Key on a creating POST. A first request claims the key in the
   * store, runs with the longer completion deadline and records its answer
   * whenever it completes; if that takes longer than the gateway's deadline,
   * the client gets a 504 saying so meanwhile. A repeat gets the recorded
   * answer, 409 while the first still runs, 422 when its body differs.
   */
  function idempotency(answerWithinMs: number): RequestHandler {
    return async (req, res, next) => {
      const key = req.header("idempotency-key");
      if (key === undefined || !req.principal || !isCreatingPost(req.method, req.path)) return next();
      if (!IDEMPOTENCY_KEY.test(key))
        return next(new HttpProblem(400, "Invalid Idempotency-Key", "the Idempotency-Key header must be 1 to 255 printable ASCII characters (a UUID, say)"));
      const tenantId = req.principal.tenantId;
      let fp: string;
      let begun;
      try {
        fp = fingerprint({ tenantId, method: req.method, path: req.path, query: req.query as Record<string, unknown>, body: await bodyOf(req) });
        begun = await o.idempotency.begin(tenantId, key, fp, new Date(now()), {
          leaseMs: o.completionMs + answerWithinMs + 30_000,
          retentionMs: o.retentionMs,
        });
      } catch (err) {
        return next(err);
      }
      if (begun.kind === "replay") return replay(res, begun.answer);
      if (begun.kind === "mismatch")
        return next(
          new HttpProblem(
            422,
            "Idempotency-Key reused",
            "this Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request",
          ),
        );
      if (begun.kind === "in_flight")
        return next(
          new HttpProblem(
            409,
            "Request in progress",
            "a request with this Idempotency-Key is still running; retry with the same key after Retry-After seconds",
            { "Retry-After": String(retryAfterSeconds(begun.retryAfterMs)) },
          ),
        );

      // started: this request holds the key until it records an answer or releases it.
      const fpHeld = fp;
      let settled = false;
      const settle = (status: number, body: string | undefined) => {
        if (settled) return;
        settled = true;
        const done =
          body !== undefined && recordable(status)
            ? o.idempotency.complete(tenantId, key, fpHeld, { status, body }, new Date(now()), o.retentionMs)
            : o.idempotency.release(tenantId, key, fpHeld);
        done.catch((err: unknown) => log.warn({ err, requestId: req.requestId }, "could not record the outcome of an idempotent request"));
      };
      const send = res.json.bind(res);
      const setStatus = res.status.bind(res);
      // The status the handler chose (after an early 504 the response's own is that 504's).
      let chosen: number | undefined;
      res.status = (code: number) => {
        chosen = code;
        return res.locals.answeredEarly ? res : setStatus(code);
      };
      res.json = (body: unknown) => {
        settle(chosen ?? (res.locals.answeredEarly ? 200 : res.statusCode), storedBody(req, body));
        // Already answered 504: the outcome is only recorded.
        return res.locals.answeredEarly ? res : send(body);
      };
      req.deadlineMs = Math.max(o.completionMs, answerWithinMs);
      const timer =
        o.completionMs > answerWithinMs
          ? setTimeout(() => {
              if (res.headersSent || settled) return;
              res.locals.answeredEarly = true;
              setStatus(504);
              send({ error: "Gateway timeout", details: WRITE_TIMEOUT_DETAILS });
            }, answerWithinMs)
          : undefined;
      timer?.unref();
      res.once("close", () => {
        clearTimeout(timer);
        // Answered without a JSON body: nothing to replay. A client that left before any answer does not
        // free the key: the request goes on, and its answer is recorded for the client's retry.
        if (!res.locals.answeredEarly && res.writableFinished) settle(res.statusCode, undefined);
      });
      next();
    };
  }

  return { authenticateGuarded, quota, idempotency };
}

function replay(res: Response, a: StoredAnswer): void {
  res.status(a.status);
  res.setHeader("Idempotent-Replayed", "true");
  res.setHeader("content-type", "application/json; charset=utf-8");
  res.setHeader("content-length", Buffer.byteLength(a.body));
  res.end(res.req.method === "HEAD" ? undefined : a.body);
}

/** The body as the fingerprint sees it: JSON, or a multipart upload's fields and file bytes. */
async function bodyOf(req: Request): Promise<{ json: unknown } | { multipart: MultipartPart[] }> {
  if (!req.file) return { json: req.body ?? null };
  const parts: MultipartPart[] = Object.entries((req.body ?? {}) as Record<string, unknown>).map(([field, value]) => ({
    field,
    value: typeof value === "string" ? value : JSON.stringify(value),
  }));
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(req.file.path)) hash.update(chunk as Buffer);
  parts.push({ field: req.file.fieldname, fileSha256: hash.digest("hex"), filename: req.file.originalname, mimetype: req.file.mimetype });
  return { multipart: parts };
}
