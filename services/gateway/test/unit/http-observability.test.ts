import type * as grpc from "@grpc/grpc-js";
import { traceparentOf, implement, IngestionService } from "@engram/grpc";
import { NotFoundError } from "@engram/kernel";
import { metrics, rootLogger, SpanKind, SpanStatusCode } from "@engram/observability";
import { type ReadableSpan, recordSpans, type SpanRecorder } from "@engram/observability/src/span-recorder";
import { type StandInGateway, startGatewayAgainst } from "../helpers";

const CALLER_SPAN = "00f067aa0ba902b7";
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER = `00-${TRACE_ID}-${CALLER_SPAN}-01`;
const logger = rootLogger({ level: "silent" });

/**
 * The gateway's HTTP layer against a real loopback gRPC ingestion server
 * (a stand-in implementation of two RPCs): request spans and metrics.
 */
describe("gateway HTTP tracing and metrics", () => {
  let recorder: SpanRecorder;
  let gateway: StandInGateway;
  let base = "";
  let key = "";
  /** The traceparent the ingestion handler saw for its own span. */
  const seenByIngestion: (string | undefined)[] = [];

  beforeAll(async () => {
    recorder = recordSpans("gateway-test");
    gateway = await startGatewayAgainst(
      implement(IngestionService, {
        async AddDocument(req: unknown, call: grpc.ServerUnaryCall<unknown, unknown>) {
          if (JSON.stringify(req).includes('"slow"')) await new Promise((r) => setTimeout(r, 300));
          seenByIngestion.push(traceparentOf(call));
          return { id: "d_1", status: "DOCUMENT_STATUS_QUEUED" };
        },
        async ReadDocument(req: { id: string }) {
          throw new NotFoundError(`document ${req.id} not found`);
        },
      }),
      { logger, tmpPrefix: "engram-gw-obs-" },
    );
    ({ base, key } = gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await recorder?.stop();
  });

  beforeEach(() => {
    recorder.reset();
    seenByIngestion.length = 0;
  });

  const auth = { authorization: "Bearer " } as Record<string, string>;
  const headers = (extra: Record<string, string> = {}) => ({ ...auth, authorization: `Bearer ${key}`, ...extra });
  const one = (spans: ReadableSpan[], kind: SpanKind) => {
    const found = spans.filter((s) => s.kind === kind);
    expect(found.map((s) => s.name)).toHaveLength(1);
    return found[0]!;
  };

  it("POST /v3/documents: one trace from the caller's traceparent through the HTTP span, the gRPC client span and the ingestion server span", async () => {
    const res = await fetch(`${base}/v3/documents`, {
      method: "POST",
      headers: headers({ "content-type": "application/json", traceparent: CALLER }),
      body: JSON.stringify({ content: "hello" }),
    });
    expect(res.status).toBe(200);
    const spans = await recorder.waitFor((s) => s.some((x) => x.kind === SpanKind.SERVER && x.attributes["http.route"] !== undefined));
    const httpSpan = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes["http.request.method"] === "POST")!;
    const rpcServer = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes["rpc.system"] === "grpc")!;
    const rpcClient = one(spans, SpanKind.CLIENT);
    expect(httpSpan.name).toBe("POST /v3/documents");
    expect(httpSpan.spanContext().traceId).toBe(TRACE_ID);
    expect(httpSpan.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(httpSpan.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/v3/documents",
      "http.response.status_code": 200,
      "url.path": "/v3/documents",
      "engram.tenant": "acme",
    });
    expect(rpcClient.parentSpanContext?.spanId).toBe(httpSpan.spanContext().spanId);
    expect(rpcServer.parentSpanContext?.spanId).toBe(rpcClient.spanContext().spanId);
    expect(rpcServer.attributes).toMatchObject({ "rpc.service": IngestionService.fullName, "rpc.method": "AddDocument" });
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([TRACE_ID]));
    // The response names the request's span; the handler passes on its own server span.
    expect(res.headers.get("traceparent")).toBe(`00-${TRACE_ID}-${httpSpan.spanContext().spanId}-01`);
    expect(seenByIngestion).toEqual([`00-${TRACE_ID}-${rpcServer.spanContext().spanId}-01`]);
  });

  it("a request without traceparent starts a trace; a backend error status is on the spans, a 4xx leaves the HTTP span unset", async () => {
    const res = await fetch(`${base}/v3/documents/d_missing`, { headers: headers() });
    expect(res.status).toBe(404);
    const spans = await recorder.waitFor((s) => s.filter((x) => x.kind === SpanKind.SERVER).length >= 2);
    const httpSpan = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes["http.request.method"] === "GET")!;
    expect(httpSpan.parentSpanContext).toBeUndefined();
    expect(httpSpan.name).toBe("GET /v3/documents/:id");
    expect(httpSpan.attributes["http.response.status_code"]).toBe(404);
    expect(httpSpan.status.code).toBe(SpanStatusCode.UNSET);
    expect(one(spans, SpanKind.CLIENT).status.code).toBe(SpanStatusCode.ERROR);
    expect(res.headers.get("traceparent")).toBe(`00-${httpSpan.spanContext().traceId}-${httpSpan.spanContext().spanId}-01`);
  });

  it("probes get trace context but no span; an unknown route's span is named by its method", async () => {
    const probe = await fetch(`${base}/healthz`, { headers: { traceparent: CALLER } });
    expect(probe.status).toBe(200);
    expect(probe.headers.get("traceparent")).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    const missing = await fetch(`${base}/nowhere`, { headers: headers() });
    expect(missing.status).toBe(404);
    const spans = await recorder.waitFor((s) => s.length >= 1);
    expect(spans.map((s) => [s.name, s.attributes["url.path"]])).toEqual([["GET", "/nowhere"]]);
  });

  it("file-link tokens never reach a span", async () => {
    await fetch(`${base}/files/secret-token-123`);
    const spans = await recorder.waitFor((s) => s.some((x) => x.attributes["http.request.method"] !== undefined));
    const httpSpan = spans.find((x) => x.attributes["http.request.method"] !== undefined)!;
    expect(httpSpan.attributes["url.path"]).toBe("/files/[token]");
    expect(JSON.stringify(spans.map((x) => [x.name, x.attributes]))).not.toContain("secret-token-123");
  });

  it("a client that goes away before the response fails its request's span and adds no duration sample", async () => {
    const abort = new AbortController();
    const sent = fetch(`${base}/v3/documents`, {
      method: "POST",
      headers: headers({ "content-type": "application/json" }),
      body: JSON.stringify({ content: "slow" }),
      signal: abort.signal,
    });
    setTimeout(() => abort.abort(), 100);
    await expect(sent).rejects.toThrow();
    const spans = await recorder.waitFor((s) => s.some((x) => x.kind === SpanKind.SERVER && x.attributes["http.request.method"] === "POST"));
    const httpSpan = spans.find((x) => x.kind === SpanKind.SERVER && x.attributes["http.request.method"] === "POST")!;
    expect(httpSpan.status).toEqual({ code: SpanStatusCode.ERROR, message: "connection closed before the response was sent" });
    expect(httpSpan.attributes["http.response.status_code"]).toBeUndefined();
    // Let the backend answer into the closed connection before the metrics are read.
    await new Promise((r) => setTimeout(r, 400));
  });

  it("observes every request in engram_http_request_duration_seconds by method, route and status", async () => {
    const text = await metrics.exposition();
    const count = (method: string, route: string, status: number) =>
      Number(
        new RegExp(
          `^engram_http_request_duration_seconds_count\\{method="${method}",route="${route.replace(/[/:]/g, (c) => `\\${c}`)}",status="${status}"\\} (\\d+)$`,
          "m",
        ).exec(text)?.[1] ?? 0,
      );
    // The requests of the tests above (the abandoned one is not a completed request).
    expect(count("POST", "/v3/documents", 200)).toBe(1);
    expect(count("GET", "/v3/documents/:id", 404)).toBe(1);
    expect(count("GET", "/healthz", 200)).toBe(1);
    expect(count("GET", "unmatched", 404)).toBeGreaterThanOrEqual(1);
  });
});
