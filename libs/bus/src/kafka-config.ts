import { env, z } from "@engram/config";
import type { KafkaBusOptions, KafkaSasl } from "./kafka-bus";

const HOST_PORT = /^[^\s:,]+:\d{1,5}$/;

/**
 * Kafka settings from the environment, to spread into a service's config
 * schema: `z.object({ ...kafkaConfigShape, ... }).superRefine(checkKafkaConfig)`.
 * KAFKA_BROKERS may be empty here because only BUS=kafka needs it; the
 * refinement enforces that.
 */
export const kafkaConfigShape = {
  /** Comma-separated bootstrap brokers, host:port. */
  KAFKA_BROKERS: env.list().refine((brokers) => brokers.every((b) => HOST_PORT.test(b)), "must be a comma-separated list of host:port"),
  KAFKA_CLIENT_ID: env.string("engram"),
  /** Partitions of the topics the bus creates (existing topics keep theirs). */
  KAFKA_TOPIC_PARTITIONS: env.int(12, { min: 1, max: 10_000 }),
  KAFKA_REPLICATION_FACTOR: env.int(1, { min: 1, max: 32_767 }),
  /** min.insync.replicas of the topics the bus creates (default: replication factor − 1, between 1 and 2). */
  KAFKA_MIN_INSYNC_REPLICAS: z.coerce.number().int().min(1).max(32_767).optional(),
  /** retention.ms of the event topics the bus creates (default 7 days). */
  KAFKA_RETENTION_MS: env.int(7 * 24 * 3_600_000, { min: 60_000 }),
  /** retention.ms of the `.dlq` topics the bus creates (default 30 days). */
  KAFKA_DLQ_RETENTION_MS: env.int(30 * 24 * 3_600_000, { min: 60_000 }),
  KAFKA_SSL: env.bool(false),
  KAFKA_SASL_MECHANISM: z.enum(["plain", "scram-sha-256", "scram-sha-512"], { message: "must be plain, scram-sha-256 or scram-sha-512" }).optional(),
  KAFKA_SASL_USERNAME: z.string().optional(),
  KAFKA_SASL_PASSWORD: z.string().optional(),
};

export const kafkaConfigSchema = z.object(kafkaConfigShape);
export type KafkaConfig = z.infer<typeof kafkaConfigSchema>;

/**
 * Cross-field rules, for `superRefine` on a schema that includes
 * kafkaConfigShape (and, optionally, BUS): KAFKA_BROKERS is required when
 * BUS=kafka; a SASL mechanism needs a username and a password, and those
 * need a mechanism.
 */
export function checkKafkaConfig(config: KafkaConfig & { BUS?: string }, ctx: z.RefinementCtx): void {
  if (config.BUS === "kafka" && config.KAFKA_BROKERS.length === 0) {
    ctx.addIssue({ code: "custom", path: ["KAFKA_BROKERS"], message: "is required when BUS=kafka" });
  }
  if (config.KAFKA_MIN_INSYNC_REPLICAS !== undefined && config.KAFKA_MIN_INSYNC_REPLICAS > config.KAFKA_REPLICATION_FACTOR) {
    ctx.addIssue({ code: "custom", path: ["KAFKA_MIN_INSYNC_REPLICAS"], message: "must not exceed KAFKA_REPLICATION_FACTOR" });
  }
  if (config.KAFKA_SASL_MECHANISM) {
    for (const name of ["KAFKA_SASL_USERNAME", "KAFKA_SASL_PASSWORD"] as const) {
      if (!config[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when KAFKA_SASL_MECHANISM is set" });
    }
  } else {
    for (const name of ["KAFKA_SASL_USERNAME", "KAFKA_SASL_PASSWORD"] as const) {
      if (config[name]) ctx.addIssue({ code: "custom", path: [name], message: "needs KAFKA_SASL_MECHANISM" });
    }
  }
}

/** kafkaConfigSchema with checkKafkaConfig (without BUS: the caller decides that Kafka is wanted). */
export const kafkaConfigWithRules = kafkaConfigSchema.superRefine(checkKafkaConfig);

/** The connection part of KafkaBusOptions; add logger, maxAttempts and backoffMs from the service's config. */
export type KafkaConnectionOptions = Pick<
  KafkaBusOptions,
  "brokers" | "clientId" | "topicPartitions" | "replicationFactor" | "minInsyncReplicas" | "retentionMs" | "deadLetterRetentionMs" | "ssl" | "sasl"
>;

export function kafkaOptionsFromConfig(config: KafkaConfig): KafkaConnectionOptions {
  if (config.KAFKA_BROKERS.length === 0) throw new Error("KAFKA_BROKERS is empty: the Kafka bus needs at least one broker");
  let sasl: KafkaSasl | undefined;
  if (config.KAFKA_SASL_MECHANISM) {
    if (!config.KAFKA_SASL_USERNAME || !config.KAFKA_SASL_PASSWORD) {
      throw new Error("KAFKA_SASL_MECHANISM is set without KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD");
    }
    sasl = { mechanism: config.KAFKA_SASL_MECHANISM, username: config.KAFKA_SASL_USERNAME, password: config.KAFKA_SASL_PASSWORD };
  }
  return {
    brokers: config.KAFKA_BROKERS,
    clientId: config.KAFKA_CLIENT_ID,
    topicPartitions: config.KAFKA_TOPIC_PARTITIONS,
    replicationFactor: config.KAFKA_REPLICATION_FACTOR,
    ...(config.KAFKA_MIN_INSYNC_REPLICAS !== undefined ? { minInsyncReplicas: config.KAFKA_MIN_INSYNC_REPLICAS } : {}),
    retentionMs: config.KAFKA_RETENTION_MS,
    deadLetterRetentionMs: config.KAFKA_DLQ_RETENTION_MS,
    ssl: config.KAFKA_SSL,
    ...(sasl ? { sasl } : {}),
  };
}
