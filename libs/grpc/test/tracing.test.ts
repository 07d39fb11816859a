import * as grpc from "@grpc/grpc-js";
import { NotFoundError } from "@engram/kernel";
import { context, SpanKind, SpanStatusCode, startSpan, trace, traceparentOfContext } from "@engram/observability";
import { type ReadableSpan, recordSpans, type SpanRecorder } from "@engram/observability/src/span-recorder";
import { unaryCall } from "../src/client";
import { implement, MemoriesService } from "../src/services";
import { traceparentOf } from "../src/server";
import { type Loopback, serveOnLoopback } from "./helpers";

const MEMORIES = "engram.memories.v1.MemoriesService";
const CALLER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

const byKind = (spans: ReadableSpan[], kind: SpanKind) => spans.filter((s) => s.kind === kind);

describe("gRPC tracing over loopback", () => {
  let recorder: SpanRecorder;
  let loopback: Loopback;
  let client: grpc.Client;
  /** What the handlers saw: the traceparent they pass on and the active span. */
  const seen: { traceparent?: string; active?: string }[] = [];

  beforeAll(async () => {
    recorder = recordSpans("grpc-test");
    loopback = await serveOnLoopback(
      implement(MemoriesService, {
        async BatchGetMemories(_req: unknown, call: grpc.ServerUnaryCall<unknown, unknown>) {
          await new Promise((r) => setTimeout(r, 1));
          seen.push({ traceparent: traceparentOf(call), active: traceparentOfContext(context.active()) });
          return { memories: [] };
        },
        async ForgetMemory() {
          throw new NotFoundError("memory m_x not found");
        },
        async CreateMemories() {
          throw new Error("disk on fire");
        },
      }),
    );
    client = loopback.client;
  });

  afterAll(async () => {
    await loopback?.close();
    await recorder?.stop();
  });

  beforeEach(() => {
    recorder.reset();
    seen.length = 0;
  });

  it("a call continuing the caller's traceparent gives a client span and a server span in that trace, server under client", async () => {
    await unaryCall(client, "BatchGetMemories", { context: { tenantId: "t1" }, ids: [] }, { traceparent: CALLER });
    const spans = await recorder.waitFor((s) => s.length >= 2);
    const [clientSpan] = byKind(spans, SpanKind.CLIENT);
    const [serverSpan] = byKind(spans, SpanKind.SERVER);
    expect(clientSpan).toBeDefined();
    expect(serverSpan).toBeDefined();
    expect(clientSpan!.name).toBe(`${MEMORIES}/BatchGetMemories`);
    expect(clientSpan!.spanContext().traceId).toBe(TRACE_ID);
    expect(clientSpan!.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    expect(serverSpan!.spanContext().traceId).toBe(TRACE_ID);
    expect(serverSpan!.parentSpanContext?.spanId).toBe(clientSpan!.spanContext().spanId);
    expect(serverSpan!.parentSpanContext?.isRemote).toBe(true);
    expect(serverSpan!.attributes).toMatchObject({
      "rpc.system": "grpc",
      "rpc.service": MEMORIES,
      "rpc.method": "BatchGetMemories",
      "rpc.grpc.status_code": grpc.status.OK,
    });
    expect(clientSpan!.attributes).toMatchObject({ "rpc.system": "grpc", "rpc.service": MEMORIES, "rpc.method": "BatchGetMemories" });
    // The handler runs in its server span: that is the parent it passes on, and the active one.
    const serverTraceparent = `00-${TRACE_ID}-${serverSpan!.spanContext().spanId}-01`;
    expect(seen).toEqual([{ traceparent: serverTraceparent, active: serverTraceparent }]);
  });

  it("without a traceparent the client span is a child of the active span", async () => {
    const parent = startSpan("job");
    await context.with(trace.setSpan(context.active(), parent), () => unaryCall(client, "BatchGetMemories", { context: { tenantId: "t1" }, ids: [] }));
    parent.end();
    const spans = await recorder.waitFor((s) => s.length >= 3);
    const [clientSpan] = byKind(spans, SpanKind.CLIENT);
    const [serverSpan] = byKind(spans, SpanKind.SERVER);
    expect(clientSpan!.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(serverSpan!.parentSpanContext?.spanId).toBe(clientSpan!.spanContext().spanId);
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([parent.spanContext().traceId]));
  });

  it("records the status: a caller's error leaves the server span unset, an internal error fails both; the client span fails on any error", async () => {
    await expect(unaryCall(client, "ForgetMemory", { context: { tenantId: "t1" }, id: "m_x" }, { traceparent: CALLER })).rejects.toMatchObject({
      code: grpc.status.NOT_FOUND,
    });
    await expect(unaryCall(client, "CreateMemories", { context: { tenantId: "t1" }, memories: [] }, { traceparent: CALLER })).rejects.toMatchObject({
      code: grpc.status.INTERNAL,
    });
    await expect(unaryCall(client, "ListMemories", { context: { tenantId: "t1" } }, { traceparent: CALLER })).rejects.toMatchObject({
      code: grpc.status.UNIMPLEMENTED,
    });
    const spans = await recorder.waitFor((s) => s.length >= 6);
    const serverOf = (m: string) => spans.find((s) => s.kind === SpanKind.SERVER && s.attributes["rpc.method"] === m)!;
    const clientOf = (m: string) => spans.find((s) => s.kind === SpanKind.CLIENT && s.attributes["rpc.method"] === m)!;
    expect(serverOf("ForgetMemory").attributes["rpc.grpc.status_code"]).toBe(grpc.status.NOT_FOUND);
    expect(serverOf("ForgetMemory").status.code).toBe(SpanStatusCode.UNSET);
    expect(clientOf("ForgetMemory").status.code).toBe(SpanStatusCode.ERROR);
    expect(clientOf("ForgetMemory").attributes["rpc.grpc.status_code"]).toBe(grpc.status.NOT_FOUND);
    expect(serverOf("CreateMemories").status).toEqual({ code: SpanStatusCode.ERROR, message: "disk on fire" });
    expect(serverOf("CreateMemories").events.map((e) => e.name)).toEqual(["exception"]);
    expect(clientOf("CreateMemories").status.code).toBe(SpanStatusCode.ERROR);
    expect(serverOf("ListMemories").attributes["rpc.grpc.status_code"]).toBe(grpc.status.UNIMPLEMENTED);
    expect(serverOf("ListMemories").status.code).toBe(SpanStatusCode.ERROR);
  });
});
