import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import {
  childTraceparent,
  extractContext,
  injectTraceparent,
  parentContext,
  randomHexId,
  startSpan,
  startTracing,
  traceIdOf,
  traceparentOfContext,
  tracesExportUrl,
  tracingSetup,
  tracingStarted,
  withSpan,
} from "../src/index";
import { recordSpans } from "../src/span-recorder";

const PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

describe("tracing configuration", () => {
  it("exports only when an OTLP endpoint is set; the traces endpoint is used as is, the base one gets /v1/traces", () => {
    expect(tracesExportUrl({})).toBeUndefined();
    expect(tracesExportUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBeUndefined();
    expect(tracesExportUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe("http://collector:4318/v1/traces");
    expect(tracesExportUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toBe("http://collector:4318/v1/traces");
    expect(tracesExportUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://b:9999/traces" })).toBe(
      "http://b:9999/traces",
    );
  });

  it("OTEL_SDK_DISABLED turns the SDK off and OTEL_SERVICE_NAME overrides the name", () => {
    expect(tracingSetup("engram", {})).toEqual({ enabled: true, serviceName: "engram", exportUrl: undefined });
    expect(tracingSetup("engram", { OTEL_SERVICE_NAME: "kb", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })).toEqual({
      enabled: true,
      serviceName: "kb",
      exportUrl: "http://c:4318/v1/traces",
    });
    expect(tracingSetup("engram", { OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }).enabled).toBe(false);
    const stop = startTracing({ serviceName: "engram", env: { OTEL_SDK_DISABLED: "true" } });
    expect(tracingStarted()).toBe(false);
    return stop();
  });
});

describe("without the SDK (trace context only)", () => {
  it("a span continues the caller's trace with a new span id, or starts a trace", () => {
    const child = startSpan("work", {}, extractContext({ traceparent: PARENT }));
    expect(child.spanContext().traceId).toBe(TRACE_ID);
    expect(child.spanContext().spanId).not.toBe("00f067aa0ba902b7");
    expect(child.isRecording()).toBe(false);
    const root = startSpan("work", {}, extractContext({}));
    expect(root.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root.spanContext().traceId).not.toBe(TRACE_ID);
    expect(traceparentOfContext(trace.setSpan(context.active(), child))).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
  });

  it("hands out distinct hex ids of the asked length across refills of the random pool", () => {
    const ids = Array.from({ length: 1000 }, (_, i) => randomHexId(i % 2 ? 8 : 16));
    expect(new Set(ids).size).toBe(ids.length);
    ids.forEach((id, i) => expect(id).toMatch(i % 2 ? /^[0-9a-f]{16}$/ : /^[0-9a-f]{32}$/));
  });

  it("keeps childTraceparent and traceIdOf working", () => {
    expect(childTraceparent(PARENT)).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    expect(traceIdOf(childTraceparent(PARENT))).toBe(TRACE_ID);
    expect(traceIdOf(childTraceparent("garbage"))).toMatch(/^[0-9a-f]{32}$/);
    expect(traceIdOf(undefined)).toBeUndefined();
  });

  it("injects and extracts W3C trace context", () => {
    const ctx = extractContext({ traceparent: PARENT });
    expect(injectTraceparent({}, ctx)).toEqual({ traceparent: PARENT });
    expect(injectTraceparent({}, extractContext({ traceparent: "nonsense" }))).toEqual({});
  });
});

describe("with the SDK", () => {
  let recorder: ReturnType<typeof recordSpans>;
  beforeAll(() => (recorder = recordSpans("tracing-test")));
  afterAll(() => recorder.stop());
  beforeEach(() => recorder.reset());

  it("refuses a second install on the same thread", () => {
    expect(tracingStarted()).toBe(true);
    expect(() => startTracing({ serviceName: "again", env: {} })).toThrow(/already started/);
  });

  it("withSpan nests spans through async work and records failures", async () => {
    await withSpan("outer", { "test.attr": 1 }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      await withSpan("inner", {}, async () => undefined);
      await expect(
        withSpan("failing", {}, async () => {
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
    });
    const spans = recorder.spans();
    const byName = Object.fromEntries(spans.map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(["failing", "inner", "outer"]);
    const outer = byName.outer!;
    expect(outer.attributes["test.attr"]).toBe(1);
    expect(outer.parentSpanContext).toBeUndefined();
    for (const child of [byName.inner!, byName.failing!]) {
      expect(child.spanContext().traceId).toBe(outer.spanContext().traceId);
      expect(child.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    }
    expect(byName.failing!.status).toEqual({ code: SpanStatusCode.ERROR, message: "boom" });
    expect(byName.failing!.events.map((e) => e.name)).toEqual(["exception"]);
    expect(outer.resource.attributes["service.name"]).toBe("tracing-test");
  });

  it("a span parented on an extracted traceparent joins the caller's trace, and its own traceparent is injected", () => {
    const span = startSpan("server", { kind: SpanKind.SERVER }, extractContext({ traceparent: PARENT }));
    const carrier = injectTraceparent({} as Record<string, string>, trace.setSpan(context.active(), span));
    span.end();
    expect(carrier.traceparent).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`);
    const [recorded] = recorder.spans();
    expect(recorded!.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    expect(recorded!.parentSpanContext?.isRemote).toBe(true);
  });

  it("parentContext prefers the active span of the same trace over an explicit traceparent, not one of another trace", () => {
    const consumer = startSpan("consumer", {}, extractContext({ traceparent: PARENT }));
    context.with(trace.setSpan(context.active(), consumer), () => {
      expect(trace.getSpanContext(parentContext(PARENT))?.spanId).toBe(consumer.spanContext().spanId);
      const other = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
      expect(trace.getSpanContext(parentContext(other))?.spanId).toBe("b7ad6b7169203331");
      expect(trace.getSpanContext(parentContext(undefined))?.spanId).toBe(consumer.spanContext().spanId);
    });
    consumer.end();
  });
});

describe("OTLP export (child process)", () => {
  async function receiver() {
    const bodies: { url?: string; type?: string; body: unknown }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        bodies.push({ url: req.url, type: req.headers["content-type"], body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return { bodies, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
  }

  function run(env: Record<string, string>): Promise<string> {
    const fixture = path.join(__dirname, "fixtures", "export-one-span.ts");
    const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
    for (const k of Object.keys(childEnv)) if (k.startsWith("OTEL_") && !(k in env)) delete childEnv[k];
    return new Promise((resolve, reject) =>
      execFile(process.execPath, ["--import", "tsx", fixture, PARENT], { env: childEnv, timeout: 30_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
  }

  it("sends spans as OTLP/HTTP JSON to the configured endpoint; the stop flushes them", async () => {
    const r = await receiver();
    try {
      expect(await run({ OTEL_EXPORTER_OTLP_ENDPOINT: r.endpoint })).toBe("span ended\nstopped\n");
      expect(r.bodies).toHaveLength(1);
      expect(r.bodies[0]!.url).toBe("/v1/traces");
      expect(r.bodies[0]!.type).toBe("application/json");
      const payload = r.bodies[0]!.body as {
        resourceSpans: {
          resource: { attributes: { key: string; value: { stringValue?: string } }[] };
          scopeSpans: { spans: { name: string; traceId: string; parentSpanId: string }[] }[];
        }[];
      };
      const rs = payload.resourceSpans[0]!;
      expect(rs.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue).toBe("export-test");
      expect(rs.scopeSpans[0]!.spans[0]).toMatchObject({ name: "exported", traceId: TRACE_ID, parentSpanId: "00f067aa0ba902b7" });
    } finally {
      await r.close();
    }
  });

  it("sends nothing without an endpoint, and nothing when OTEL_SDK_DISABLED=true", async () => {
    const r = await receiver();
    try {
      // Without an endpoint the span still carries trace context but is not recorded (no SDK cost for spans nobody receives).
      expect(await run({})).toBe("span ended (not recorded)\nstopped\n");
      expect(await run({ OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: r.endpoint })).toBe("span ended (not recorded)\nstopped\n");
      expect(r.bodies).toHaveLength(0);
      // The same receiver does get a span from the same program once the endpoint is set (the check above can fail).
      await run({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${r.endpoint}/custom/traces` });
      expect(r.bodies.map((b) => b.url)).toEqual(["/custom/traces"]);
    } finally {
      await r.close();
    }
  });
});
