/**
 * The parts of the Kafka adapter that need no broker: conversions, logging,
 * lag arithmetic and the per-batch delivery loop (driven here through the
 * same payload kafkajs hands to eachBatch). The adapter against a real broker
 * is covered by event-bus.kafka.test.ts.
 */
import { type IHeaders, type KafkaMessage, logLevel } from "kafkajs";
import { metrics } from "@engram/observability";
import {
  type BatchContext,
  type BatchPayload,
  consumeBatch,
  derivedRebalanceTimeout,
  KafkaAttemptLedger,
  PartitionOwnership,
  topicConfigEntries,
  fromKafkaHeaders,
  fromKafkaMessage,
  KafkaEventBus,
  kafkaLogCreator,
  kafkaLogLevel,
  toKafkaHeaders,
  toKafkaMessage,
  topicLag,
} from "../src/kafka-bus";
import type { DeliveredMessage, EventHeaders, OutgoingMessage } from "../src/port";
import { silentLogger, sleep, textMessage, textOf } from "./helpers";

describe("Kafka header conversion", () => {
  it("writes every set header as UTF-8 bytes and leaves unset ones out", () => {
    const headers = toKafkaHeaders({ "event-id": "e_1", "event-type": "DocumentQueued", traceparent: undefined, "x-note": "Grüße ✓" });
    expect(Object.keys(headers).sort()).toEqual(["event-id", "event-type", "x-note"]);
    for (const v of Object.values(headers)) expect(Buffer.isBuffer(v)).toBe(true);
    expect((headers["x-note"] as Buffer).equals(Buffer.from("Grüße ✓", "utf8"))).toBe(true);
  });

  it("reads Buffers and strings back, the last value of a repeated header winning", () => {
    const raw: IHeaders = {
      "event-id": Buffer.from("e_1"),
      "event-type": "DocumentQueued",
      repeated: [Buffer.from("first"), Buffer.from("second")],
      missing: undefined,
    };
    expect(fromKafkaHeaders(raw)).toEqual({ "event-id": "e_1", "event-type": "DocumentQueued", repeated: "second" });
    expect(fromKafkaHeaders(undefined)).toEqual({});
  });

  it("round-trips port headers", () => {
    const headers: EventHeaders = {
      "event-id": "e_2",
      "event-type": "DocumentDeleted",
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      "x-request-id": "r-9",
    };
    expect(fromKafkaHeaders(toKafkaHeaders(headers))).toEqual(headers);
  });
});

describe("Kafka message conversion", () => {
  it("sends the key as the message key and the value's own bytes, even for a view into a larger buffer", () => {
    const backing = new Uint8Array([9, 9, 0, 255, 128, 7, 9]);
    const out: OutgoingMessage = { topic: "t", key: "d_42", value: backing.subarray(2, 6), headers: { "event-id": "e", "event-type": "T" } };
    const m = toKafkaMessage(out);
    expect(m.key).toBe("d_42");
    expect([...(m.value as Buffer)]).toEqual([0, 255, 128, 7]);
    expect(m.partition).toBeUndefined(); // the partitioner picks it from the key
  });

  it("delivers a fetched record with a numeric offset, a copied value and decoded headers", () => {
    const value = Buffer.from([1, 2, 3]);
    const record = { key: Buffer.from("d_7"), value, offset: "123", headers: { "event-id": Buffer.from("e_7"), "event-type": Buffer.from("T") } };
    const d = fromKafkaMessage("engram.documents.v1", 4, record as unknown as KafkaMessage, 2);
    expect(d).toEqual({
      topic: "engram.documents.v1",
      partition: 4,
      offset: 123,
      key: "d_7",
      value: new Uint8Array([1, 2, 3]),
      headers: { "event-id": "e_7", "event-type": "T" },
      attempt: 2,
    });
    value[0] = 99;
    expect(d.value[0]).toBe(1);
  });

  it("a record without key or value (a tombstone) gets an empty key and value", () => {
    const d = fromKafkaMessage("t", 0, { key: null, value: null, offset: "0", headers: {} } as unknown as KafkaMessage);
    expect(d.key).toBe("");
    expect(d.value).toEqual(new Uint8Array(0));
  });
});

