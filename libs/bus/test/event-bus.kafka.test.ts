import { type Admin, ConfigResourceTypes, Kafka, logLevel } from "kafkajs";
import type { DeliveredMessage } from "../src/port";
import { describeWithEngines } from "@engram/testing";
import { runDlqCli } from "../src/cli/dlq.cli";
import { KafkaEventBus } from "../src/kafka-bus";
import { eventBusContract } from "./contract/event-bus.contract";
import { silentLogger, sleep, textMessage, textOf, until } from "./helpers";

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

    it("creates topics with explicit min.insync.replicas and retention, longer for the .dlq topic", async () => {
      const topic = `${prefix}.specific.durable`;
      await open({ topics: [topic], retentionMs: 3_600_000, deadLetterRetentionMs: 7_200_000 }).connect();
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [topic, `${topic}.dlq`].map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ["min.insync.replicas", "retention.ms"] })),
      });
      const settings = Object.fromEntries(
        resources.map((r) => [r.resourceName, Object.fromEntries(r.configEntries.map((e) => [e.configName, e.configValue]))]),
      );
      expect(settings).toEqual({
        [topic]: { "min.insync.replicas": "1", "retention.ms": "3600000" },
        [`${topic}.dlq`]: { "min.insync.replicas": "1", "retention.ms": "7200000" },
      });
    }, 60_000);

    /**
     * Two members of one group; the first is in the middle of a slow handler
     * when the second joins. `effects` is what the handlers wrote: a write is
     * refused once the delivered message's signal says the partition is lost.
     */
    const rebalanceRun = async (name: string, memberOpts: Partial<ConstructorParameters<typeof KafkaEventBus>[0]>, slowMs: number, maxHandlerMs?: number) => {
      const topic = `${prefix}.specific.${name}`;
      const group = `${prefix}-specific-${name}`;
      const effects = new Map<string, string[]>();
      const refused: string[] = [];
      const handled: string[] = [];
      let slowStarted = false;
      let slowFinished = false;
      const handler = (member: string) => async (m: DeliveredMessage) => {
        const text = textOf(m.value);
        handled.push(`${member}:${text}`);
        if (text === "slow" && member === "A") {
          slowStarted = true;
          await sleep(slowMs);
          slowFinished = true;
        }
        if (m.signal?.aborted) {
          refused.push(`${member}:${text}`);
          return;
        }
        effects.set(text, [...(effects.get(text) ?? []), member]);
      };
      const a = open({ topicPartitions: 2, ...memberOpts });
      const b = open({ topicPartitions: 2, ...memberOpts });
      await a.subscribe({ group, topics: [topic], handler: handler("A"), maxHandlerMs });
      // "slow" first on its key, then nine more on both partitions.
      await a.publish([textMessage(topic, "k-slow", "slow"), ...Array.from({ length: 9 }, (_, i) => textMessage(topic, `k-${i}`, `m${i}`))]);
      await until(() => slowStarted, "the slow handler to start", 30_000);
      // The second member joins while the first is inside the slow handler: a rebalance.
      await b.subscribe({ group, topics: [topic], handler: handler("B"), maxHandlerMs });
      const all = ["slow", ...Array.from({ length: 9 }, (_, i) => `m${i}`)];
      await until(() => slowFinished && all.every((t) => effects.has(t)), "every message to take effect and the slow handler to end", 60_000);
      await sleep(1_000); // anything late would show now
      return { effects, refused, handled };
    };

    it("a rebalance in the middle of a slow handler: the rebalance timeout outlasts it, nothing is lost and nothing applied twice", async () => {
      // The handler takes 6 s; the configured rebalance timeout is 3 s, raised by the declared maxHandlerMs.
      const { effects, refused } = await rebalanceRun(
        "rebalance",
        { rebalanceTimeoutMs: 3_000, sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 },
        6_000,
        8_000,
      );
      for (const [text, by] of effects) expect([text, by.length]).toEqual([text, 1]);
      expect(effects.get("slow")).toEqual(["A"]);
      expect(refused).toEqual([]);
    }, 120_000);

    it("a member evicted while its handler runs: its late write is refused, the new owner applies the message once", async () => {
      // No maxHandlerMs: the 3 s rebalance timeout is shorter than the 8 s handler, so the coordinator evicts A.
      const { effects, refused, handled } = await rebalanceRun(
        "evicted",
        { rebalanceTimeoutMs: 3_000, sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 },
        8_000,
      );
      expect(refused).toContain("A:slow");
      expect(handled).toContain("B:slow");
      for (const [text, by] of effects) expect([text, by.length]).toEqual([text, 1]);
      expect(effects.get("slow")).toEqual(["B"]);
    }, 120_000);

    it("a consumer that crashes for good (a dead letter larger than its topic allows) makes the bus unhealthy", async () => {
      const topic = `${prefix}.specific.crash`;
      const group = `${prefix}-specific-crash`;
      const bus = open({ maxAttempts: 1, topics: [topic] });
      await bus.connect();
      // The dead-letter topic refuses records above 200 bytes: the dead letter cannot be written, a non-retriable error.
      await admin.alterConfigs({
        validateOnly: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: `${topic}.dlq`, configEntries: [{ name: "max.message.bytes", value: "200" }] }],
      });
      expect(bus.health()).toEqual({ ok: true, problems: [] });
      await bus.subscribe({
        group,
        topics: [topic],
        handler: async () => {
          throw new Error("poison");
        },
      });
      await bus.publish([textMessage(topic, "k", "x".repeat(1_000))]);
      await until(() => !bus.health().ok, "the crash to show in health", 60_000);
      expect(bus.health().problems[0]).toMatch(new RegExp(`consumer of group ${group} crashed and stopped`));
    }, 120_000);

    it("pnpm dlq lists a poison event's dead letter and replays it to its topic once; a second replay finds nothing", async () => {
      const topic = `${prefix}.specific.replay`;
      const group = `${prefix}-specific-replay`;
      const bus = open({ maxAttempts: 2, backoffMs: 10, topics: [topic] });
      let fixed = false;
      const handled: DeliveredMessage[] = [];
      await bus.subscribe({
        group,
        topics: [topic],
        handler: async (m) => {
          if (textOf(m.value) === "poison" && !fixed) throw new Error("cannot handle this yet");
          handled.push(m);
        },
      });
      await bus.publish([textMessage(topic, "k1", "poison"), textMessage(topic, "k1", "fine")]);
      await until(() => handled.some((m) => textOf(m.value) === "fine"), "the message behind the poison one", 60_000);

      const run = async (...argv: string[]) => {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runDlqCli(
          [...argv, "--topic", topic],
          { KAFKA_BROKERS: kafkaBrokers.join(","), KAFKA_CLIENT_ID: `engram-dlq-${runId}` },
          { out: (l) => out.push(l), err: (l) => err.push(l) },
        );
        return { code, out, err };
      };
      const listed = await run("list", "--json");
      expect(listed.code).toBe(0);
      expect(listed.out.map((l) => JSON.parse(l))).toEqual([
        expect.objectContaining({ topic, key: "k1", group, attempts: 2, error: expect.stringContaining("cannot handle this yet"), originalOffset: 0 }),
      ]);
      // Listing changed nothing: it lists the same again.
      expect((await run("list")).out.at(-1)).toBe(`${topic}: 1 dead letter(s) not replayed`);

      fixed = true;
      const replayed = await run("replay");
      expect(replayed).toMatchObject({ code: 0, out: [expect.stringContaining("cannot handle this yet"), `${topic}: 1 dead letter(s) replayed`] });
      await until(() => handled.some((m) => textOf(m.value) === "poison"), "the replayed event to be handled", 60_000);
      const again = handled.find((m) => textOf(m.value) === "poison")!;
      expect(again.headers["dlq-replayed-from"]).toMatch(/^\d+:0$/);
      expect(Object.keys(again.headers).filter((h) => h.startsWith("dlq-") && h !== "dlq-replayed-from")).toEqual([]);
      expect((await run("replay")).out).toEqual([`${topic}: 0 dead letter(s) replayed`]);
      expect((await run("list", "--limit", "x")).code).toBe(2);
    }, 120_000);

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
