import { metrics } from "@engram/observability";
import { type EmbeddedEventBus } from "../src/embedded-bus";
import { partitionFor } from "../src/partition";
import { deadLetterTopic, type DeliveredMessage } from "../src/port";
import { openBus, removeDir, sleep, tempDir, textMessage, textOf, until } from "./helpers";

const TOPIC = "engram.test.v1";

describe("EmbeddedEventBus", () => {
  let dir: string;
  const buses: EmbeddedEventBus[] = [];
  const open = (opts: Parameters<typeof openBus>[1] = {}) => {
    const bus = openBus(dir, opts);
    buses.push(bus);
    return bus;
  };

  beforeEach(() => {
    dir = tempDir();
  });

  afterEach(async () => {
    for (const b of buses.splice(0)) await b.close();
    removeDir(dir);
  });

  it("delivers every message once, in order per key, across several keys and publishes", async () => {
    const bus = open({ fetchSize: 7 });
    const keys = ["doc-a", "doc-b", "doc-c", "doc-d", "doc-e", "doc-f"];
    // The keys must spread over more than one partition for the test to mean anything.
    expect(new Set(keys.map((k) => partitionFor(k, 8))).size).toBeGreaterThan(2);
    const perKey = 40;
    const received = new Map<string, number[]>();
    let total = 0;
    await bus.subscribe({
      group: "orderly",
      topics: [TOPIC],
      handler: async (m) => {
        // Uneven handler latency: partitions interleave, keys must not reorder.
        if (Number(textOf(m.value)) % 3 === 0) await sleep(1);
        else await new Promise((r) => setImmediate(r));
        received.set(m.key, [...(received.get(m.key) ?? []), Number(textOf(m.value))]);
        total++;
      },
    });
    for (let i = 0; i < perKey; i += 5) {
      const batch = [];
      for (let j = i; j < i + 5; j++) for (const k of keys) batch.push(textMessage(TOPIC, k, String(j)));
      await bus.publish(batch);
      if (i % 10 === 0) await sleep(2);
    }
    await until(() => total >= keys.length * perKey, "all messages");
    await sleep(30);
    expect(total).toBe(keys.length * perKey);
    const expected = Array.from({ length: perKey }, (_, i) => i);
    for (const k of keys) expect(received.get(k)).toEqual(expected);
  });

  it("gives every consumer group every message", async () => {
    const bus = open();
    const messages = Array.from({ length: 30 }, (_, i) => textMessage(TOPIC, `k${i % 4}`, `m${i}`));
    await bus.publish(messages.slice(0, 10));
    const got: Record<string, string[]> = { indexer: [], auditor: [] };
    for (const group of Object.keys(got)) {
      await bus.subscribe({ group, topics: [TOPIC], handler: async (m) => void got[group]!.push(textOf(m.value)) });
    }
    await bus.publish(messages.slice(10));
    await until(() => got.indexer!.length >= 30 && got.auditor!.length >= 30, "both groups");
    const all = messages.map((m) => textOf(m.value)).sort();
    expect([...got.indexer!].sort()).toEqual(all);
    expect([...got.auditor!].sort()).toEqual(all);
  });

  it("a new group starts from the earliest retained message", async () => {
    const bus = open();
    await bus.publish([textMessage(TOPIC, "k", "before-1"), textMessage(TOPIC, "k", "before-2")]);
    const got: string[] = [];
    await bus.subscribe({ group: "late", topics: [TOPIC], handler: async (m) => void got.push(textOf(m.value)) });
    await until(() => got.length === 2, "old messages");
    expect(got).toEqual(["before-1", "before-2"]);
  });

  it.each([
    ["throws (so its message stays uncommitted)", true, 4],
    ["returns (so its message is committed)", false, 5],
  ])("redelivers uncommitted messages after a restart, never committed ones — the stopping handler %s", async (_label, throwOnStop, firstRedelivered) => {
    const key = "doc-restart";
    const first = open();
    await first.publish(Array.from({ length: 10 }, (_, i) => textMessage(TOPIC, key, String(i))));
    const handledFirst: number[] = [];
    let closing: Promise<void> | undefined;
    await first.subscribe({
      group: "worker",
      topics: [TOPIC],
      handler: async (m) => {
        const n = Number(textOf(m.value));
        handledFirst.push(n);
        if (n === 4) {
          // Stop the bus mid-stream ("crash" between messages): not awaited, the handler is in flight.
          closing = first.close();
          if (throwOnStop) throw new Error("stopping");
        }
      },
    });
    await until(() => closing !== undefined, "the stop");
    await closing;
    expect(handledFirst).toEqual([0, 1, 2, 3, 4]);

    const second = open();
    const handledSecond: number[] = [];
    await second.subscribe({ group: "worker", topics: [TOPIC], handler: async (m) => void handledSecond.push(Number(textOf(m.value))) });
    await until(() => handledSecond.includes(9), "redelivery");
    await sleep(60);
    expect(handledSecond).toEqual(Array.from({ length: 10 - firstRedelivered }, (_, i) => firstRedelivered + i));
    expect(second.lag("worker", [TOPIC])).toBe(0);
  });

  it("retries a failing handler maxAttempts times, dead-letters the message and moves on", async () => {
    const bus = open({ maxAttempts: 4 });
    const attempts: number[] = [];
    const processed: string[] = [];
    await bus.subscribe({
      group: "pipeline",
      topics: [TOPIC],
      handler: async (m) => {
        const text = textOf(m.value);
        if (text === "poison") {
          attempts.push(m.attempt);
          throw new Error("cannot parse poison");
        }
        processed.push(text);
      },
    });
    const dead: DeliveredMessage[] = [];
    await bus.subscribe({ group: "dlq-reader", topics: [deadLetterTopic(TOPIC)], handler: async (m) => void dead.push(m) });

    await bus.publish([
      textMessage(TOPIC, "same-key", "ok-1"),
      textMessage(TOPIC, "same-key", "poison", { "event-type": "DocumentQueued" }),
      textMessage(TOPIC, "same-key", "ok-2"),
    ]);
    await until(() => processed.length === 2 && dead.length === 1, "dead letter and next message");
    await sleep(30);

    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(processed).toEqual(["ok-1", "ok-2"]);
    expect(dead).toHaveLength(1);
    const dl = dead[0]!;
    expect(dl.topic).toBe(`${TOPIC}.dlq`);
    expect(dl.key).toBe("same-key");
    expect(textOf(dl.value)).toBe("poison");
    expect(dl.headers["dlq-group"]).toBe("pipeline");
    expect(dl.headers["dlq-error"]).toBe("cannot parse poison");
    expect(dl.headers["dlq-offset"]).toBe("1");
    expect(dl.headers["event-type"]).toBe("DocumentQueued");
    expect(bus.lag("pipeline", [TOPIC])).toBe(0);
  });

  it("a handler that fails then succeeds is not dead-lettered", async () => {
    const bus = open({ maxAttempts: 5 });
    const attempts: number[] = [];
    await bus.subscribe({
      group: "flaky",
      topics: [TOPIC],
      handler: async (m) => {
        attempts.push(m.attempt);
        if (m.attempt < 3) throw new Error("transient");
      },
    });
    const dead: DeliveredMessage[] = [];
    await bus.subscribe({ group: "dlq-reader", topics: [deadLetterTopic(TOPIC)], handler: async (m) => void dead.push(m) });
    await bus.publish([textMessage(TOPIC, "k", "x")]);
    await until(() => attempts.length === 3, "three attempts");
    await sleep(60);
    expect(attempts).toEqual([1, 2, 3]);
    expect(dead).toEqual([]);
  });

  it("reports consumer lag per group and partition in engram_bus_consumer_lag", async () => {
    const bus = open();
    const key = "doc-lag";
    const partition = String(partitionFor(key, 8));
    await bus.publish(["a", "b", "c"].map((t) => textMessage(TOPIC, key, t)));
    const gaugeValue = async () => {
      const { values } = await metrics.gauge("engram_bus_consumer_lag", "", []).get();
      return values.find((v) => v.labels.group === "lagging" && v.labels.topic === TOPIC && v.labels.partition === partition)?.value;
    };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const handled: string[] = [];
    let entered = false;
    await bus.subscribe({
      group: "lagging",
      topics: [TOPIC],
      handler: async (m) => {
        entered = true;
        if (handled.length === 0) await gate;
        handled.push(textOf(m.value));
      },
    });
    // The first handler is held: nothing is committed, the whole partition is lag.
    await until(() => entered, "first delivery");
    expect(bus.lag("lagging", [TOPIC])).toBe(3);
    expect(await gaugeValue()).toBe(3);
    release();
    await until(() => handled.length === 3, "all handled");
    const deadline = Date.now() + 5000;
    while ((await gaugeValue()) !== 0 && Date.now() < deadline) await sleep(5);
    expect(await gaugeValue()).toBe(0);
  });

  it("refuses to publish after close", async () => {
    const bus = open();
    await bus.close();
    await expect(bus.publish([textMessage(TOPIC, "k", "late")])).rejects.toThrow(/closed/);
  });
});

describe("partitionFor", () => {
  it("is stable and in range", () => {
    for (const key of ["a", "doc-1", "d_0123456789ABCDEFGHIJ", ""]) {
      const p = partitionFor(key, 8);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(8);
      expect(partitionFor(key, 8)).toBe(p);
    }
  });
});