describe("kafkajs logging", () => {
  it("uses the most verbose level the pino logger emits", () => {
    expect(kafkaLogLevel(silentLogger.child({}, { level: "trace" }))).toBe(logLevel.DEBUG);
    expect(kafkaLogLevel(silentLogger.child({}, { level: "info" }))).toBe(logLevel.INFO);
    expect(kafkaLogLevel(silentLogger.child({}, { level: "warn" }))).toBe(logLevel.WARN);
    expect(kafkaLogLevel(silentLogger.child({}, { level: "fatal" }))).toBe(logLevel.NOTHING);
    expect(kafkaLogLevel(silentLogger.child({}, { level: "silent" }))).toBe(logLevel.NOTHING);
  });

  it("routes each entry to the pino method of its level with its namespace and fields", () => {
    const logger = silentLogger.child({}, { level: "debug" });
    const spies = {
      error: jest.spyOn(logger, "error").mockImplementation(() => undefined),
      warn: jest.spyOn(logger, "warn").mockImplementation(() => undefined),
      info: jest.spyOn(logger, "info").mockImplementation(() => undefined),
      debug: jest.spyOn(logger, "debug").mockImplementation(() => undefined),
    };
    const log = kafkaLogCreator(logger)(logLevel.DEBUG);
    const entry = (level: logLevel, message: string, extra: Record<string, unknown> = {}) => ({
      namespace: "Consumer",
      level,
      label: "X",
      log: { timestamp: "2024-01-01T00:00:00.000Z", logger: "kafkajs", message, ...extra },
    });
    log(entry(logLevel.ERROR, "Crash: KafkaJSNumberOfRetriesExceeded", { groupId: "g", retryCount: 5 }));
    log(entry(logLevel.WARN, "rebalancing"));
    log(entry(logLevel.INFO, "Starting", { groupId: "g" }));
    log(entry(logLevel.DEBUG, "fetch"));
    expect(spies.error).toHaveBeenCalledWith({ kafkajs: "Consumer", groupId: "g", retryCount: 5 }, "Crash: KafkaJSNumberOfRetriesExceeded");
    expect(spies.warn).toHaveBeenCalledWith({ kafkajs: "Consumer" }, "rebalancing");
    expect(spies.info).toHaveBeenCalledWith({ kafkajs: "Consumer", groupId: "g" }, "Starting");
    expect(spies.debug).toHaveBeenCalledWith({ kafkajs: "Consumer" }, "fetch");
    for (const spy of Object.values(spies)) expect(spy).toHaveBeenCalledTimes(1);
  });
});

describe("topicLag", () => {
  const ends = [
    { partition: 0, low: "0", high: "10" },
    { partition: 1, low: "5", high: "8" },
    { partition: 2, low: "0", high: "0" },
  ];

  it("sums high watermark minus committed offset over partitions", () => {
    expect(
      topicLag(
        [
          { partition: 0, offset: "7" },
          { partition: 1, offset: "8" },
          { partition: 2, offset: "0" },
        ],
        ends,
      ),
    ).toBe(3);
  });

  it("counts a partition without a committed offset from its earliest retained message", () => {
    expect(topicLag([{ partition: 0, offset: "-1" }], ends)).toBe(10 + 3);
  });
});

// -- the per-batch delivery loop --

interface Driver {
  payload: BatchPayload;
  ctx: BatchContext;
  /** commit/resolve/dlq/handler events in order */
  events: string[];
  delivered: DeliveredMessage[];
  heartbeats: () => number;
  set: (s: { stopping?: boolean; running?: boolean; heartbeatError?: unknown; commitError?: unknown }) => void;
}

function record(offset: number, key: string, text: string): KafkaMessage {
  const m = textMessage("t", key, text);
  return { key: Buffer.from(key), value: Buffer.from(m.value), offset: String(offset), timestamp: "0", attributes: 0, headers: toKafkaHeaders(m.headers) };
}

