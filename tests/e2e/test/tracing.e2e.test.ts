import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { apiClient, type EngramProcess, startEngram } from "@engram/testing";
import { stopQuietly, waitDone } from "./helpers";

/** OTLP/HTTP JSON, as far as these tests read it. */
interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
}
interface ExportRequest {
  resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}
/** A received span with its service and attributes flattened. */
interface Received {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attrs: Record<string, string | number | boolean | undefined>;
}

const KIND = { server: 2, client: 3, producer: 4, consumer: 5 } as const;

const valueOf = (v: OtlpValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.boolValue);

/** A local OTLP/HTTP receiver: accepts POST /v1/traces (JSON) and keeps every span. */
async function otlpReceiver(port = 0) {
  const requests: { method?: string; url?: string; contentType?: string }[] = [];
  const spans: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({ method: req.method, url: req.url, contentType: req.headers["content-type"] });
      if (req.method !== "POST" || req.url !== "/v1/traces") return void res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ExportRequest;
      for (const rs of body.resourceSpans) {
        const service = String(valueOf(rs.resource.attributes.find((a) => a.key === "service.name")!.value));
        for (const ss of rs.scopeSpans)
          for (const s of ss.spans)
            spans.push({
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              attrs: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
            });
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // Without a host: every address of the machine, IPv4 and IPv6 (what "localhost" may resolve to).
    server.listen(port, () => resolve());
  });
  return {
    requests,
    spans,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Stops listening and drops the exporters' keep-alive connections. */
    close: () =>
      new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      }),
  };
}

async function until<T>(fn: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const newTraceparent = () => {
  const traceId = randomBytes(16).toString("hex");
  const spanId = randomBytes(8).toString("hex");
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
};

describe("OpenTelemetry traces across the stack (OTLP/HTTP to a local receiver)", () => {
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let engram: EngramProcess | undefined;

  beforeAll(async () => {
    receiver = await otlpReceiver();
    // A short batch delay so spans arrive while the stack runs (the default is 5 s).
    engram = await startEngram({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "100" } });
  });
  afterAll(async () => {
    await stopQuietly(engram);
    await receiver?.close();
  });

  it("a document added with a traceparent is one trace: gateway, ingestion gRPC server, event, pipeline-worker consumer", async () => {
    const caller = newTraceparent();
    const api = apiClient(engram!.url, engram!.apiKey);
    const add = await api(
      "POST",
      "/v3/documents",
      { content: "Tracing test: Dana moved the release to Thursday.", containerTag: "traced" },
      { traceparent: caller.traceparent },
    );
    expect(add.status).toBe(200);
    expect(add.headers.get("traceparent")).toMatch(new RegExp(`^00-${caller.traceId}-[0-9a-f]{16}-01$`));
    await waitDone(api, "traced", add.body.id);

    const inTrace = () => receiver.spans.filter((s) => s.traceId === caller.traceId);
    const find = (pred: (s: Received) => boolean) => inTrace().find(pred);
    const gateway = await until(() => find((s) => s.kind === KIND.server && s.attrs["http.route"] === "/v3/documents"), "the gateway's request span");
    const ingestion = await until(
      () => find((s) => s.kind === KIND.server && s.attrs["rpc.service"] === "engram.ingestion.v1.IngestionService" && s.attrs["rpc.method"] === "AddDocument"),
      "the ingestion gRPC server span",
    );
    const worker = await until(
      () =>
        find(
          (s) =>
            s.kind === KIND.consumer && s.attrs["messaging.consumer.group.name"] === "pipeline-worker" && s.attrs["engram.event.type"] === "DocumentQueued",
        ),
      "the pipeline-worker's consumer span",
    );

    // The gateway continues the caller's span; the services are in the same trace.
    expect(gateway).toMatchObject({ service: "engram-gateway", name: "POST /v3/documents", parentSpanId: caller.spanId });
    expect(gateway.attrs).toMatchObject({ "http.request.method": "POST", "http.response.status_code": 200 });
    expect(add.headers.get("traceparent")).toBe(`00-${caller.traceId}-${gateway.spanId}-01`);
    expect(ingestion.service).toBe("engram");
    expect(worker.service).toBe("engram");
    expect(worker.attrs).toMatchObject({
      "messaging.system": "engram_embedded",
      "messaging.destination.name": "engram.documents.v1",
      "engram.bus.outcome": "handled",
    });

    // Parent links: gateway -> gRPC client -> ingestion server -> event producer -> worker consumer.
    const byId = new Map(inTrace().map((s) => [s.spanId, s]));
    const rpcClient = byId.get(ingestion.parentSpanId!);
    expect(rpcClient).toMatchObject({ kind: KIND.client, service: "engram-gateway", parentSpanId: gateway.spanId });
    const producer = byId.get(worker.parentSpanId!);
    expect(producer).toMatchObject({ kind: KIND.producer, name: "create engram.documents.v1" });
    // The producer span descends from the ingestion server span.
    let up: Received | undefined = producer;
    while (up && up.spanId !== ingestion.spanId) up = up.parentSpanId ? byId.get(up.parentSpanId) : undefined;
    expect(up?.spanId).toBe(ingestion.spanId);
    // The worker's own work is in the trace too: the source read over gRPC and the pipeline stages.
    await until(() => find((s) => s.kind === KIND.server && s.attrs["rpc.method"] === "GetDocumentSource"), "the worker's source read");
    await until(() => find((s) => s.name === "pipeline index"), "the index stage span");

    expect(receiver.requests.every((r) => r.method === "POST" && r.url === "/v1/traces" && r.contentType === "application/json")).toBe(true);
  });
});

describe("OpenTelemetry export is opt-in", () => {
  it("without an OTLP endpoint nothing is sent, not even to the default localhost:4318", async () => {
    let receiver: Awaited<ReturnType<typeof otlpReceiver>> | undefined;
    try {
      receiver = await otlpReceiver(4318);
    } catch (err) {
      console.warn(`port 4318 is taken (${(err as Error).message}); checking only that the trace context still flows`);
    }
    const caller = newTraceparent();
    let engram: EngramProcess | undefined;
    try {
      // An endpoint variable inherited from the developer's environment is cleared (empty = unset).
      engram = await startEngram({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: "", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "", OTEL_BSP_SCHEDULE_DELAY: "100" } });
      const api = apiClient(engram.url, engram.apiKey);
      const add = await api(
        "POST",
        "/v3/documents",
        { content: "Untraced: nothing leaves the machine.", containerTag: "quiet" },
        { traceparent: caller.traceparent },
      );
      expect(add.status).toBe(200);
      // The trace context still flows (log lines stay linked): the response continues the caller's trace.
      expect(add.headers.get("traceparent")).toMatch(new RegExp(`^00-${caller.traceId}-[0-9a-f]{16}-01$`));
      await waitDone(api, "quiet", add.body.id);
      await new Promise((r) => setTimeout(r, 500)); // well past the batch delay
      await stopQuietly(engram); // a shutdown flush would export now
      // The request's log line carries the caller's trace id.
      const requestLog = engram.output.filter((l) => l.includes('"msg":"request"') && l.includes('"path":"/v3/documents"'));
      expect(requestLog.map((l) => (JSON.parse(l) as { traceId?: string }).traceId)).toEqual([caller.traceId]);
      if (receiver) expect(receiver.requests).toEqual([]);
    } finally {
      await stopQuietly(engram);
      await receiver?.close();
    }
  });
});
