import { metrics } from "@engram/observability";
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

/** Metric names are the same for both adapters, so one dashboard serves both run modes. */
export const busMetrics = {
  published: () => metrics.counter("engram_bus_published_total", "Events published", ["topic"]),
  deadLettered: () => metrics.counter("engram_bus_dead_lettered_total", "Events dead-lettered", ["topic", "group"]),
  consumerLag: () => metrics.gauge("engram_bus_consumer_lag", "Messages of a partition not yet committed by a consumer group", ["group", "topic", "partition"]),
};