function driver(records: KafkaMessage[], handler: (m: DeliveredMessage) => Promise<void>, ctxOverrides: Partial<BatchContext> = {}): Driver {
  const events: string[] = [];
  const delivered: DeliveredMessage[] = [];
  const state = { stopping: false, running: true, heartbeatError: undefined as unknown, commitError: undefined as unknown, heartbeats: 0 };
  const payload: BatchPayload = {
    batch: { topic: "t", partition: 2, highWatermark: String(Number(records[records.length - 1]?.offset ?? 0) + 5), messages: records },
    resolveOffset: (offset) => void events.push(`resolve ${offset}`),
    heartbeat: async () => {
      state.heartbeats++;
      if (state.heartbeatError) throw state.heartbeatError;
    },
    commitOffsetsIfNecessary: async (offsets) => {
      if (state.commitError) throw state.commitError;
      const [topic] = offsets!.topics;
      events.push(`commit ${topic!.topic}/${topic!.partitions[0]!.partition}@${topic!.partitions[0]!.offset}`);
    },
    isRunning: () => state.running,
    isStale: () => false,
  };
  const ctx: BatchContext = {
    group: "g",
    handler: async (m) => {
      delivered.push(m);
      events.push(`handle ${textOf(m.value)}#${m.attempt}`);
      await handler(m);
    },
    maxAttempts: 3,
    backoffMs: 1,
    maxBackoffMs: 4,
    heartbeatIntervalMs: 1000,
    log: silentLogger,
    deadLetter: async (m) => void events.push(`dlq ${m.topic} ${textOf(m.value)} attempts=${m.headers["dlq-attempts"]} offset=${m.headers["dlq-offset"]}`),
    stopping: () => state.stopping,
    wait: (ms) => sleep(ms),
    groupChange: {},
    ...ctxOverrides,
  };
  return { payload, ctx, events, delivered, heartbeats: () => state.heartbeats, set: (s) => Object.assign(state, s) };
}

const rebalance = () => Object.assign(new Error("The group is rebalancing, so a rejoin is needed"), { type: "REBALANCE_IN_PROGRESS" });

