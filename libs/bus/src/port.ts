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
   * Aborted when the handler must stop: the subscription is closing (the
   * process is shutting down: see Subscription.abort), or this consumer has
   * lost the message's partition (Kafka: the group evicted it, or a
   * rebalance has waited so long that it will have; another member may be
   * handling the same message now). A handler passes it to its long steps
   * (worker threads, fetches) and checks it before a write that must not
   * happen any more; the stores' own checks (generations, conditional
   * writes) remain the guard. A handler that then throws leaves its message
   * uncommitted: it is delivered again (after a restart, or to the new
   * owner), and an attempt cut short by a shutdown does not count towards
   * the message's attempts. Work a handler did before the abort must be
   * idempotent on that redelivery. Absent only in hand-made test messages.
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
  /**
   * Stops fetching now and aborts the in-flight handlers' signal (their
   * message stays uncommitted unless the handler still completes); does not
   * wait. The first step of a shutdown: every consumer of the process stops
   * taking work at once.
   */
  abort(reason?: unknown): void;
  /** Aborts (as `abort`) unless it already has, waits for the in-flight handlers, commits what they completed. */
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
