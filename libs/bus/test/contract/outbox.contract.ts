import type { EmbeddedEventBus } from "../../src/embedded-bus";
import type { OutboxRelay, OutboxRelayOptions, OutboxStore } from "../../src/outbox";
import type { EventBus, OutgoingMessage } from "../../src/port";
import { openBus, removeDir, tempDir, textMessage, textOf, until } from "../helpers";

export const OUTBOX_TEST_TOPIC = "engram.outbox-test.v1";

/**
 * One outbox adapter under test. `open` gives a fresh, empty outbox per test;
 * `store()` is a handle on it as one relay process sees it: each call is
 * another process (a replica, or the same service after a restart).
 */
export interface OutboxHarness {
  /** Stores a record and its events in one transaction; `fail` aborts that transaction after the events were added. */
  write(recordId: string, messages: OutgoingMessage[], fail?: boolean): Promise<void>;
  store(): OutboxStore<unknown>;
  /** A relay on a store handle (the adapter's relay class). */
  relay(store: OutboxStore<unknown>, bus: EventBus, opts?: OutboxRelayOptions): OutboxRelay<unknown>;
  /** Rows still to publish, in publish order, without claiming them. */
  unpublished(): Promise<OutgoingMessage[]>;
  backlog(): Promise<number>;
  /** How long rows of a relay that died stay blocked (the claim lease; 0 without claims). */
  claimMs: number;
  close(): Promise<void>;
}

/** A bus whose publish can be made to fail, recording what got through. */
export class FlakyBus implements EventBus {
  failing = false;
  failures = 0;
  readonly published: OutgoingMessage[] = [];
  constructor(private readonly inner: EventBus) {}
  async publish(messages: OutgoingMessage[]): Promise<void> {
    if (this.failing) {
      this.failures++;
      throw new Error("broker unavailable");
    }
    await this.inner.publish(messages);
    this.published.push(...messages);
  }
  subscribe: EventBus["subscribe"] = (opts) => this.inner.subscribe(opts);
  close = () => this.inner.close();
}