describe("consumeBatch", () => {
  it("handles messages in offset order and commits offset + 1 after each, before the next one starts", async () => {
    const d = driver([record(100, "k", "a"), record(101, "k", "b"), record(102, "k", "c")], async () => {});
    await consumeBatch(d.payload, d.ctx);
    expect(d.events).toEqual([
      "handle a#1",
      "commit t/2@101",
      "resolve 100",
      "handle b#1",
      "commit t/2@102",
      "resolve 101",
      "handle c#1",
      "commit t/2@103",
      "resolve 102",
    ]);
    expect(d.delivered.map((m) => [m.topic, m.partition, m.offset, m.key])).toEqual([
      ["t", 2, 100, "k"],
      ["t", 2, 101, "k"],
      ["t", 2, 102, "k"],
    ]);
    expect(d.delivered[0]!.headers).toEqual({ "event-id": "k-a", "event-type": "Test" });
  });

  it("sets engram_bus_consumer_lag of the group's partition to the high watermark minus the committed offset after each message", async () => {
    const lag = async () => Number(/^engram_bus_consumer_lag\{group="lag-g",topic="t",partition="2"\} (\d+)$/m.exec(await metrics.exposition())?.[1]);
    const seen: number[] = [];
    // highWatermark = last offset + 5 = 17: after offset 10 is committed (next 11) 6 remain, after 11 and 12, 5 and 4.
    const d = driver([record(10, "k", "a"), record(11, "k", "b"), record(12, "k", "c")], async () => void seen.push(await lag()), { group: "lag-g" });
    await consumeBatch(d.payload, d.ctx);
    expect(seen.slice(1)).toEqual([6, 5]); // read by the next handler: the lag left by the previous message
    expect(await lag()).toBe(4);
  });

  it("retries a failing handler up to maxAttempts, dead-letters, commits and goes on with the partition", async () => {
    const d = driver([record(7, "k", "poison"), record(8, "k", "next")], async (m) => {
      if (textOf(m.value) === "poison") throw new Error("cannot parse");
    });
    await consumeBatch(d.payload, d.ctx);
    expect(d.events).toEqual([
      "handle poison#1",
      "handle poison#2",
      "handle poison#3",
      "dlq t.dlq poison attempts=3 offset=7",
      "commit t/2@8",
      "resolve 7",
      "handle next#1",
      "commit t/2@9",
      "resolve 8",
    ]);
  });

  it("a handler that recovers is committed without a dead letter", async () => {
    const d = driver([record(0, "k", "flaky")], async (m) => {
      if (m.attempt < 2) throw new Error("transient");
    });
    await consumeBatch(d.payload, d.ctx);
    expect(d.events).toEqual(["handle flaky#1", "handle flaky#2", "commit t/2@1", "resolve 0"]);
  });

  it("does not commit a message whose dead letter could not be published", async () => {
    const d = driver([record(0, "k", "poison")], async () => Promise.reject(new Error("bad")), {
      maxAttempts: 1,
      deadLetter: () => Promise.reject(new Error("broker unavailable")),
    });
    await expect(consumeBatch(d.payload, d.ctx)).rejects.toThrow("broker unavailable");
    expect(d.events).toEqual(["handle poison#1"]);
  });

  it("a close during the retry wait abandons the message uncommitted and handles nothing more", async () => {
    const d: Driver = driver([record(0, "k", "failing"), record(1, "k", "later")], async () => {
      d.set({ stopping: true });
      throw new Error("fails while closing");
    });
    await consumeBatch(d.payload, d.ctx);
    expect(d.events).toEqual(["handle failing#1"]);
  });

  it("a close while a handler runs lets it finish and commit, then stops", async () => {
    const d: Driver = driver([record(0, "k", "in-flight"), record(1, "k", "later")], async () => {
      d.set({ stopping: true, running: false });
      await sleep(20);
    });
    await consumeBatch(d.payload, d.ctx);
    expect(d.events).toEqual(["handle in-flight#1", "commit t/2@1", "resolve 0"]);
  });

  it("on a rebalance it commits the finished message, stops, and hands the rebalance to kafkajs", async () => {
    const d: Driver = driver([record(0, "k", "a"), record(1, "k", "b")], async () => {
      d.set({ heartbeatError: rebalance() });
    });
    await expect(consumeBatch(d.payload, d.ctx)).rejects.toMatchObject({ type: "REBALANCE_IN_PROGRESS" });
    expect(d.events).toEqual(["handle a#1", "commit t/2@1", "resolve 0"]);
    expect(d.ctx.groupChange.error).toBeDefined();
  });

  it("a rebalance seen by another partition's batch stops this one before its next message", async () => {
    const d = driver([record(0, "k", "a")], async () => {});
    d.ctx.groupChange.error = rebalance();
    await expect(consumeBatch(d.payload, d.ctx)).rejects.toMatchObject({ type: "REBALANCE_IN_PROGRESS" });
    expect(d.events).toEqual([]);
  });

  it("does not rethrow a rebalance while stopping (kafkajs would re-join instead of leaving)", async () => {
    const d: Driver = driver([record(0, "k", "a"), record(1, "k", "b")], async () => {
      d.set({ heartbeatError: rebalance(), stopping: true });
    });
    await consumeBatch(d.payload, d.ctx);
    expect(d.events).toEqual(["handle a#1", "commit t/2@1", "resolve 0"]);
  });

  it("a failed commit is not resolved and fails the batch", async () => {
    const d = driver([record(0, "k", "a"), record(1, "k", "b")], async () => {});
    d.set({ commitError: Object.assign(new Error("generation is stale"), { type: "ILLEGAL_GENERATION" }) });
    await expect(consumeBatch(d.payload, d.ctx)).rejects.toThrow("generation is stale");
    expect(d.events).toEqual(["handle a#1"]);
    expect(d.ctx.groupChange.error).toBeDefined();
  });

  it("heartbeats while a long handler runs and through a long backoff", async () => {
    const slow = driver([record(0, "k", "slow")], () => sleep(120), { heartbeatIntervalMs: 20 });
    await consumeBatch(slow.payload, slow.ctx);
    // ~6 keep-alive beats during the handler plus one after the commit.
    expect(slow.heartbeats()).toBeGreaterThanOrEqual(4);

    const backoff = driver(
      [record(0, "k", "retry")],
      async (m) => {
        if (m.attempt === 1) throw new Error("once");
      },
      { heartbeatIntervalMs: 20, backoffMs: 120, maxBackoffMs: 120 },
    );
    const started = Date.now();
    await consumeBatch(backoff.payload, backoff.ctx);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    expect(backoff.heartbeats()).toBeGreaterThanOrEqual(6);
    expect(backoff.events).toEqual(["handle retry#1", "handle retry#2", "commit t/2@1", "resolve 0"]);
  });
});

