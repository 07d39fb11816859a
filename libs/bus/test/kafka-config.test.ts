import { ConfigError, env, loadConfig, z } from "@engram/config";
import { checkKafkaConfig, kafkaConfigShape, kafkaConfigWithRules, kafkaOptionsFromConfig } from "../src/kafka-config";

/** A service schema as the integrator composes it: BUS plus the Kafka shape and its rules. */
const serviceSchema = z
  .object({ BUS: z.enum(["embedded", "kafka"]).default("embedded"), PORT: env.port(8080), ...kafkaConfigShape })
  .superRefine(checkKafkaConfig);

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error("expected a ConfigError");
}

describe("kafkaConfigShape", () => {
  it("has defaults for everything but the brokers", () => {
    expect(loadConfig("svc", kafkaConfigWithRules, {})).toEqual({
      KAFKA_BROKERS: [],
      KAFKA_CLIENT_ID: "engram",
      KAFKA_TOPIC_PARTITIONS: 12,
      KAFKA_REPLICATION_FACTOR: 1,
      KAFKA_RETENTION_MS: 604_800_000,
      KAFKA_DLQ_RETENTION_MS: 2_592_000_000,
      KAFKA_SSL: false,
    });
  });

  it("parses every variable", () => {
    const c = loadConfig("svc", kafkaConfigWithRules, {
      KAFKA_BROKERS: "kafka-0.kafka:9092, kafka-1.kafka:9092,,10.0.0.7:9093",
      KAFKA_CLIENT_ID: "engram-ingestion",
      KAFKA_TOPIC_PARTITIONS: "24",
      KAFKA_REPLICATION_FACTOR: "3",
      KAFKA_MIN_INSYNC_REPLICAS: "2",
      KAFKA_RETENTION_MS: "86400000",
      KAFKA_DLQ_RETENTION_MS: "1209600000",
      KAFKA_SSL: "true",
      KAFKA_SASL_MECHANISM: "scram-sha-512",
      KAFKA_SASL_USERNAME: "engram",
      KAFKA_SASL_PASSWORD: "s3cret",
    });
    expect(c).toEqual({
      KAFKA_BROKERS: ["kafka-0.kafka:9092", "kafka-1.kafka:9092", "10.0.0.7:9093"],
      KAFKA_CLIENT_ID: "engram-ingestion",
      KAFKA_TOPIC_PARTITIONS: 24,
      KAFKA_REPLICATION_FACTOR: 3,
      KAFKA_MIN_INSYNC_REPLICAS: 2,
      KAFKA_RETENTION_MS: 86_400_000,
      KAFKA_DLQ_RETENTION_MS: 1_209_600_000,
      KAFKA_SSL: true,
      KAFKA_SASL_MECHANISM: "scram-sha-512",
      KAFKA_SASL_USERNAME: "engram",
      KAFKA_SASL_PASSWORD: "s3cret",
    });
  });

  it("rejects brokers without a port, bad numbers and an unknown SASL mechanism, all in one error", () => {
    const problems = problemsOf(() =>
      loadConfig("svc", kafkaConfigWithRules, {
        KAFKA_BROKERS: "kafka:9092,kafka-without-port",
        KAFKA_TOPIC_PARTITIONS: "0",
        KAFKA_REPLICATION_FACTOR: "two",
        KAFKA_SSL: "maybe",
        KAFKA_SASL_MECHANISM: "gssapi",
      }),
    );
    expect(problems.map((p) => p.split(":")[0]).sort()).toEqual([
      "KAFKA_BROKERS",
      "KAFKA_REPLICATION_FACTOR",
      "KAFKA_SASL_MECHANISM",
      "KAFKA_SSL",
      "KAFKA_TOPIC_PARTITIONS",
    ]);
    expect(problems.find((p) => p.startsWith("KAFKA_BROKERS"))).toContain("host:port");
  });
});

