import type { ConnectionOptions } from "node:tls";
import { type IHeaders, Kafka } from "kafkajs";
import type { Logger } from "@engram/observability";
import { fromKafkaHeaders, kafkaLogCreator, kafkaLogLevel, type KafkaSasl } from "./kafka-bus";
import { deadLetterTopic } from "./port";

/** A dead letter as the replay tool lists it. */
export interface DeadLetter {
  partition: number;
  offset: number;
  key: string;
  eventType?: string;
  eventId?: string;
  /** The consumer group whose handler gave up, and why. */
  group?: string;
  error?: string;
  attempts?: number;
  /** Where the message was in the original topic. */
  originalPartition?: number;
  originalOffset?: number;
}

export interface DeadLetterReplayOptions {
  brokers: string[];
  clientId: string;
  ssl?: boolean | ConnectionOptions;
  sasl?: KafkaSasl;
  logger: Logger;
  /** The original topic (its dead letters are in `<topic>.dlq`). */
  topic: string;
  /** Only dead letters of this consumer group (the `dlq-group` header). */
  group?: string;
  /** At most this many (default: all up to the end seen at start). */
  limit?: number;
  /**
   * List only: nothing is published or committed. Otherwise each dead letter
   * is published back to the original topic (same key, so same partition and
   * order; the `dlq-*` headers dropped, `dlq-replayed-from` added) and the
   * replay group's offset committed after the broker acknowledged it, so a
   * second run continues where the first stopped and replays nothing twice.
   */
  dryRun?: boolean;
  /** Consumer group that remembers what was replayed (default `engram-dlq-replay`). */
  replayGroup?: string;
}

const DLQ_HEADER = /^dlq-/;

/** The dead letter's original headers (every `dlq-*` header removed) plus where it was replayed from. */
export function replayHeaders(headers: IHeaders | undefined, partition: number, offset: number): IHeaders {
  const out: IHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (!DLQ_HEADER.test(name) && value !== undefined) out[name] = value;
  out["dlq-replayed-from"] = Buffer.from(`${partition}:${offset}`);
  return out;
}

function describe(partition: number, offset: string, key: Buffer | null, headers: IHeaders | undefined): DeadLetter {
  const h = fromKafkaHeaders(headers);
  const num = (v: string | undefined) => (v === undefined || v === "" || Number.isNaN(Number(v)) ? undefined : Number(v));
  return {
    partition,
    offset: Number(offset),
    key: key ? key.toString("utf8") : "",
    eventType: h["event-type"],
    eventId: h["event-id"],
    group: h["dlq-group"],
    error: h["dlq-error"],
    attempts: num(h["dlq-attempts"]),
    originalPartition: num(h["dlq-partition"]),
    originalOffset: num(h["dlq-offset"]),
  };
}

/**
 * Lists or replays the dead letters of one topic, from where the replay group
 * stopped last up to the end of the `.dlq` topic as it was when the run began
 * (later dead letters wait for the next run). Used by `pnpm dlq` (and
 * `node dist/dlq.js` in the image); docs/deployment.md, "Dead letters".
 */
export async function replayDeadLetters(o: DeadLetterReplayOptions): Promise<{ listed: DeadLetter[]; replayed: number }> {
  const dlq = deadLetterTopic(o.topic);
  const kafka = new Kafka({
    clientId: o.clientId,
    brokers: o.brokers,
    ssl: o.ssl,
    sasl: o.sasl,
    logLevel: kafkaLogLevel(o.logger),
    logCreator: kafkaLogCreator(o.logger),
  });
  const admin = kafka.admin();
  await admin.connect();
  const replayGroup = o.replayGroup ?? "engram-dlq-replay";
  // A dry run reads with a throw-away group and commits nothing; it starts where the replay group stands.
  const readGroup = o.dryRun ? `${replayGroup}-list-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}` : replayGroup;
  const listed: DeadLetter[] = [];
  let replayed = 0;
  try {
    const ends = await admin.fetchTopicOffsets(dlq);
    const committed = (await admin.fetchOffsets({ groupId: replayGroup, topics: [dlq] }))[0]?.partitions ?? [];
    const start = new Map(committed.map((p) => [p.partition, Number(p.offset)]));
    // Per partition: the first offset not yet replayed, and the end seen now.
    const todo = new Map<number, { from: number; end: number }>();
    for (const e of ends) {
      const from = Math.max(Number(e.low), start.get(e.partition) ?? -1);
      if (from < Number(e.high)) todo.set(e.partition, { from, end: Number(e.high) });
    }
    if (todo.size === 0) return { listed, replayed };
    const producer = o.dryRun ? undefined : kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    await producer?.connect();
    const consumer = kafka.consumer({ groupId: readGroup, allowAutoTopicCreation: false, maxWaitTimeInMs: 200 });
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [dlq], fromBeginning: true });
      const limit = o.limit ?? Number.POSITIVE_INFINITY;
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const done = new Set<number>();
      const check = () => {
        if (done.size >= todo.size || listed.length >= limit) finish();
      };
      await consumer.run({
        autoCommit: false,
        eachMessage: async ({ partition, message }) => {
          const range = todo.get(partition);
          const offset = Number(message.offset);
          if (!range || done.has(partition) || listed.length >= limit) return;
          if (offset >= range.end) {
            done.add(partition);
            return check();
          }
          const letter = describe(partition, message.offset, message.key, message.headers);
          if (o.group && letter.group !== o.group) {
            if (!o.dryRun) await consumer.commitOffsets([{ topic: dlq, partition, offset: String(offset + 1) }]);
          } else {
            listed.push(letter);
            if (producer) {
              await producer.send({
                topic: o.topic,
                acks: -1,
                messages: [{ key: message.key, value: message.value, headers: replayHeaders(message.headers, partition, offset) }],
              });
              await consumer.commitOffsets([{ topic: dlq, partition, offset: String(offset + 1) }]);
              replayed++;
              o.logger.info({ topic: o.topic, eventType: letter.eventType, eventId: letter.eventId, dlqOffset: offset }, "dead letter replayed");
            }
          }
          if (offset + 1 >= range.end) done.add(partition);
          check();
        },
      });
      // Start where the replay group stopped (a fresh group starts at the earliest retained message).
      for (const [partition, { from }] of todo) consumer.seek({ topic: dlq, partition, offset: String(from) });
      await finished;
    } finally {
      await consumer.disconnect();
      await producer?.disconnect();
      if (o.dryRun) await admin.deleteGroups([readGroup]).catch(() => undefined);
    }
    return { listed, replayed };
  } finally {
    await admin.disconnect();
  }
}
