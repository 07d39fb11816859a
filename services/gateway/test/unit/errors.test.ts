import type http from "node:http";
import type { AddressInfo } from "node:net";
import * as grpc from "@grpc/grpc-js";
import express from "express";
import { InsufficientStorageError, InternalError, InvalidArgumentError, UnavailableError } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import { errorHandler, HttpProblem, toHttpError } from "../../src/http/errors";
import { sendJson } from "../../src/http/json";

/** A status as grpc-js produces it on the client: no engram metadata. */
const transport = (code: grpc.status, details: string) => Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });

interface Logged {
  level: "error" | "warn";
  fields: Record<string, unknown>;
}

/** The gateway's error handler behind real routes that throw, with its log lines captured. */
describe("gateway error mapping (toHttpError, errorHandler)", () => {
  let server: http.Server;
  let base = "";
  const logged: Logged[] = [];
  let toThrow: unknown;

  beforeAll(async () => {
    const log = {
      error: (fields: Record<string, unknown>) => logged.push({ level: "error", fields }),
      warn: (fields: Record<string, unknown>) => logged.push({ level: "warn", fields }),
    } as unknown as Logger;
    const app = express();
    app.response.json = sendJson;
    app.get("/v3/documents/:id", () => {
      throw toThrow;
    });
    app.get("/files/:token", () => {
      throw toThrow;
    });
    app.use(errorHandler(log));
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  beforeEach(() => {
    logged.length = 0;
  });

  async function get(p: string, err: unknown) {
    toThrow = err;
    const res = await fetch(base + p);
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as Record<string, string> };
  }

  it("a path parameter that is not valid percent-encoding is a 400, not a 500", async () => {
    for (const p of ["/v3/documents/%zz", "/v3/documents/%", "/v3/documents/%E0%A4%A", "/v3/documents/%C0%AF", "/v3/documents/%ED%A0%80"]) {
      const r = await get(p, new Error("not reached"));
      expect([p, r.status]).toEqual([p, 400]);
      expect(r.body).toEqual({ error: "Invalid request path", details: expect.stringMatching(/percent-encoding/) });
    }
    expect(logged).toEqual([]);
    // A URIError the gateway's own code throws is not the client's fault.
    expect(toHttpError(new URIError("URI malformed")).status).toBe(500);
  });

  it("a 504 from the transport: generic body with an error id; the log keeps the gRPC text", async () => {
    const r = await get("/v3/documents/d_1", transport(grpc.status.DEADLINE_EXCEEDED, "Deadline exceeded after 29.999s,Waiting for LB pick"));
    expect(r.status).toBe(504);
    expect(r.body).toEqual({
      error: "Gateway timeout",
      details: expect.stringMatching(/^a backend service did not answer in time; retry shortly \(error id e_\w+\)$/),
    });
    expect(JSON.stringify(r.body)).not.toMatch(/Deadline|LB pick|29\.999/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toEqual({
      level: "warn",
      fields: expect.objectContaining({
        grpcCode: grpc.status.DEADLINE_EXCEEDED,
        grpcDetails: "Deadline exceeded after 29.999s,Waiting for LB pick",
        status: 504,
      }),
    });
    expect(r.body.details).toContain(String(logged[0]!.fields.errorId));
  });

  it("503s, from the transport or a domain error, never show the backend's words", async () => {
    for (const err of [
      transport(grpc.status.UNAVAILABLE, "No connection established. Last error: connect ECONNREFUSED 10.1.2.3:50051"),
      new UnavailableError("search index at qdrant:6333 is down", "connect ECONNREFUSED"),
    ]) {
      const r = await get("/v3/documents/d_1", err);
      expect(r.status).toBe(503);
      expect(r.retryAfter).toBe("5");
      expect(r.body.error).toBe("Service temporarily unavailable");
      expect(JSON.stringify(r.body)).not.toMatch(/ECONNREFUSED|qdrant|10\.1\.2\.3/);
    }
    expect(logged.map((l) => l.level)).toEqual(["warn", "warn"]);
  });

  it("an engine outage thrown in the gateway itself (its key store unreachable) is a 503 with Retry-After; a 503 the gateway decides has none", async () => {
    const r = await get("/v3/documents/d_1", Object.assign(new Error("connect ECONNREFUSED 10.9.9.9:27017"), { code: "ECONNREFUSED" }));
    expect(r.status).toBe(503);
    expect(r.retryAfter).toBe("5");
    expect(r.body).toEqual({ error: "Service temporarily unavailable", details: expect.stringMatching(/retry shortly \(error id e_\w+\)$/) });
    expect(logged.map((l) => l.level)).toEqual(["warn"]);
    const console503 = await get("/v3/documents/d_1", new HttpProblem(503, "Console unavailable", "not built"));
    expect(console503.status).toBe(503);
    expect(console503.retryAfter).toBeNull();
  });

  it("a full disk is a 507 with Retry-After naming the part, from a backend or from the gateway's own store, and is not logged per request", async () => {
    const { toGrpcError } = await import("@engram/grpc");
    const st = toGrpcError(new InsufficientStorageError("fileStore", { fault: "full", code: "ENOSPC" }));
    const fromBackend = Object.assign(new Error(st.details), { code: st.code, details: st.details, metadata: st.metadata });
    for (const [err, part] of [
      [fromBackend, "the file store"],
      [new InsufficientStorageError("store", { fault: "full", code: "SQLITE_FULL" }), "the document and memory store"],
      [Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }), "the server's storage"],
    ] as const) {
      const r = await get("/v3/documents/d_1", err);
      expect(r.status).toBe(507);
      expect(r.retryAfter).toBe("60");
      expect(r.body).toEqual({
        error: "Insufficient storage",
        details: expect.stringMatching(new RegExp(`^${part} cannot write: its disk is full\\. Nothing was stored`)),
      });
    }
    // The storage monitor logs the fault once per change of state; the request log line shows the 507.
    expect(logged).toEqual([]);
  });

  it("a 500 logs the error with its stack and answers only the error id; file tokens are not logged", async () => {
    const r = await get("/files/secret-token-123", new InternalError("disk /var/lib/engram is full"));
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: "Internal server error", details: expect.stringMatching(/^error id e_\w+$/) });
    expect(logged).toHaveLength(1);
    expect(logged[0]!.level).toBe("error");
    expect(logged[0]!.fields.err).toBeInstanceOf(InternalError);
    expect(logged[0]!.fields.path).toBe("/files/[token]");
    expect(JSON.stringify(logged)).not.toContain("secret-token-123");
  });

  it("client errors keep their words and are not logged", async () => {
    expect((await get("/v3/documents/d_1", new InvalidArgumentError("bad thing", "why"))).body).toEqual({ error: "bad thing", details: "why" });
    expect((await get("/v3/documents/d_1", new HttpProblem(413, "File too large"))).status).toBe(413);
    expect(toHttpError(Object.assign(new Error("deep"), { type: "entity.too.deep", limit: 32 }))).toEqual({
      status: 400,
      body: { error: "JSON nested too deeply", details: "objects and arrays may be nested at most 32 levels deep" },
      internal: false,
    });
    expect(logged).toEqual([]);
  });
});