describe("checkKafkaConfig", () => {
  it("requires KAFKA_BROKERS only when BUS=kafka", () => {
    expect(loadConfig("svc", serviceSchema, {}).BUS).toBe("embedded");
    const problems = problemsOf(() => loadConfig("svc", serviceSchema, { BUS: "kafka" }));
    expect(problems).toEqual(["KAFKA_BROKERS: is required when BUS=kafka"]);
    expect(loadConfig("svc", serviceSchema, { BUS: "kafka", KAFKA_BROKERS: "kafka:9092" }).KAFKA_BROKERS).toEqual(["kafka:9092"]);
  });

  it("a SASL mechanism needs username and password; credentials need a mechanism; the password is never echoed", () => {
    expect(problemsOf(() => loadConfig("svc", serviceSchema, { KAFKA_SASL_MECHANISM: "plain" })).sort()).toEqual([
      "KAFKA_SASL_PASSWORD: is required when KAFKA_SASL_MECHANISM is set",
      "KAFKA_SASL_USERNAME: is required when KAFKA_SASL_MECHANISM is set",
    ]);
    const problems = problemsOf(() => loadConfig("svc", serviceSchema, { KAFKA_SASL_USERNAME: "u", KAFKA_SASL_PASSWORD: "hunter2" }));
    expect(problems.map((p) => p.split(":")[0]).sort()).toEqual(["KAFKA_SASL_PASSWORD", "KAFKA_SASL_USERNAME"]);
    expect(problems.join("\n")).not.toContain("hunter2");
  });
});

describe("kafkaOptionsFromConfig", () => {
  it("maps the config to the bus's connection options", () => {
    const c = loadConfig("svc", serviceSchema, {
      BUS: "kafka",
      KAFKA_BROKERS: "a:9092,b:9092",
      KAFKA_TOPIC_PARTITIONS: "6",
      KAFKA_REPLICATION_FACTOR: "2",
      KAFKA_SSL: "yes",
      KAFKA_SASL_MECHANISM: "scram-sha-256",
      KAFKA_SASL_USERNAME: "engram",
      KAFKA_SASL_PASSWORD: "pw",
    });
    expect(kafkaOptionsFromConfig(c)).toEqual({
      brokers: ["a:9092", "b:9092"],
      clientId: "engram",
      topicPartitions: 6,
      replicationFactor: 2,
      retentionMs: 604_800_000,
      deadLetterRetentionMs: 2_592_000_000,
      ssl: true,
      sasl: { mechanism: "scram-sha-256", username: "engram", password: "pw" },
    });
  });

  it("leaves SASL out when no mechanism is set, and refuses an empty broker list", () => {
    const c = loadConfig("svc", serviceSchema, { KAFKA_BROKERS: "kafka:9092" });
    expect(kafkaOptionsFromConfig(c)).toEqual({
      brokers: ["kafka:9092"],
      clientId: "engram",
      topicPartitions: 12,
      replicationFactor: 1,
      retentionMs: 604_800_000,
      deadLetterRetentionMs: 2_592_000_000,
      ssl: false,
    });
    // min.insync.replicas given, and checked against the replication factor.
    expect(
      kafkaOptionsFromConfig(loadConfig("svc", serviceSchema, { KAFKA_BROKERS: "k:1", KAFKA_REPLICATION_FACTOR: "3", KAFKA_MIN_INSYNC_REPLICAS: "2" }))
        .minInsyncReplicas,
    ).toBe(2);
    expect(problemsOf(() => loadConfig("svc", serviceSchema, { KAFKA_MIN_INSYNC_REPLICAS: "2" }))).toEqual([
      'KAFKA_MIN_INSYNC_REPLICAS: must not exceed KAFKA_REPLICATION_FACTOR (got "2")',
    ]);
    expect(() => kafkaOptionsFromConfig(loadConfig("svc", serviceSchema, {}))).toThrow(/KAFKA_BROKERS/);
  });
});