describe("KafkaAttemptLedger with consumeBatch (attempts across a crashed member)", () => {
  /** A broker double for the group's committed offsets, with their metadata. */
  function broker(initial: { offset: string; metadata: string | null }) {
    const committed = new Map<number, { offset: string; metadata: string | null }>([[2, initial]]);
    const io = {
      fetches: 0,
      fetchCommitted: async () => {
        io.fetches++;
        return [...committed].map(([partition, c]) => ({ partition, ...c }));
      },
      commit: async (entries: { topic: string; partition: number; offset: string; metadata: string }[]) => {
        for (const e of entries) committed.set(e.partition, { offset: e.offset, metadata: e.metadata });
      },
    };
    return { io, committed };
  }

  it("records each attempt in the committed offset's metadata before the handler runs", async () => {
    const b = broker({ offset: "7", metadata: null });
    const seen: (string | null | undefined)[] = [];
    const d = driver([record(7, "k", "a")], async () => void seen.push(b.committed.get(2)?.metadata), {
      attempts: new KafkaAttemptLedger("g", b.io),
    });
    await consumeBatch(d.payload, d.ctx);
    expect(seen).toEqual(['{"attempts":1}']);
    expect(d.events).toEqual(["handle a#1", "commit t/2@8", "resolve 7"]);
  });

  it("continues the count a stopped member left, and dead-letters without running the handler once it is spent", async () => {
    const b = broker({ offset: "7", metadata: '{"attempts":2}' });
    const d = driver([record(7, "k", "poison"), record(8, "k", "next")], async () => {}, { attempts: new KafkaAttemptLedger("g", b.io) });
    await consumeBatch(d.payload, d.ctx);
    expect(d.events.slice(0, 3)).toEqual(["handle poison#3", "commit t/2@8", "resolve 7"]);

    const spent = broker({ offset: "7", metadata: '{"attempts":3}' });
    const e = driver([record(7, "k", "poison"), record(8, "k", "next")], async () => {}, { attempts: new KafkaAttemptLedger("g", spent.io) });
    await consumeBatch(e.payload, e.ctx);
    expect(e.events).toEqual(["dlq t.dlq poison attempts=3 offset=7", "commit t/2@8", "resolve 7", "handle next#1", "commit t/2@9", "resolve 8"]);
    // The next message's count was known without asking the broker again.
    expect(spent.io.fetches).toBe(1);
  });

  it("a handler stopped by the shutdown: its signal aborts, the message is not committed, and its attempt is un-counted", async () => {
    const b = broker({ offset: "7", metadata: '{"attempts":1}' });
    const closing = new AbortController();
    let stopping = false;
    let seen: AbortSignal | undefined;
    const d = driver(
      [record(7, "k", "big"), record(8, "k", "next")],
      (m) =>
        new Promise<void>((_, reject) => {
          seen = m.signal;
          m.signal!.addEventListener("abort", () => reject(m.signal!.reason), { once: true });
          // The shutdown arrives while the handler runs.
          setImmediate(() => {
            stopping = true;
            closing.abort(new Error("the event subscription is closing"));
          });
        }),
      { attempts: new KafkaAttemptLedger("g", b.io), closing: closing.signal, stopping: () => stopping },
    );
    await consumeBatch(d.payload, d.ctx);
    expect(seen?.aborted).toBe(true);
    // Attempt 2 started and was cut short: the ledger is back at 1, nothing committed past 7, "next" never started.
    expect(d.events).toEqual(["handle big#2"]);
    expect(b.committed.get(2)).toEqual({ offset: "7", metadata: '{"attempts":1}' });
  });

  it("ignores metadata that belongs to another offset or is not ours", async () => {
    for (const initial of [
      { offset: "6", metadata: '{"attempts":3}' },
      { offset: "7", metadata: "written by another tool" },
    ]) {
      const b = broker(initial);
      const d = driver([record(7, "k", "a")], async () => {}, { attempts: new KafkaAttemptLedger("g", b.io) });
      await consumeBatch(d.payload, d.ctx);
      expect(d.events[0]).toBe("handle a#1");
    }
  });
});

