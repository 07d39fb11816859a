import { type Admin, Kafka, logLevel } from "kafkajs";
import { describeWithEngines } from "@engram/testing";
import { KafkaEventBus } from "../src/kafka-bus";
import { eventBusContract } from "./contract/event-bus.contract";
import { silentLogger } from "./helpers";

// The same contract against a real broker: Kafka (KRaft) started by the jest
// globalSetup through testcontainers, or given in ENGRAM_TEST_KAFKA_BROKERS.
// Skipped, with the reason printed, when neither is available.
describeWithEngines(["kafka"], "EventBus contract: KafkaEventBus", ({ kafkaBrokers }) => {
  // Every topic and group of this run starts with the prefix: reruns against one broker never collide.
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const prefix = `engram.contract.${runId}`;
  // ENGRAM_TEST_KAFKA_LOG=debug shows kafkajs's own log lines when a run needs explaining.
  const logger = silentLogger.child({ component: "bus" }, { level: process.env.ENGRAM_TEST_KAFKA_LOG ?? "silent" });

  afterAll(async () => {
    const admin = new Kafka({ clientId: `engram-contract-cleanup-${runId}`, brokers: kafkaBrokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const { groups } = await admin.listGroups();
      const ours = groups.map((g) => g.groupId).filter((g) => g.startsWith(prefix));
      if (ours.length > 0) await admin.deleteGroups(ours);
      const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
      if (topics.length > 0) await admin.deleteTopics({ topics });
    } finally {
      await admin.disconnect();
    }
  }, 60_000);

  eventBusContract(
    "on a Kafka broker",
    () => ({
      open: (opts) =>
        new KafkaEventBus({
          brokers: kafkaBrokers,
          clientId: `engram-contract-${runId}`,
          logger,
          topicPartitions: 4,
          replicationFactor: 1,
          maxAttempts: opts.maxAttempts,
          backoffMs: opts.backoffMs,
          maxBackoffMs: 50,
          // Short enough that a test notices a lost member, long enough for a loaded CI machine.
          sessionTimeoutMs: 10_000,
          heartbeatIntervalMs: 1_000,
          rebalanceTimeoutMs: 20_000,
          // Idle fetches return quickly, so a close does not wait for a long poll.
          maxWaitTimeMs: 200,
        }),
      lag: (bus, group, topics) => (bus as KafkaEventBus).lag(group, topics),
    }),
    // A consumer group join and topic creation take seconds on a real broker.
    { namePrefix: prefix, deliveryTimeoutMs: 30_000, quietMs: 1_000, testTimeoutMs: 120_000 },
  );

  describe("Kafka specifics", () => {
    let admin: Admin;
    const buses: KafkaEventBus[] = [];
    const open = (opts: Partial<ConstructorParameters<typeof KafkaEventBus>[0]> = {}) => {
      const bus = new KafkaEventBus({
        brokers: kafkaBrokers,
        clientId: `engram-contract-${runId}`,
        logger,
        topicPartitions: 3,
        heartbeatIntervalMs: 1_000,
        ...opts,
      });
      buses.push(bus);
      return bus;
    };
    const partitionsOf = async (topics: string[]) => {
      const { topics: meta } = await admin.fetchTopicMetadata({ topics });
      return Object.fromEntries(meta.map((t) => [t.name, t.partitions.length]));
    };

    beforeAll(async () => {
      admin = new Kafka({ clientId: `engram-contract-admin-${runId}`, brokers: kafkaBrokers, logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
    }, 30_000);
    afterEach(async () => {
      for (const bus of buses.splice(0)) await bus.close();
    }, 60_000);
    afterAll(() => admin.disconnect(), 30_000);

    it("connect() creates the configured topics and their .dlq topics with the configured partitions, leaving existing topics as they are", async () => {
      const fresh = `${prefix}.specific.fresh`;
      const existing = `${prefix}.specific.existing`;
      await admin.createTopics({ waitForLeaders: true, topics: [{ topic: existing, numPartitions: 2, replicationFactor: 1 }] });
      await open({ topics: [fresh, existing] }).connect();
      expect(await partitionsOf([fresh, `${fresh}.dlq`, existing, `${existing}.dlq`])).toEqual({
        [fresh]: 3,
        [`${fresh}.dlq`]: 3,
        [existing]: 2,
        [`${existing}.dlq`]: 3,
      });
      // A second bus (another process starting) finds them in place.
      await expect(open({ topics: [fresh, existing] }).connect()).resolves.toBeUndefined();
    }, 60_000);

    it("subscribe creates its topics and their .dlq topics before the first message", async () => {
      const topic = `${prefix}.specific.subscribed`;
      const bus = open();
      await bus.subscribe({ group: `${prefix}-specific-subscriber`, topics: [topic], handler: async () => {} });
      expect(await partitionsOf([topic, `${topic}.dlq`])).toEqual({ [topic]: 3, [`${topic}.dlq`]: 3 });
    }, 60_000);

    it("allows one subscription per consumer group on a bus, and a new one after it closed", async () => {
      const topic = `${prefix}.specific.single`;
      const group = `${prefix}-specific-single`;
      const bus = open();
      const sub = await bus.subscribe({ group, topics: [topic], handler: async () => {} });
      await expect(bus.subscribe({ group, topics: [topic], handler: async () => {} })).rejects.toThrow(/one consumer per group/);
      await sub.close();
      const again = await bus.subscribe({ group, topics: [topic], handler: async () => {} });
      await again.close();
    }, 60_000);
  });
});
