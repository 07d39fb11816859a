/**
 * The EventBus port's delivery contract (libs/bus/src/port.ts), run against
 * every adapter: event-bus.embedded.test.ts and event-bus.kafka.test.ts.
 *
 * Every test uses its own topic and consumer groups under a per-run prefix, so
 * a rerun against the same broker never sees an earlier run's messages or
 * committed offsets. Waits are "until something arrives" with a deadline;
 * "nothing else arrived" is checked by publishing a marker behind the
 * messages in question on the same key (same partition, so it is delivered
 * after them) rather than by sleeping.
 */
import { deadLetterTopic, type DeliveredMessage, type EventBus, type EventHeaders, type OutgoingMessage } from "../../src/port";

export interface ContractBusOptions {
  /** Handler attempts before a message is dead-lettered. */
  maxAttempts: number;
  /** First retry delay (ms). */
  backoffMs: number;
}

export interface BusUnderTest {
  /** Opens a bus over this test's log. A second call opens another bus over the same log, as a restarted process would. */
  open(opts: ContractBusOptions): EventBus | Promise<EventBus>;
  /** Messages of `topics` that `group` has not committed yet. */
  lag(bus: EventBus, group: string, topics: string[]): number | Promise<number>;
  /** Called after every bus the test opened is closed. */
  dispose?(): void | Promise<void>;
}