describe("KafkaEventBus options", () => {
  it("refuses an empty broker list and inconsistent timeouts, naming every problem", () => {
    expect(
      () => new KafkaEventBus({ brokers: [], clientId: "c", logger: silentLogger, maxAttempts: 0, heartbeatIntervalMs: 5000, sessionTimeoutMs: 3000 }),
    ).toThrow(/brokers[\s\S]*maxAttempts[\s\S]*heartbeatIntervalMs: must be lower than sessionTimeoutMs/);
  });

  it("publish and subscribe refuse to run after close (without ever connecting)", async () => {
    const bus = new KafkaEventBus({ brokers: ["127.0.0.1:1"], clientId: "c", logger: silentLogger });
    await bus.close();
    await bus.close(); // idempotent
    await expect(bus.publish([textMessage("t", "k", "late")])).rejects.toThrow(/closed/);
    await expect(bus.subscribe({ group: "g", topics: ["t"], handler: async () => {} })).rejects.toThrow(/closed/);
  });
});

describe("rebalance timeout and partition ownership", () => {
  it("raises the rebalance timeout above the longest handler (plus two heartbeats and ten seconds), never below the configured one", () => {
    expect(derivedRebalanceTimeout(60_000, 3_000)).toBe(60_000);
    expect(derivedRebalanceTimeout(60_000, 3_000, 20_000)).toBe(60_000);
    expect(derivedRebalanceTimeout(60_000, 3_000, 210_000)).toBe(226_000);
  });

  it("gives event topics and dead-letter topics explicit durability and retention", () => {
    const s = { minInsyncReplicas: 2, retentionMs: 1000, deadLetterRetentionMs: 9000 };
    expect(topicConfigEntries(s, "engram.documents.v1")).toEqual([
      { name: "min.insync.replicas", value: "2" },
      { name: "retention.ms", value: "1000" },
      { name: "cleanup.policy", value: "delete" },
    ]);
    expect(topicConfigEntries(s, "engram.documents.v1.dlq")).toContainEqual({ name: "retention.ms", value: "9000" });
  });

  it("refuses min.insync.replicas above the replication factor", () => {
    expect(() => new KafkaEventBus({ brokers: ["b:1"], clientId: "c", logger: silentLogger, replicationFactor: 1, minInsyncReplicas: 2 })).toThrow(
      /minInsyncReplicas/,
    );
  });

  it("aborts the delivered messages' signal when the member is evicted, and gives the next generation a fresh one", async () => {
    const own = new PartitionOwnership(60_000, 1_000);
    const d = driver(
      [record(0, "k", "a")],
      async () => {
        d.set({ heartbeatError: Object.assign(new Error("The coordinator is not aware of this member"), { type: "UNKNOWN_MEMBER_ID" }) });
        await d.payload.heartbeat().catch(() => undefined);
        d.ctx.groupChange.error = undefined;
      },
      { ownership: own },
    );
    // The handler's own heartbeat failure is seen by the loop's next beat.
    await consumeBatch(d.payload, d.ctx).catch(() => undefined);
    const signal = d.delivered[0]!.signal!;
    expect(signal.aborted).toBe(true);
    own.rejoined();
    expect(own.signal.aborted).toBe(false);
    expect(own.signal).not.toBe(signal);
  });

  it("a rebalance that lasts nearly the rebalance timeout counts as lost ownership; a re-join in time keeps it", () => {
    jest.useFakeTimers();
    try {
      const own = new PartitionOwnership(10_000, 1_000);
      own.rebalancing();
      jest.advanceTimersByTime(7_999);
      expect(own.signal.aborted).toBe(false);
      jest.advanceTimersByTime(1);
      expect(own.signal.aborted).toBe(true);
      own.rejoined();
      own.rebalancing();
      jest.advanceTimersByTime(5_000);
      own.rejoined();
      jest.advanceTimersByTime(60_000);
      expect(own.signal.aborted).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});
