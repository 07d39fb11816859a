import type { KafkaMessage } from "kafkajs";
import { context, SpanKind, SpanStatusCode, startSpan, trace, traceparentOfContext } from "@engram/observability";
import { type ReadableSpan, recordSpans, type SpanRecorder } from "@engram/observability/src/span-recorder";
import { openSqlite, type SqliteDatabase } from "@engram/storage";
import type { EmbeddedEventBus } from "../src/embedded-bus";
import { eventMessage, TOPICS } from "../src/events";
import { type BatchContext, consumeBatch, toKafkaHeaders } from "../src/kafka-bus";
import { OUTBOX_TABLE_SQL, OutboxRelay, SqliteOutbox } from "../src/outbox";
import type { DeliveredMessage, OutgoingMessage } from "../src/port";
import { openBus, removeDir, silentLogger, sleep, tempDir, until } from "./helpers";

const CALLER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const doc = (id: string) => ({ document: { tenantId: "t1", namespace: "ns", documentId: id, generation: 1 } });

const one = (spans: ReadableSpan[], kind: SpanKind) => {
  const found = spans.filter((s) => s.kind === kind);
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** Runs `fn` in a server span continuing the caller's trace, as a gRPC handler does. */
function inRequest<T>(fn: () => T): { result: T; span: ReturnType<typeof startSpan> } {
  const parent = trace.setSpan(context.active(), startSpan("caller"));
  const span = startSpan("request", { kind: SpanKind.SERVER }, parent);
  const result = context.with(trace.setSpan(parent, span), fn);
  span.end();
  return { result, span };
}

describe("event tracing", () => {
  let recorder: SpanRecorder;
  let dir: string;
  let bus: EmbeddedEventBus;

  beforeAll(() => {
    recorder = recordSpans("bus-test");
  });
  afterAll(() => recorder.stop());
  beforeEach(() => {
    recorder.reset();
    dir = tempDir();
    bus = openBus(dir, { maxAttempts: 3, backoffMs: 5 });
  });
  afterEach(async () => {
    await bus.close();
    removeDir(dir);
  });

  it("an event created in a span gets a producer span and carries its context; no span, no traceparent", () => {
    const { result: m, span } = inRequest(() => eventMessage("DocumentQueued", "d1", doc("d1")));
    const producer = one(recorder.spans(), SpanKind.PRODUCER);
    expect(producer.name).toBe(`create ${TOPICS.documents}`);
    expect(producer.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(producer.attributes).toMatchObject({
      "messaging.operation.type": "create",
      "messaging.destination.name": TOPICS.documents,
      "messaging.message.id": m.headers["event-id"],
    });
    expect(m.headers.traceparent).toBe(`00-${span.spanContext().traceId}-${producer.spanContext().spanId}-01`);
    // Outside any trace an event stays as it was: no span, no header.
    expect(eventMessage("DocumentQueued", "d2", doc("d2")).headers.traceparent).toBeUndefined();
  });

  it("an explicit traceparent header is the parent when no span of that trace is active", () => {
    const m = eventMessage("DocumentIndexed", "d1", doc("d1"), { traceparent: CALLER, "x-request-id": "r1" });
    const producer = one(recorder.spans(), SpanKind.PRODUCER);
    expect(producer.spanContext().traceId).toBe(TRACE_ID);
    expect(producer.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    expect(m.headers).toMatchObject({ traceparent: `00-${TRACE_ID}-${producer.spanContext().spanId}-01`, "x-request-id": "r1" });
  });

  it("publish -> consume on the embedded bus: the consumer span continues the producer's trace and the handler runs in it", async () => {
    const { result: m } = inRequest(() => eventMessage("DocumentQueued", "d1", doc("d1")));
    const producer = one(recorder.spans(), SpanKind.PRODUCER);
    const active: (string | undefined)[] = [];
    await bus.subscribe({
      group: "pipeline-worker",
      topics: [TOPICS.documents],
      handler: async () => {
        await sleep(1);
        active.push(traceparentOfContext(context.active()));
      },
    });
    await bus.publish([m]);
    const spans = await recorder.waitFor((s) => s.some((x) => x.kind === SpanKind.CONSUMER));
    const consumer = one(spans, SpanKind.CONSUMER);
    expect(consumer.name).toBe(`process ${TOPICS.documents}`);
    expect(consumer.spanContext().traceId).toBe(producer.spanContext().traceId);
    expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
    expect(consumer.attributes).toMatchObject({
      "messaging.system": "engram_embedded",
      "messaging.operation.type": "process",
      "messaging.destination.name": TOPICS.documents,
      "messaging.consumer.group.name": "pipeline-worker",
      "messaging.message.id": m.headers["event-id"],
      "engram.event.type": "DocumentQueued",
      "engram.bus.attempts": 1,
      "engram.bus.outcome": "handled",
    });
    expect(consumer.status.code).toBe(SpanStatusCode.UNSET);
    expect(active).toEqual([`00-${consumer.spanContext().traceId}-${consumer.spanContext().spanId}-01`]);
  });

  it("the trace context survives the transactional outbox", async () => {
    const db: SqliteDatabase = openSqlite({ dataDir: dir, name: "svc", migrations: [OUTBOX_TABLE_SQL] });
    const outbox = new SqliteOutbox(db);
    const relay = new OutboxRelay("trace-test", outbox, bus, silentLogger, { idleMs: 20 });
    try {
      const { span } = inRequest(() => db.transaction(() => outbox.add([eventMessage("DocumentDeleted", "d1", doc("d1"))]))());
      await bus.subscribe({ group: "memories", topics: [TOPICS.documents], handler: async () => undefined });
      relay.start();
      const spans = await recorder.waitFor((s) => s.some((x) => x.kind === SpanKind.CONSUMER));
      const producer = one(spans, SpanKind.PRODUCER);
      const consumer = one(spans, SpanKind.CONSUMER);
      expect(producer.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
      expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
      expect(consumer.spanContext().traceId).toBe(span.spanContext().traceId);
    } finally {
      await relay.stop();
      db.close();
    }
  });

  it("failed attempts are retry events on the one consumer span; a dead letter fails it", async () => {
    const m = eventMessage("DocumentQueued", "poison", doc("poison"), { traceparent: CALLER });
    await bus.subscribe({
      group: "pipeline-worker",
      topics: [TOPICS.documents],
      handler: async () => {
        throw new Error("cannot parse");
      },
    });
    await bus.publish([m]);
    const spans = await recorder.waitFor((s) => s.some((x) => x.kind === SpanKind.CONSUMER));
    const consumer = one(spans, SpanKind.CONSUMER);
    expect(consumer.spanContext().traceId).toBe(TRACE_ID);
    expect(consumer.status).toEqual({ code: SpanStatusCode.ERROR, message: "cannot parse" });
    expect(consumer.events.map((e) => e.name)).toEqual(["retry", "retry", "exception", "dead-lettered"]);
    expect(consumer.events[0]!.attributes).toMatchObject({ "engram.bus.attempt": 1, "exception.message": "cannot parse" });
    expect(consumer.events[3]!.attributes).toMatchObject({ "engram.bus.attempts": 3, "engram.bus.dead_letter_topic": `${TOPICS.documents}.dlq` });
    expect(consumer.attributes).toMatchObject({ "engram.bus.attempts": 3, "engram.bus.outcome": "dead-lettered" });
  });

  it("a handler that recovers leaves one consumer span with the failed attempt as an event and no error", async () => {
    const m = eventMessage("DocumentQueued", "flaky", doc("flaky"), { traceparent: CALLER });
    await bus.subscribe({
      group: "pipeline-worker",
      topics: [TOPICS.documents],
      handler: async (d) => {
        if (d.attempt < 2) throw new Error("transient");
      },
    });
    await bus.publish([m]);
    const consumer = one(await recorder.waitFor((s) => s.some((x) => x.kind === SpanKind.CONSUMER)), SpanKind.CONSUMER);
    expect(consumer.events.map((e) => e.name)).toEqual(["retry"]);
    expect(consumer.status.code).toBe(SpanStatusCode.UNSET);
    expect(consumer.attributes).toMatchObject({ "engram.bus.attempts": 2, "engram.bus.outcome": "handled" });
  });

  it("the Kafka adapter's consumer span continues the trace in the record's headers", async () => {
    const m: OutgoingMessage = eventMessage("DocumentQueued", "k1", doc("k1"), { traceparent: CALLER });
    const producer = one(recorder.spans(), SpanKind.PRODUCER);
    const record: KafkaMessage = {
      key: Buffer.from("k1"),
      value: Buffer.from(m.value),
      offset: "41",
      timestamp: "0",
      attributes: 0,
      headers: toKafkaHeaders(m.headers),
    };
    const handled: DeliveredMessage[] = [];
    const ctx: BatchContext = {
      group: "pipeline-worker",
      handler: async (d) => void handled.push(d),
      maxAttempts: 3,
      backoffMs: 1,
      maxBackoffMs: 4,
      heartbeatIntervalMs: 1000,
      log: silentLogger,
      deadLetter: async () => undefined,
      stopping: () => false,
      wait: (ms) => sleep(ms),
      groupChange: {},
    };
    await consumeBatch(
      {
        batch: { topic: TOPICS.documents, partition: 3, highWatermark: "42", messages: [record] },
        resolveOffset: () => undefined,
        heartbeat: async () => undefined,
        commitOffsetsIfNecessary: async () => undefined,
        isRunning: () => true,
        isStale: () => false,
      },
      ctx,
    );
    await until(() => handled.length === 1, "handled");
    const consumer = one(recorder.spans(), SpanKind.CONSUMER);
    expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
    expect(consumer.spanContext().traceId).toBe(TRACE_ID);
    expect(consumer.attributes).toMatchObject({
      "messaging.system": "kafka",
      "messaging.destination.name": TOPICS.documents,
      "messaging.destination.partition.id": "3",
      "messaging.consumer.group.name": "pipeline-worker",
      "messaging.kafka.offset": 41,
      "engram.bus.outcome": "handled",
    });
  });
});
