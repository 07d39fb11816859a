import { Kafka, logLevel } from "kafkajs";
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
});