export interface ContractOptions {
  /** Prefix of every topic and consumer group the suite creates. Default: `engram.contract.<random>`. */
  namePrefix?: string;
  /** Longest wait for an expected delivery. Default 5 000 ms. */
  deliveryTimeoutMs?: number;
  /** How long a still-pending close is watched before the test lets it finish. Default 100 ms. */
  quietMs?: number;
  /** Per-test timeout. Default 30 000 ms. */
  testTimeoutMs?: number;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const text = (m: { value: Uint8Array }) => dec.decode(m.value);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function contractMessage(topic: string, key: string, body: string, headers: Partial<EventHeaders> = {}): OutgoingMessage {
  return { topic, key, value: enc.encode(body), headers: { "event-id": `${key}-${body}`, "event-type": "ContractTest", ...headers } as EventHeaders };
}

export function eventBusContract(name: string, makeBus: () => BusUnderTest | Promise<BusUnderTest>, options: ContractOptions = {}): void {
  const prefix = options.namePrefix ?? `engram.contract.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const deliveryMs = options.deliveryTimeoutMs ?? 5_000;
  const quietMs = options.quietMs ?? 100;
  const testMs = options.testTimeoutMs ?? 30_000;

  describe(name, () => {
    let harness: BusUnderTest;
    let opened: EventBus[] = [];
    let n = 0;
    let topic: string;
    const group = (label: string) => `${prefix}-${n}-${label}`;

    const open = async (opts: Partial<ContractBusOptions> = {}): Promise<EventBus> => {
      const bus = await harness.open({ maxAttempts: 5, backoffMs: 5, ...opts });
      opened.push(bus);
      return bus;
    };

    /** Polls `fn` until it holds; fails naming `what` after the delivery timeout. */
    async function until(fn: () => boolean | Promise<boolean>, what: string, timeoutMs = deliveryMs): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!(await fn())) {
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await sleep(10);
      }
    }

    /** Lag falls to 0 once the last commit lands (it may trail the handler by a moment). */
    const lagDrains = async (bus: EventBus, g: string, topics: string[]) => {
      let last = -1;
      await until(async () => (last = await harness.lag(bus, g, topics)) === 0, `lag of ${g} to drain (last seen ${last})`);
    };

    beforeEach(async () => {
      n++;
      topic = `${prefix}.t${n}`;
      harness = await makeBus();
    });

    afterEach(async () => {
      const buses = opened;
      opened = [];
      for (const bus of buses) await bus.close();
      await harness.dispose?.();
    });

    it(
      "round-trips topic, key, value bytes and headers unchanged; publish([]) is a no-op",
      async () => {
        const bus = await open();
        await bus.publish([]);
        const headers: EventHeaders = {
          "event-id": "e_01HZX",
          "event-type": "DocumentQueued",
          traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
          "x-request-id": "req-7",
          "x-tenant": "acme ✓",
        };
        const value = new Uint8Array([0, 1, 127, 128, 255, 10, 0]);
        const got: DeliveredMessage[] = [];
        await bus.subscribe({ group: group("reader"), topics: [topic], handler: async (m) => void got.push(m) });
        await bus.publish([{ topic, key: "d_0123456789", value, headers }]);
        await until(() => got.length === 1, "the message");
        const m = got[0]!;
        expect(m.topic).toBe(topic);
        expect(m.key).toBe("d_0123456789");
        expect(m.value).toBeInstanceOf(Uint8Array);
        expect([...m.value]).toEqual([...value]);
        expect(m.headers).toEqual(headers);
        expect(m.attempt).toBe(1);
        expect(Number.isInteger(m.partition) && m.partition >= 0).toBe(true);
        expect(Number.isInteger(m.offset) && m.offset >= 0).toBe(true);
      },
      testMs,
    );

    it(
      "delivers every message once, in publish order per key, with one key always on one partition",
      async () => {
        const bus = await open();
        const keys = ["doc-a", "doc-b", "doc-c", "doc-d", "doc-e", "doc-f", "doc-g", "doc-h"];
        const perKey = 25;
        const received = new Map<string, number[]>();
        const partitionsOfKey = new Map<string, Set<number>>();
        let total = 0;
        await bus.subscribe({
          group: group("orderly"),
          topics: [topic],
          handler: async (m) => {
            // Uneven handler latency: partitions interleave, a key must not reorder.
            if (Number(text(m)) % 3 === 0) await sleep(1);
            else await new Promise((r) => setImmediate(r));
            received.set(m.key, [...(received.get(m.key) ?? []), Number(text(m))]);
            partitionsOfKey.set(m.key, (partitionsOfKey.get(m.key) ?? new Set()).add(m.partition));
            total++;
          },
        });
        for (let i = 0; i < perKey; i += 5) {
          const batch: OutgoingMessage[] = [];
          for (let j = i; j < Math.min(i + 5, perKey); j++) for (const k of keys) batch.push(contractMessage(topic, k, String(j)));
          await bus.publish(batch);
        }
        await until(() => total >= keys.length * perKey, "all messages");
        const expected = Array.from({ length: perKey }, (_, i) => i);
        for (const k of keys) expect(received.get(k)).toEqual(expected);
        for (const k of keys) expect(partitionsOfKey.get(k)!.size).toBe(1);
        // The keys must spread over several partitions for the ordering check to mean anything.
        expect(new Set([...partitionsOfKey.values()].map((s) => [...s][0])).size).toBeGreaterThan(1);
        // Nothing delivered twice: a marker behind every key's messages arrives with no repeat before it.
        await bus.publish(keys.map((k) => contractMessage(topic, k, "end")));
        await until(() => keys.every((k) => received.get(k)!.length === perKey + 1), "the end markers");
        expect(total).toBe(keys.length * (perKey + 1));
      },
      testMs,
    );

    it(
      "gives every consumer group every message; a new group starts from the earliest message",
      async () => {
        const bus = await open();
        const messages = Array.from({ length: 30 }, (_, i) => contractMessage(topic, `k${i % 4}`, `m${i}`));
        await bus.publish(messages.slice(0, 10));
        const got: Record<string, string[]> = { indexer: [], auditor: [] };
        for (const label of Object.keys(got)) {
          await bus.subscribe({ group: group(label), topics: [topic], handler: async (m) => void got[label]!.push(text(m)) });
        }
        await bus.publish(messages.slice(10));
        await until(() => got.indexer!.length >= 30 && got.auditor!.length >= 30, "both groups");
        const all = messages.map((m) => text(m)).sort();
        expect([...got.indexer!].sort()).toEqual(all);
        expect([...got.auditor!].sort()).toEqual(all);
      },
      testMs,
    );

    it.each([
      ["throws (so its message stays uncommitted)", true, 4],
      ["returns (so its message is committed)", false, 5],
    ])(
      "at least once across a restart: uncommitted messages are delivered again, committed ones never — the handler that is stopped %s",
      async (_label, throwOnStop, firstRedelivered) => {
        const key = "doc-restart";
        const worker = group("worker");
        const first = await open();
        await first.publish(Array.from({ length: 10 }, (_, i) => contractMessage(topic, key, String(i))));
        const handledFirst: number[] = [];
        let closing: Promise<void> | undefined;
        await first.subscribe({
          group: worker,
          topics: [topic],
          handler: async (m) => {
            const i = Number(text(m));
            handledFirst.push(i);
            if (i === 4) {
              // The process stops while this handler is in flight (not awaited: close waits for it).
              closing = first.close();
              if (throwOnStop) throw new Error("stopping");
            }
          },
        });
        await until(() => closing !== undefined, "the stop");
        await closing;
        expect(handledFirst).toEqual([0, 1, 2, 3, 4]);

        const second = await open();
        const handledSecond: number[] = [];
        await second.subscribe({ group: worker, topics: [topic], handler: async (m) => void handledSecond.push(Number(text(m))) });
        await until(() => handledSecond.includes(9), "redelivery");
        // One key, one partition: anything redelivered would come before 9.
        expect(handledSecond).toEqual(Array.from({ length: 10 - firstRedelivered }, (_, i) => firstRedelivered + i));
        await lagDrains(second, worker, [topic]);
      },
      testMs,
    );

    it(
      "retries a failing handler with growing attempt numbers, dead-letters it, and the rest of its partition goes on",
      async () => {
        const pipeline = group("pipeline");
        const bus = await open({ maxAttempts: 4 });
        const attempts: number[] = [];
        const processed: string[] = [];
        let poisonDelivery: DeliveredMessage | undefined;
        await bus.subscribe({
          group: pipeline,
          topics: [topic],
          handler: async (m) => {
            if (text(m) === "poison") {
              attempts.push(m.attempt);
              poisonDelivery = m;
              throw new Error("cannot parse poison");
            }
            processed.push(text(m));
          },
        });
        const dead: DeliveredMessage[] = [];
        await bus.subscribe({ group: group("dlq-reader"), topics: [deadLetterTopic(topic)], handler: async (m) => void dead.push(m) });

        // One key: the poison message sits between two good ones in the same partition.
        await bus.publish([
          contractMessage(topic, "same-key", "ok-1"),
          contractMessage(topic, "same-key", "poison", { "event-type": "DocumentQueued", traceparent: "00-aa-bb-01" }),
          contractMessage(topic, "same-key", "ok-2"),
        ]);
        await until(() => processed.length === 2 && dead.length === 1, "the dead letter and the message after it");
        expect(attempts).toEqual([1, 2, 3, 4]);
        expect(processed).toEqual(["ok-1", "ok-2"]);

        const dl = dead[0]!;
        expect(dl.topic).toBe(`${topic}.dlq`);
        expect(dl.key).toBe("same-key");
        expect(text(dl)).toBe("poison");
        expect(dl.headers).toEqual({
          "event-id": "same-key-poison",
          "event-type": "DocumentQueued",
          traceparent: "00-aa-bb-01",
          "dlq-group": pipeline,
          "dlq-error": "cannot parse poison",
          "dlq-partition": String(poisonDelivery!.partition),
          "dlq-offset": String(poisonDelivery!.offset),
          "dlq-attempts": "4",
        });

        // Exactly one dead letter: a marker on the same key reaches the DLQ reader right behind it.
        await bus.publish([contractMessage(deadLetterTopic(topic), "same-key", "dlq-marker")]);
        await until(() => dead.length === 2, "the DLQ marker");
        expect(dead.map(text)).toEqual(["poison", "dlq-marker"]);
        await lagDrains(bus, pipeline, [topic]);

        // The poison message was committed with the rest: a restarted consumer does not see it again.
        await bus.close();
        const restarted = await open({ maxAttempts: 4 });
        const afterRestart: string[] = [];
        await restarted.subscribe({ group: pipeline, topics: [topic], handler: async (m) => void afterRestart.push(text(m)) });
        await restarted.publish([contractMessage(topic, "same-key", "after-restart")]);
        await until(() => afterRestart.length >= 1, "the message published after the restart");
        expect(afterRestart).toEqual(["after-restart"]);
      },
      testMs,
    );

    it(
      "a handler that fails and then succeeds is committed without a dead letter",
      async () => {
        const bus = await open({ maxAttempts: 5 });
        const attempts: number[] = [];
        const done: string[] = [];
        await bus.subscribe({
          group: group("flaky"),
          topics: [topic],
          handler: async (m) => {
            if (text(m) === "flaky") {
              attempts.push(m.attempt);
              if (m.attempt < 3) throw new Error("transient");
            }
            done.push(text(m));
          },
        });
        const dead: string[] = [];
        await bus.subscribe({ group: group("dlq-reader"), topics: [deadLetterTopic(topic)], handler: async (m) => void dead.push(text(m)) });
        await bus.publish([contractMessage(topic, "k", "flaky"), contractMessage(topic, "k", "next")]);
        await until(() => done.length === 2, "both messages");
        expect(attempts).toEqual([1, 2, 3]);
        expect(done).toEqual(["flaky", "next"]);
        // A dead letter would have been published before "next" was handled; the marker proves there is none.
        await bus.publish([contractMessage(deadLetterTopic(topic), "k", "dlq-marker")]);
        await until(() => dead.length >= 1, "the DLQ marker");
        expect(dead).toEqual(["dlq-marker"]);
      },
      testMs,
    );

    it(
      "Subscription.close stops fetching, aborts the in-flight handler's signal, waits for it and commits what it completed",
      async () => {
        const bus = await open();
        const g = group("closing");
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        let entered: DeliveredMessage | undefined;
        const events: string[] = [];
        const sub = await bus.subscribe({
          group: g,
          topics: [topic],
          handler: async (m) => {
            if (text(m) === "slow") {
              entered = m;
              await gate;
              events.push("slow handled");
            } else events.push(`first subscription got ${text(m)}`);
          },
        });
        await bus.publish([contractMessage(topic, "k", "slow"), contractMessage(topic, "k", "after")]);
        await until(() => entered !== undefined, "the slow handler to start");
        expect(entered!.signal?.aborted).toBe(false);
        const closing = sub.close().then(() => void events.push("closed"));
        await sleep(quietMs);
        expect(entered!.signal?.aborted).toBe(true); // told to stop at once
        expect(events).toEqual([]); // close is waiting for the handler
        // This handler ignores the signal and completes: its message is committed.
        release();
        await closing;
        expect(events).toEqual(["slow handled", "closed"]);

        // "slow" was committed, "after" was never handled: the group resumes exactly at "after".
        const resumed: string[] = [];
        await bus.subscribe({ group: g, topics: [topic], handler: async (m) => void resumed.push(text(m)) });
        await bus.publish([contractMessage(topic, "k", "marker")]);
        await until(() => resumed.includes("marker"), "the marker");
        expect(resumed).toEqual(["after", "marker"]);
      },
      testMs,
    );

    it(
      "a handler that stops on the abort leaves its message uncommitted: delivered again, the cut-short attempts not counted",
      async () => {
        const g = group("aborted");
        const seen: { body: string; attempt: number }[] = [];
        // maxAttempts 2 and three shutdowns mid-handler: were the cut-short attempts counted, it would be dead-lettered.
        for (let round = 0; round < 3; round++) {
          const bus = await open({ maxAttempts: 2 });
          let entered = false;
          const sub = await bus.subscribe({
            group: g,
            topics: [topic],
            handler: async (m) => {
              seen.push({ body: text(m), attempt: m.attempt });
              entered = true;
              // Honours the signal: gives up when told to (as extraction or formation does).
              await new Promise<void>((_, reject) => {
                const stop = () => reject(m.signal!.reason);
                if (m.signal!.aborted) stop();
                else m.signal!.addEventListener("abort", stop, { once: true });
              });
            },
          });
          if (round === 0) await bus.publish([contractMessage(topic, "k", "big")]);
          await until(() => entered, `the handler to start (round ${round})`);
          sub.abort();
          await sub.close();
          await bus.close();
        }
        expect(seen).toEqual([
          { body: "big", attempt: 1 },
          { body: "big", attempt: 1 },
          { body: "big", attempt: 1 },
        ]);
        // The next process completes it, on attempt 1, and nothing was dead-lettered.
        const bus = await open({ maxAttempts: 2 });
        const done: { body: string; attempt: number }[] = [];
        const dead: string[] = [];
        await bus.subscribe({ group: g, topics: [topic], handler: async (m) => void done.push({ body: text(m), attempt: m.attempt }) });
        await bus.subscribe({ group: group("aborted-dlq"), topics: [deadLetterTopic(topic)], handler: async (m) => void dead.push(text(m)) });
        await until(() => done.length === 1, "the message after the restarts");
        expect(done).toEqual([{ body: "big", attempt: 1 }]);
        await bus.publish([contractMessage(deadLetterTopic(topic), "k", "dlq-marker")]);
        await until(() => dead.length >= 1, "the DLQ marker");
        expect(dead).toEqual(["dlq-marker"]);
      },
      testMs,
    );

    it(
      "refuses to publish or subscribe after close",
      async () => {
        const bus = await open();
        await bus.close();
        await expect(bus.publish([contractMessage(topic, "k", "late")])).rejects.toThrow(/closed/);
        await expect(bus.subscribe({ group: group("late"), topics: [topic], handler: async () => {} })).rejects.toThrow(/closed/);
      },
      testMs,
    );
  });
}
