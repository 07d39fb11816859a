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
}

export type MessageHandler = (message: DeliveredMessage) => Promise<void>;

export interface SubscribeOptions {
  /** Consumer group: one per service. */
  group: string;
  topics: string[];
  handler: MessageHandler;
}

export interface Subscription {
  /** Stops fetching, waits for in-flight handlers, commits. */
  close(): Promise<void>;
}

export interface EventBus {
  /** Resolves once the messages are durably stored (acknowledged). */
  publish(messages: OutgoingMessage[]): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
}

export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;
