import { context, extractContext, metrics, recordError, SpanKind, startSpan, trace } from "@engram/observability";
import { deadLetterTopic, type DeliveredMessage, type OutgoingMessage } from "./port";

/** Delivery defaults shared by both adapters (BUS_MAX_ATTEMPTS, BUS_BACKOFF_MS). */
export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_MS = 200;
export const DEFAULT_MAX_BACKOFF_MS = 10_000;

/** Longest error text carried in a dead letter's `dlq-error` header. */
const DLQ_ERROR_MAX = 500;

/** Delay after failed attempt `attempt` (1-based): backoffMs · 2^(attempt−1), capped at maxBackoffMs. */
export function backoffDelay(attempt: number, backoffMs: number, maxBackoffMs: number): number {
  return Math.min(maxBackoffMs, backoffMs * 2 ** (attempt - 1));
}

function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : (err as { message?: unknown } | undefined)?.message;
  return String(message ?? err);
}

/**
 * The copy of a message that failed on every attempt, for `<topic>.dlq`: same
 * key and value, the original headers plus where it came from and why it failed.
 */
export function deadLetterMessage(msg: DeliveredMessage, group: string, err: unknown, attempts: number): OutgoingMessage {
  return {
    topic: deadLetterTopic(msg.topic),
    key: msg.key,
    value: msg.value,
    headers: {
      ...msg.headers,
      "dlq-group": group,
      "dlq-error": errorText(err).slice(0, DLQ_ERROR_MAX),
      "dlq-partition": String(msg.partition),
      "dlq-offset": String(msg.offset),
      "dlq-attempts": String(attempts),
    },
  };
}

/**
 * Attempts are counted where a crash cannot lose them. A consumer handles one
 * partition in offset order, so only the message at the group's committed
 * position can have attempts a stopped process started: each adapter keeps,
 * with that position, how many attempts of the message there have started
 * (embedded: a column of `group_offsets`; Kafka: the committed offset's
 * metadata). A message whose handler took the process down on every attempt
 * (a poison message) is dead-lettered after the configured attempts instead of
 * being retried after every restart for ever.
 */
export interface AttemptLedger {
  /** Attempts already started for the message at `offset` before this process took it (0 when none). */
  started(topic: string, partition: number, offset: number): Promise<number>;
  /** Records, before the handler runs, that attempt `attempt` of the message at `offset` starts. */
  record(topic: string, partition: number, offset: number, attempt: number): Promise<void>;
}

/** The error a dead letter carries when every attempt ended with the process stopping mid-handler. */
export class AttemptsExhaustedError extends Error {
  constructor(attempts: number) {
    super(`the handler did not finish in ${attempts} attempts (the process stopped during each)`);
    this.name = "AttemptsExhaustedError";
  }
}

/** The `attempts` an offset's commit metadata records (Kafka), 0 when it records none. */
export function attemptsFromMetadata(metadata: string | null | undefined): number {
  if (!metadata) return 0;
  try {
    const n = (JSON.parse(metadata) as { attempts?: unknown }).attempts;
    return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}

/** Metric names are the same for both adapters, so one dashboard serves both run modes. */
export const busMetrics = {
  published: () => metrics.counter("engram_bus_published_total", "Events published", ["topic"]),
  deadLettered: () => metrics.counter("engram_bus_dead_lettered_total", "Events dead-lettered", ["topic", "group"]),
  consumerLag: () => metrics.gauge("engram_bus_consumer_lag", "Messages of a partition not yet committed by a consumer group", ["group", "topic", "partition"]),
};

/** messaging.system of each adapter's consumer spans. */
export type BusSystem = "kafka" | "engram_embedded";

/**
 * The consumer span of one delivered message ("process <topic>"), a child of
 * the context in its `traceparent` header, over every attempt: the handler
 * runs inside it, failed attempts are `retry` events, a dead letter fails it.
 */
export function traceDelivery(system: BusSystem, group: string, msg: DeliveredMessage) {
  const parent = extractContext(msg.headers);
  const span = startSpan(
    `process ${msg.topic}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        "messaging.system": system,
        "messaging.operation.type": "process",
        "messaging.operation.name": "process",
        "messaging.destination.name": msg.topic,
        "messaging.destination.partition.id": String(msg.partition),
        "messaging.consumer.group.name": group,
        "messaging.message.id": msg.headers["event-id"] ?? "",
        ...(system === "kafka" ? { "messaging.kafka.offset": msg.offset, "messaging.kafka.message.key": msg.key } : { "engram.bus.offset": msg.offset }),
        ...(msg.headers["event-type"] ? { "engram.event.type": msg.headers["event-type"] } : {}),
      },
    },
    parent,
  );
  const ctx = trace.setSpan(parent, span);
  let attempts = 0;
  return {
    /** Runs one attempt of the handler inside the consumer span. */
    attempt<T>(n: number, fn: () => Promise<T>): Promise<T> {
      attempts = n;
      return context.with(ctx, fn);
    },
    retrying(err: unknown, attempt: number, retryInMs: number): void {
      span.addEvent("retry", {
        "engram.bus.attempt": attempt,
        "engram.bus.retry_in_ms": retryInMs,
        "exception.type": err instanceof Error ? err.name : typeof err,
        "exception.message": errorText(err),
      });
    },
    deadLettered(err: unknown, attempts: number): void {
      recordError(span, err);
      span.addEvent("dead-lettered", { "engram.bus.attempts": attempts, "engram.bus.dead_letter_topic": deadLetterTopic(msg.topic) });
    },
    /** Ends the span; "abandoned" = the subscription stopped mid-retry (not committed, delivered again later). */
    end(outcome: "handled" | "dead-lettered" | "abandoned"): void {
      span.setAttributes({ "engram.bus.attempts": attempts, "engram.bus.outcome": outcome });
      span.end();
    },
  };
}
