import { describeWithEngines } from "@engram/testing";
import { openSqlite } from "@engram/storage";
import { KafkaEventBus } from "../src/kafka-bus";
import { OUTBOX_TABLE_SQL, OutboxRelay, SqliteOutbox } from "../src/outbox";
import type { EventBus } from "../src/port";
import { removeDir, silentLogger, sleep, tempDir, textMessage, textOf, until } from "./helpers";

// The test's own broker, which it stops and starts again (the shared one serves other suites meanwhile).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startKafkaBroker } = require("../../../scripts/kafka-broker.cjs") as {
  startKafkaBroker(o: { port?: number; dataDir?: string; log?: (l: string) => void }): Promise<{ brokers: string[]; port: number; stop(): Promise<void> }>;
};

/**
 * A broker restart while the transactional outbox's relay and a direct
 * producer are publishing: every event is delivered, and each key's events in
 * the order they were written. Runs wherever the Kafka suites run (the JDK
 * broker of scripts/kafka-broker.cjs).
 */
describeWithEngines(["kafka"], "Kafka broker restart under publishing", () => {
  it("loses nothing and keeps per-key order across a broker restart (outbox relay and producer)", async () => {
    const dir = tempDir("engram-kafka-restart-");
    let broker = await startKafkaBroker({ dataDir: `${dir}/broker` });
    const brokers = broker.brokers;
    const topic = "engram.restart-test.v1";
    const open = (clientId: string) =>
      new KafkaEventBus({
        brokers,
        clientId,
        logger: silentLogger,
        topicPartitions: 3,
        topics: [topic],
        heartbeatIntervalMs: 500,
        sessionTimeoutMs: 10_000,
        maxWaitTimeMs: 200,
        // Reconnect quickly once the broker is back.
        connectionTimeoutMs: 1_000,
        requestTimeoutMs: 5_000,
      });
    const producerBus = open("restart-producer");
    const consumerBus = open("restart-consumer");
    const db = openSqlite({ dataDir: dir, name: "svc", migrations: [OUTBOX_TABLE_SQL] });
    const outbox = new SqliteOutbox(db);
    const relay = new OutboxRelay("restart-test", outbox, producerBus, silentLogger, { idleMs: 20 });
    const received = new Map<string, number[]>();
    const buses: EventBus[] = [producerBus, consumerBus];
    try {
      await producerBus.connect();
      await consumerBus.subscribe({
        group: "restart-test-consumer",
        topics: [topic],
        handler: async (m) => {
          const [, seq] = textOf(m.value).split("#");
          received.set(m.key, [...(received.get(m.key) ?? []), Number(seq)]);
        },
      });
      relay.start();

      const PER_KEY = 40;
      const written = { outbox: 0, direct: 0 };
      let atStop = { outbox: -1, direct: -1 };
      // Outbox keys o0..o3 and producer keys p0..p3, written one event per key in turn, every 20 ms.
      const writeOutbox = async () => {
        for (let seq = 0; seq < PER_KEY; seq++) {
          db.transaction(() => outbox.add([0, 1, 2, 3].map((k) => textMessage(topic, `o${k}`, `o${k}#${seq}`))))();
          relay.notify();
          written.outbox = seq + 1;
          await sleep(20);
        }
      };
      // A direct publisher retries a failed publish before its next event, as services do with the outbox.
      const writeDirect = async () => {
        for (let seq = 0; seq < PER_KEY; seq++) {
          for (;;) {
            try {
              await producerBus.publish([0, 1, 2, 3].map((k) => textMessage(topic, `p${k}`, `p${k}#${seq}`)));
              written.direct = seq + 1;
              break;
            } catch {
              await sleep(200);
            }
          }
          await sleep(20);
        }
      };
      const restart = async () => {
        await sleep(400);
        atStop = { ...written };
        await broker.stop();
        await sleep(1_500);
        broker = await startKafkaBroker({ port: Number(brokers[0]!.split(":")[1]), dataDir: `${dir}/broker` });
      };
      await Promise.all([writeOutbox(), writeDirect(), restart()]);

      // The broker went down while both were still writing.
      expect(atStop.outbox).toBeGreaterThan(0);
      expect(atStop.outbox).toBeLessThan(PER_KEY);
      expect(atStop.direct).toBeGreaterThan(0);
      expect(atStop.direct).toBeLessThan(PER_KEY);
      const keys = [0, 1, 2, 3].flatMap((k) => [`o${k}`, `p${k}`]);
      await until(() => keys.every((k) => new Set(received.get(k) ?? []).size === PER_KEY), "every event after the restart", 120_000);
      for (const key of keys) {
        // At least once: a redelivery may repeat events, but the first time each one arrives is in write order.
        const firsts: number[] = [];
        for (const seq of received.get(key)!) if (!firsts.includes(seq)) firsts.push(seq);
        expect([key, firsts]).toEqual([key, Array.from({ length: PER_KEY }, (_, i) => i)]);
      }
      expect(outbox.backlog()).toBe(0);
    } finally {
      await relay.stop().catch(() => undefined);
      for (const b of buses) await b.close().catch(() => undefined);
      db.close();
      await broker.stop();
      removeDir(dir);
    }
  }, 240_000);
});