/** A store handle whose process "dies" right after the bus acknowledged a batch (nothing gets marked). */
export function crashingAfterPublish(store: OutboxStore<unknown>): OutboxStore<unknown> {
  return {
    pending: (limit) => store.pending(limit),
    backlog: () => store.backlog(),
    remove: () => {
      throw new Error("process died before marking the batch");
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The behaviour every outbox adapter shares; `open` is called once per test. */
export function outboxContract(open: () => Promise<OutboxHarness>): void {
  let dir: string;
  let bus: EmbeddedEventBus;
  let h: OutboxHarness;
  const relays: OutboxRelay<unknown>[] = [];

  beforeEach(async () => {
    dir = tempDir("engram-outbox-");
    bus = openBus(dir);
    h = await open();
  });

  afterEach(async () => {
    for (const r of relays.splice(0)) await r.stop().catch(() => undefined);
    await bus.close();
    await h.close();
    removeDir(dir);
  });

  const relay = (store: OutboxStore<unknown>, b: EventBus = bus, opts: OutboxRelayOptions = {}) => {
    const r = h.relay(store, b, opts);
    relays.push(r);
    return r;
  };

  async function consume(group: string): Promise<string[]> {
    const got: string[] = [];
    await bus.subscribe({
      group,
      topics: [OUTBOX_TEST_TOPIC],
      handler: async (m) => void got.push(`${m.key}:${textOf(m.value)}:${m.headers["event-id"]}`),
    });
    return got;
  }

  it("stores messages with the transaction and drops them with a rolled-back one", async () => {
    await h.write("r1", [textMessage(OUTBOX_TEST_TOPIC, "r1", "created"), textMessage(OUTBOX_TEST_TOPIC, "r1", "indexed")]);
    await expect(h.write("r2", [textMessage(OUTBOX_TEST_TOPIC, "r2", "created")], true)).rejects.toThrow("write aborted");
    expect(await h.backlog()).toBe(2);
    const pending = await h.unpublished();
    expect(pending.map((m) => textOf(m.value))).toEqual(["created", "indexed"]);
    expect(pending[0]).toMatchObject({ topic: OUTBOX_TEST_TOPIC, key: "r1", headers: { "event-id": "r1-created", "event-type": "Test" } });
    // Optional headers that are absent stay absent; the payload bytes are kept exactly.
    expect(pending[0]!.headers).toEqual({ "event-id": "r1-created", "event-type": "Test" });
    const binary = { ...textMessage(OUTBOX_TEST_TOPIC, "r3", "bin"), value: new Uint8Array([0, 255, 1, 128, 0]) };
    await h.write("r3", [binary]);
    expect(Array.from((await h.unpublished())[2]!.value)).toEqual([0, 255, 1, 128, 0]);
  });

  it("the relay publishes pending rows and removes them", async () => {
    const got = await consume("reader");
    await h.write("r1", [textMessage(OUTBOX_TEST_TOPIC, "r1", "a"), textMessage(OUTBOX_TEST_TOPIC, "r1", "b")]);
    await h.write("r2", [textMessage(OUTBOX_TEST_TOPIC, "r2", "c", { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" })]);
    const r = relay(h.store(), bus, { idleMs: 50 });
    r.start();
    await until(() => got.length === 3, "published rows");
    expect(got).toEqual(expect.arrayContaining(["r1:a:r1-a", "r1:b:r1-b", "r2:c:r2-c"]));
    expect(got.indexOf("r1:a:r1-a")).toBeLessThan(got.indexOf("r1:b:r1-b"));
    await waitFor(async () => (await h.backlog()) === 0, "rows removed");

    // Later writes are picked up on notify().
    await h.write("r3", [textMessage(OUTBOX_TEST_TOPIC, "r3", "d")]);
    r.notify();
    await until(() => got.length === 4, "notified row");
    await waitFor(async () => (await h.backlog()) === 0, "notified row removed");
    expect(await h.unpublished()).toEqual([]);
  });

  it("publishes each key's rows in the order they were written, across transactions and batches", async () => {
    const flaky = new FlakyBus(bus);
    const keys = ["k1", "k2", "k3", "k4", "k5"];
    // 5 keys x 12 events, written in 20 interleaved transactions of 3 events each.
    for (let t = 0; t < 20; t++) {
      const msgs: OutgoingMessage[] = [];
      for (let j = 0; j < 3; j++) {
        const n = t * 3 + j;
        const key = keys[n % keys.length]!;
        msgs.push(textMessage(OUTBOX_TEST_TOPIC, key, String(Math.floor(n / keys.length)).padStart(3, "0")));
      }
      await h.write(`t${t}`, msgs);
    }
    // Small batches: every key's rows span several of them.
    const r = relay(h.store(), flaky, { batchSize: 7 });
    expect(await r.flush()).toBe(60);
    expect(await h.backlog()).toBe(0);
    for (const key of keys) {
      const seen = flaky.published.filter((m) => m.key === key).map((m) => textOf(m.value));
      expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => String(i).padStart(3, "0")));
    }
  });

  it("flush keeps the rows when publish rejects", async () => {
    const flaky = new FlakyBus(bus);
    const r = relay(h.store(), flaky);
    await h.write("r1", [textMessage(OUTBOX_TEST_TOPIC, "r1", "a"), textMessage(OUTBOX_TEST_TOPIC, "r1", "b")]);
    flaky.failing = true;
    await expect(r.flush()).rejects.toThrow("broker unavailable");
    expect(await h.backlog()).toBe(2);
    flaky.failing = false;
    await expect(r.flush()).resolves.toBe(2);
    expect(await h.backlog()).toBe(0);
    expect(flaky.published.map((m) => textOf(m.value))).toEqual(["a", "b"]);
  });

  it("a running relay retries after publish failures and publishes once the bus recovers", async () => {
    const got = await consume("reader");
    const flaky = new FlakyBus(bus);
    flaky.failing = true;
    await h.write("r1", [textMessage(OUTBOX_TEST_TOPIC, "r1", "a")]);
    const r = relay(h.store(), flaky, { idleMs: 20 });
    r.start();
    await until(() => flaky.failures >= 1, "a failed publish");
    expect(await h.backlog()).toBe(1);
    expect(got).toEqual([]);
    flaky.failing = false;
    await until(() => got.length === 1, "publish after recovery");
    await waitFor(async () => (await h.backlog()) === 0, "row removed after recovery");
    expect(got).toEqual(["r1:a:r1-a"]);
  });

  it("stop() flushes what is still pending", async () => {
    const r = relay(h.store(), bus, { idleMs: 10_000 });
    r.start();
    await waitFor(async () => (await h.backlog()) === 0, "initial idle");
    await h.write("r1", [textMessage(OUTBOX_TEST_TOPIC, "r1", "late")]);
    const got = await consume("reader");
    await r.stop();
    expect(await h.backlog()).toBe(0);
    await until(() => got.length === 1, "flushed on stop");
  });

  it("a crash between publish and mark re-publishes the batch (at least once), in order, and loses nothing", async () => {
    const flaky = new FlakyBus(bus);
    await h.write("r1", [textMessage(OUTBOX_TEST_TOPIC, "r1", "a"), textMessage(OUTBOX_TEST_TOPIC, "r1", "b")]);
    await h.write("r2", [textMessage(OUTBOX_TEST_TOPIC, "r2", "c")]);
    const dying = relay(crashingAfterPublish(h.store()), flaky);
    await expect(dying.flush()).rejects.toThrow("process died");
    expect(flaky.published.map((m) => textOf(m.value))).toEqual(["a", "b", "c"]);
    expect(await h.backlog()).toBe(3);
    await h.write("r1b", [textMessage(OUTBOX_TEST_TOPIC, "r1", "d")]);

    // The next process (after the dead one's claim, if any, expired) publishes everything again, then the new row.
    await sleep(h.claimMs + 50);
    const next = relay(h.store(), flaky);
    expect(await next.flush()).toBe(4);
    expect(await h.backlog()).toBe(0);
    const r1 = flaky.published.filter((m) => m.key === "r1").map((m) => textOf(m.value));
    expect(r1).toEqual(["a", "b", "a", "b", "d"]);
    expect(flaky.published.filter((m) => m.key === "r2").map((m) => textOf(m.value))).toEqual(["c", "c"]);
    // The re-published copies carry the same event ids (consumers deduplicate on them).
    expect(new Set(flaky.published.filter((m) => m.key === "r2").map((m) => m.headers["event-id"])).size).toBe(1);
  });
}

/** Polls an async condition. */
export async function waitFor(fn: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
