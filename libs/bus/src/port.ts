/**
 * The event bus port. Delivery contract (the same as Kafka's, which the
 * production adapter uses): at least once; ordered per key (a key always maps
 * to the same partition); every consumer group receives every message; a
 * handler that throws is retried with backoff and then dead-lettered, so one
 * poison message never blocks its partition.
 */
export interface EventHeaders {
  "event-id": string;
  "event-type": string;
  traceparent?: string;
  "x-request-id"?: string;
  [key: string]: string | undefined;
}

export interface OutgoingMessage {
  topic: string;
  key: string;
  value: Uint8Array;
  headers: EventHeaders;
}

export interface DeliveredMessage extends OutgoingMessage {
  partition: number;
  offset: number;
  /** 1 for the first delivery, 2+ for retries of the same message. */
  attempt: number;
  /**
   * Aborted once this consumer has lost the message's partition (Kafka: the
   * group evicted it, or a rebalance has waited so long that it will have):
   * another member may be handling the same message now. A handler checks it
   * before a write that a newer owner must not see overwritten; the stores'
   * own checks (generations, conditional writes) remain the guard. Absent
   * where a partition cannot be lost (the embedded bus).
   */
  signal?: AbortSignal;
}

export type MessageHandler = (message: DeliveredMessage) => Promise<void>;

export interface SubscribeOptions {
  /** Consumer group: one per service. */
  group: string;
  topics: string[];
  handler: MessageHandler;
  /**
   * The longest one handler call can run (its own timeouts bound it). Kafka
   * derives the group's rebalance timeout from it, so a member busy with a
   * slow message re-joins in time instead of being evicted while it writes.
   */
  maxHandlerMs?: number;
}

/** A consumer that has stopped for good (Kafka: crashed without restarting), for readiness. */
export interface BusHealth {
  ok: boolean;
  /** One line per failed consumer. */
  problems: string[];
}

export interface Subscription {
  /** Stops fetching, waits for in-flight handlers, commits. */
  close(): Promise<void>;
}

export interface EventBus {
  /** Resolves once the messages are durably stored (acknowledged). */
  publish(messages: OutgoingMessage[]): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  /** Whether every subscription is still consuming (readiness); absent: always ok. */
  health?(): BusHealth;
  close(): Promise<void>;
}

export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;
