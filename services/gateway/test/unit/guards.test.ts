import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express, { type RequestHandler } from "express";
import { rootLogger } from "@engram/observability";
import { SqliteIdempotencyStore } from "../../src/guards/idempotency.sqlite";
import { CachedUsage } from "../../src/guards/quota";
import { SqliteRateStore } from "../../src/guards/rate.sqlite";
import { errorHandler, HttpProblem, WRITE_TIMEOUT_DETAILS } from "../../src/http/errors";
import { createGuards, type GuardLimits } from "../../src/http/guards";
import { jsonBody, sendJson } from "../../src/http/json";
import { FULL_RIGHTS } from "../../src/auth/scopes";

/**
 * The guards around stub routes: a write that takes `delay` ms, a key check that knows "good" and "other".
 * The quota's counts take `countMs`, and fail like a gRPC call past its deadline (504) when that is
 * shorter: the deadline the guard passes, else the gateway's default (the answer deadline, 150 ms here).
 */
async function start(limits: Partial<GuardLimits> = {}, used = 0, countMs = 0) {
  let stored = 0;
  /** Writes whose handler has started (past the guards). */
  let entered = 0;
  const count = async (deadlineMs = 150) => {
    await new Promise((r) => setTimeout(r, Math.min(countMs, deadlineMs)));
    if (countMs > deadlineMs) throw new HttpProblem(504, "Gateway timeout", "deadline exceeded");
    return used + stored;
  };
  const idempotency = new SqliteIdempotencyStore(":memory:");
  const rates = new SqliteRateStore(":memory:");
  const guards = createGuards({
    idempotency,
    rates,
    usage: new CachedUsage({ documents: (_t, o) => count(o?.deadlineMs), memories: (_t, o) => count(o?.deadlineMs) }, 0),
    logger: rootLogger({ level: "silent" }),
    answerWithinMs: 150,
    completionMs: 5000,
    retentionMs: 3600_000,
    limits: {
      enabled: true,
      authFailuresPerMinute: 20,
      keyRequestsPerSecond: 0,
      keyBurst: 1,
      tenantMaxDocuments: 0,
      tenantMaxMemories: 0,
      tenants: {},
      ...limits,
    },
  });
  const authenticate: RequestHandler = (req, _res, next) => {
    const key = req.header("authorization")?.replace(/^Bearer /, "");
    if (key === "good" || key === "other") {
      req.principal = { tenantId: key === "good" ? "acme" : "beta", keyId: key, rights: FULL_RIGHTS };
      return next();
    }
    next(new HttpProblem(401, "Unauthorized"));
  };
  const app = express();
  app.response.json = sendJson;
  app.use(guards.authenticateGuarded(authenticate));
  app.use(jsonBody(1 << 20));
  app.use(guards.idempotency(150), guards.quota);
  app.post("/v3/documents", async (req, res) => {
    entered++;
    const delay = Number((req.body as { delay?: number }).delay ?? 0);
    await new Promise((r) => setTimeout(r, delay));
    if ((req.body as { fail?: boolean }).fail) throw new HttpProblem(400, "Invalid request", "asked to fail");
    stored++;
    res.json({ id: `doc${stored}`, deadlineMs: req.deadlineMs });
  });
  app.get("/v3/documents", (_req, res) => res.json({ ok: true }));
  app.use(errorHandler(rootLogger({ level: "silent" })));
  const server: Server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/v3/documents`, {
      method: "POST",
      headers: { authorization: "Bearer good", "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  return {
    base,
    post,
    stored: () => stored,
    entered: () => entered,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await idempotency.close();
      await rates.close();
    },
  };
}

describe("guards", () => {
  it("a slow keyed write answers 504 saying it may be stored; its outcome is then replayed to the retry, stored once", async () => {
    const g = await start();
    const key = { "idempotency-key": "k-slow" };
    const first = await g.post({ content: "x", delay: 400 }, key);
    expect(first.status).toBe(504);
    expect(((await first.json()) as { details: string }).details).toBe(WRITE_TIMEOUT_DETAILS);
    const during = await g.post({ content: "x", delay: 400 }, key);
    expect(during.status).toBe(409);
    expect(Number(during.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 500));
    const retry = await g.post({ delay: 400, content: "x" }, key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await retry.json()).toEqual({ id: "doc1", deadlineMs: 5000 });
    expect(g.stored()).toBe(1);
    await g.close();
  });

  it("a keyed write whose quota count is slower than the answer deadline: 504, then its outcome is replayed to the retry, stored once", async () => {
    // The count is part of the write: it runs under the write's completion deadline, not the gateway's answer deadline
    // (else it failed with 504, freed the key, and the retry was stored afresh instead of replayed).
    const g = await start({ tenantMaxDocuments: 100 }, 0, 400);
    const key = { "idempotency-key": "k-slow-count" };
    const first = await g.post({ content: "x" }, key);
    expect(first.status).toBe(504);
    expect(((await first.json()) as { details: string }).details).toBe(WRITE_TIMEOUT_DETAILS);
    await new Promise((r) => setTimeout(r, 500));
    const retry = await g.post({ content: "x" }, key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await retry.json()).toEqual({ id: "doc1", deadlineMs: 5000 });
    expect(g.stored()).toBe(1);
    // Without a key the count keeps the gateway's deadline: a slow count answers 504 and nothing is stored.
    expect((await g.post({ content: "y" })).status).toBe(504);
    expect(g.stored()).toBe(1);
    await g.close();
  });

  it("a client that leaves before the answer does not free the key: its retry gets the outcome, stored once", async () => {
    const g = await start();
    const key = { "idempotency-key": "k-left" };
    const ac = new AbortController();
    const left = fetch(`${g.base}/v3/documents`, {
      method: "POST",
      headers: { authorization: "Bearer good", "content-type": "application/json", ...key },
      body: JSON.stringify({ content: "x", delay: 100 }),
      signal: ac.signal,
    }).catch(() => "aborted");
    // Leaves once the write is running (past the guards, the key claimed), however slow the machine.
    while (g.entered() === 0) await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    expect(await left).toBe("aborted");
    // The write goes on without its client; once stored, its answer is recorded.
    while (g.stored() === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    const retry = await g.post({ content: "x", delay: 100 }, key);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(g.stored()).toBe(1);
    await g.close();
  });

  it("the same key with another body answers 422; another tenant's same key is its own; no key means no replay", async () => {
    const g = await start();
    expect((await g.post({ content: "a" }, { "idempotency-key": "k1" })).status).toBe(200);
    const other = await g.post({ content: "b" }, { "idempotency-key": "k1" });
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ error: "Idempotency-Key reused" });
    const beta = await g.post({ content: "a" }, { "idempotency-key": "k1", authorization: "Bearer other" });
    expect(await beta.json()).toMatchObject({ id: "doc2" });
    await g.post({ content: "a" });
    expect(g.stored()).toBe(3);
    expect((await g.post({ content: "a" }, { "idempotency-key": "bad key" })).status).toBe(400);
    await g.close();
  });

  it("a 4xx is replayed; the key is not held by a request that failed before doing anything (5xx)", async () => {
    const g = await start();
    const bad = await g.post({ fail: true }, { "idempotency-key": "k-fail" });
    expect(bad.status).toBe(400);
    const again = await g.post({ fail: true }, { "idempotency-key": "k-fail" });
    expect(again.status).toBe(400);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    await g.close();
  });

  it("failed authentications per client address end in 429 with Retry-After, before the key is looked at", async () => {
    const g = await start({ authFailuresPerMinute: 5 });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await fetch(`${g.base}/v3/documents`, { headers: { authorization: "Bearer nope" } })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const limited = await fetch(`${g.base}/v3/documents`, { headers: { authorization: "Bearer good" } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    await g.close();
  });

  it("requests per key: a token bucket per key, per-tenant overrides", async () => {
    const g = await start({ keyRequestsPerSecond: 1, keyBurst: 2, tenants: { beta: { requestsPerSecond: 100, burst: 100 } } });
    const get = (key: string) => fetch(`${g.base}/v3/documents`, { headers: { authorization: `Bearer ${key}` } });
    expect([(await get("good")).status, (await get("good")).status]).toEqual([200, 200]);
    const third = await get("good");
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("1");
    for (let i = 0; i < 5; i++) expect((await get("other")).status).toBe(200);
    await g.close();
  });

  it("a tenant over its document quota gets 402 Quota exceeded; a replay still answers", async () => {
    const g = await start({ tenantMaxDocuments: 10 }, 9);
    expect((await g.post({ content: "a" }, { "idempotency-key": "q1" })).status).toBe(200);
    const over = await g.post({ content: "b" });
    expect(over.status).toBe(402);
    expect(await over.json()).toMatchObject({ error: "Quota exceeded" });
    expect((await g.post({ content: "a" }, { "idempotency-key": "q1" })).status).toBe(200);
    await g.close();
  });
});
