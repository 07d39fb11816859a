import fs from "node:fs";
import path from "node:path";
import { metrics } from "@engram/observability";
import Database from "better-sqlite3";
import { type EmbeddedEventBus, PRUNE_FLOORS_SQL, PRUNE_PARTITION_SQL } from "../src/embedded-bus";
import { partitionFor } from "../src/partition";
import { openBus, removeDir, sleep, tempDir, textMessage, textOf, until } from "./helpers";

const TOPIC = "engram.test.v1";

// The port's behaviour is covered by the shared contract (event-bus.embedded.test.ts);
// these are the embedded adapter's own extras.
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

  it("commits each handled message with the next one's first attempt in one write; a crash in that attempt counts it after the restart", async () => {
    const bus = open();
    const key = "doc-chain";
    const partition = partitionFor(key, 8);
    await bus.publish(["a", "b", "c"].map((t) => textMessage(TOPIC, key, t)));
    const handled: string[] = [];
    let inB = false;
    await bus.subscribe({
      group: "chained",
      topics: [TOPIC],
      handler: async (m) => {
        if (textOf(m.value) === "b") {
          inB = true;
          // The process dies while handling b: the handler does not return (until this test's bus closes).
          await new Promise((_, reject) => m.signal!.addEventListener("abort", () => reject(m.signal!.reason as Error), { once: true }));
        }
        handled.push(textOf(m.value));
      },
    });
    await until(() => inB, "b's first attempt");
    const row = () => {
      const db = new Database(path.join(dir, "bus.db"), { readonly: true });
      try {
        return db
          .prepare("SELECT committed, inflight_attempts AS n FROM group_offsets WHERE group_id = 'chained' AND topic = ? AND partition = ?")
          .get(TOPIC, partition);
      } finally {
        db.close();
      }
    };
    // a is committed, and the same write recorded b's first attempt: no separate write before b ran.
    expect(row()).toEqual({ committed: 1, n: 1 });
    expect(handled).toEqual(["a"]);
    // The crash: bus.db as the dead process left it, opened by the next one.
    const after = path.join(dir, "restarted");
    fs.mkdirSync(after);
    for (const f of fs.readdirSync(dir)) if (f.startsWith("bus.db")) fs.copyFileSync(path.join(dir, f), path.join(after, f));
    const restarted = openBus(after);
    buses.push(restarted);
    const again: { text: string; attempt: number }[] = [];
    await restarted.subscribe({ group: "chained", topics: [TOPIC], handler: async (m) => void again.push({ text: textOf(m.value), attempt: m.attempt }) });
    await until(() => again.length === 2, "b and c after the restart");
    // a is not handled again; b's attempt in the dead process counted.
    expect(again).toEqual([
      { text: "b", attempt: 2 },
      { text: "c", attempt: 1 },
    ]);
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

  it("prunes what every group of a topic-partition committed, one primary-key range each (cost independent of what stays)", async () => {
    const bus = open();
    const key = "doc-prune";
    const p = partitionFor(key, 8);
    const offsets = (topic: string) => bus.fetch(topic, p, 0, 100).map((m) => m.offset);
    await bus.publish(Array.from({ length: 10 }, (_, i) => textMessage(TOPIC, key, `m${i}`)));
    await bus.publish([textMessage(`${TOPIC}.dlq`, key, "dead letter")]);
    bus.commit("ahead", TOPIC, p, 7);
    bus.commit("behind", TOPIC, p, 4);
    bus.prune();
    expect(offsets(TOPIC)).toEqual([4, 5, 6, 7, 8, 9]);
    // No group reads the dead letters: they stay.
    expect(offsets(`${TOPIC}.dlq`)).toEqual([0]);
    bus.commit("behind", TOPIC, p, 10);
    bus.prune();
    expect(offsets(TOPIC)).toEqual([7, 8, 9]);

    // Without statistics, as the bus runs (it never runs ANALYZE).
    const db = new Database(path.join(dir, "bus.db"), { readonly: true });
    const plan = (sql: string, ...args: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join("; ");
    try {
      expect(plan(PRUNE_PARTITION_SQL, TOPIC, p, 7)).toMatch(/^SEARCH messages USING PRIMARY KEY \(topic=\? AND partition=\? AND offset<\?\)$/);
      // The floors read group_offsets alone (a row per group, topic and partition), never the messages.
      expect(plan(PRUNE_FLOORS_SQL)).not.toMatch(/messages/);
    } finally {
      db.close();
    }
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
