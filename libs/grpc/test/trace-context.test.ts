import type * as grpc from "@grpc/grpc-js";
import { context, parseTraceparent, spansRecorded, startTracing, type StopTracing, trace } from "@engram/observability";
import { unaryCall } from "../src/client";
import { implement, MemoriesService } from "../src/services";
import { type Loopback, serveOnLoopback } from "./helpers";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

/**
 * The default setup (tracing started, no exporter) records no spans: a call
 * then carries only trace context, built without a span. It must be what a
 * span would have carried: the caller's trace and flags, and a span id of its own.
 */
describe("gRPC trace context when spans are not recorded", () => {
  let loopback: Loopback;
  let client: grpc.Client;
  const seen: (string | undefined)[] = [];
  let stopTracing: StopTracing;

  beforeAll(async () => {
    stopTracing = startTracing({ serviceName: "grpc-test", env: {} });
    loopback = await serveOnLoopback(
      implement(MemoriesService, {
        async BatchGetMemories(_req: unknown, call: grpc.ServerUnaryCall<unknown, unknown>) {
          seen.push(call.metadata.get("traceparent")[0] as string | undefined);
          return { memories: [] };
        },
      }),
    );
    client = loopback.client;
  });

  afterAll(async () => {
    await loopback?.close();
    await stopTracing();
  });

  beforeEach(() => {
    seen.length = 0;
  });

  const call = (traceparent?: string) => unaryCall(client, "BatchGetMemories", { context: { tenantId: "acme" }, ids: [] }, { traceparent });

  it("continues the caller's trace with a new span id and the caller's flags", async () => {
    expect(spansRecorded()).toBe(false);
    await call(CALLER);
    await call(CALLER.replace(/-01$/, "-00"));
    const [sampled, unsampled] = seen.map((t) => parseTraceparent(t));
    expect(sampled).toEqual({ traceId: TRACE_ID, spanId: expect.stringMatching(/^[0-9a-f]{16}$/), flags: "01" });
    expect(sampled!.spanId).not.toBe("00f067aa0ba902b7");
    expect(unsampled).toMatchObject({ traceId: TRACE_ID, flags: "00" });
    expect(unsampled!.spanId).not.toBe(sampled!.spanId);
  });

  it("without a traceparent continues the active span's trace, else starts a trace; a malformed one starts a trace", async () => {
    const active = trace.wrapSpanContext({ traceId: TRACE_ID, spanId: "1111111111111111", traceFlags: 1 });
    await context.with(trace.setSpan(context.active(), active), () => call());
    await call();
    await call("00-not-a-traceparent");
    const [fromActive, fresh, afterMalformed] = seen.map((t) => parseTraceparent(t));
    expect(fromActive).toMatchObject({ traceId: TRACE_ID, flags: "01" });
    expect(fromActive!.spanId).not.toBe("1111111111111111");
    for (const t of [fresh, afterMalformed]) {
      expect(t).toBeDefined();
      expect(t!.traceId).not.toBe(TRACE_ID);
    }
    expect(fresh!.traceId).not.toBe(afterMalformed!.traceId);
  });
});
