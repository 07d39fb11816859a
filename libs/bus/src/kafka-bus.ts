import type { ConnectionOptions } from "node:tls";
import {
  type Admin,
  type Batch,
  ConfigResourceTypes,
  type Consumer,
  type EachBatchPayload,
  type IHeaders,
  Kafka,
  type KafkaMessage,
  type logCreator,
  logLevel,
  type Message,
  Partitioners,
  type Producer,
} from "kafkajs";
import type { Logger } from "@engram/observability";
import {
  type AttemptLedger,
  AttemptsExhaustedError,
  attemptsFromMetadata,
  backoffDelay,
  busMetrics,
  DEFAULT_BACKOFF_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_BACKOFF_MS,
  deadLetterMessage,
  traceDelivery,
} from "./delivery";
import {
  type BusHealth,
  deadLetterTopic,
  type DeliveredMessage,
  type EventBus,
  type EventHeaders,
  type MessageHandler,
  type OutgoingMessage,
  type SubscribeOptions,
  type Subscription,
} from "./port";

export type KafkaSaslMechanism = "plain" | "scram-sha-256" | "scram-sha-512";

/** Username/password SASL (kafkajs types it as one variant per mechanism). */
export type KafkaSasl = { [M in KafkaSaslMechanism]: { mechanism: M; username: string; password: string } }[KafkaSaslMechanism];

export interface KafkaBusOptions {
  /** Bootstrap brokers, `host:port`. */
  brokers: string[];
  clientId: string;
  /** kafkajs's own log lines go here too (its level follows this logger's). */
  logger: Logger;
  /** Partitions of the topics this bus creates; topics that already exist keep theirs. Default 12. */
  topicPartitions?: number;
  /** Replication factor of the topics this bus creates. Default 1. */
  replicationFactor?: number;
  /**
   * min.insync.replicas of the topics this bus creates: with acks=all a write
   * is acknowledged only once this many replicas hold it. Default: one less
   * than the replication factor, at least 1 and at most 2 (3 replicas → 2).
   */
  minInsyncReplicas?: number;
  /** retention.ms of the event topics this bus creates. Default 7 days. */
  retentionMs?: number;
  /** retention.ms of the `.dlq` topics this bus creates: long enough to notice and replay. Default 30 days. */
  deadLetterRetentionMs?: number;
  /** Topics (and their `.dlq` topics) to create in connect(); others are created on first publish or subscribe. */
  topics?: string[];
  /** Handler attempts before a message is dead-lettered. Default 5. */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt up to maxBackoffMs. Default 200. */
  backoffMs?: number;
  /** Default 10 000. */
  maxBackoffMs?: number;
  ssl?: boolean | ConnectionOptions;
  sasl?: KafkaSasl;
  /** Partitions one subscription handles at the same time. Default: topicPartitions. */
  partitionsConsumedConcurrently?: number;
  /** Consumer session timeout. Default 30 000. */
  sessionTimeoutMs?: number;
  /** Consumer heartbeat period, also while a handler runs or a retry waits. Default 3 000. */
  heartbeatIntervalMs?: number;
  /**
   * How long the group waits for members to re-join on a rebalance. Default
   * 60 000; a subscription whose handlers may run longer (its maxHandlerMs)
   * gets that plus a margin (derivedRebalanceTimeout).
   */
  rebalanceTimeoutMs?: number;
  /** Longest a fetch waits for new messages; also bounds how long close() waits for an idle fetch. Default 1 000. */
  maxWaitTimeMs?: number;
  /** kafkajs connectionTimeout. Default 3 000. */
  connectionTimeoutMs?: number;
  /** kafkajs requestTimeout. Default 30 000. */
  requestTimeoutMs?: number;
}

interface Settings {
  topicPartitions: number;
  replicationFactor: number;
  minInsyncReplicas: number;
  retentionMs: number;
  deadLetterRetentionMs: number;
  maxAttempts: number;
  backoffMs: number;
  maxBackoffMs: number;
  concurrency: number;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  rebalanceTimeoutMs: number;
  maxWaitTimeMs: number;
}

function resolveSettings(o: KafkaBusOptions): Settings {
  const topicPartitions = o.topicPartitions ?? 12;
  const replicationFactor = o.replicationFactor ?? 1;
  const s: Settings = {
    topicPartitions,
    replicationFactor,
    minInsyncReplicas: o.minInsyncReplicas ?? Math.max(1, Math.min(2, replicationFactor - 1)),
    retentionMs: o.retentionMs ?? 7 * DAY_MS,
    deadLetterRetentionMs: o.deadLetterRetentionMs ?? 30 * DAY_MS,
    maxAttempts: o.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    backoffMs: o.backoffMs ?? DEFAULT_BACKOFF_MS,
    maxBackoffMs: o.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS,
    concurrency: o.partitionsConsumedConcurrently ?? topicPartitions,
    sessionTimeoutMs: o.sessionTimeoutMs ?? 30_000,
    heartbeatIntervalMs: o.heartbeatIntervalMs ?? 3_000,
    rebalanceTimeoutMs: o.rebalanceTimeoutMs ?? 60_000,
    maxWaitTimeMs: o.maxWaitTimeMs ?? 1_000,
  };
  const problems: string[] = [];
  if (o.brokers.length === 0) problems.push("brokers: at least one host:port is required");
  for (const [name, value] of Object.entries(s)) {
    if (!Number.isInteger(value) || value < (name === "backoffMs" ? 0 : 1)) problems.push(`${name}: must be a positive integer (got ${value})`);
  }
  if (s.heartbeatIntervalMs >= s.sessionTimeoutMs) problems.push("heartbeatIntervalMs: must be lower than sessionTimeoutMs");
  if (s.minInsyncReplicas > s.replicationFactor) problems.push(`minInsyncReplicas: must not exceed the replication factor (${s.replicationFactor})`);
  if (problems.length) throw new Error(`invalid Kafka bus options:\n  - ${problems.join("\n  - ")}`);
  return s;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const isDeadLetterTopic = (topic: string) => topic.endsWith(".dlq");

/**
 * The rebalance timeout a subscription's consumer asks for. kafkajs re-joins
 * a rebalancing group only after the current batch's handler returned, and
 * the coordinator evicts a member that has not re-joined within this time, so
 * it must exceed the longest handler call (plus two heartbeats to notice the
 * rebalance and ten seconds to re-join). Never below the configured value.
 */
export function derivedRebalanceTimeout(configuredMs: number, heartbeatIntervalMs: number, maxHandlerMs?: number): number {
  if (!maxHandlerMs || maxHandlerMs <= 0) return configuredMs;
  return Math.max(configuredMs, Math.ceil(maxHandlerMs + 2 * heartbeatIntervalMs + 10_000));
}

/** The settings a topic is created with (event topics and their `.dlq` topics differ only in retention). */
export function topicConfigEntries(
  s: Pick<Settings, "minInsyncReplicas" | "retentionMs" | "deadLetterRetentionMs">,
  topic: string,
): { name: string; value: string }[] {
  return [
    { name: "min.insync.replicas", value: String(s.minInsyncReplicas) },
    { name: "retention.ms", value: String(isDeadLetterTopic(topic) ? s.deadLetterRetentionMs : s.retentionMs) },
    { name: "cleanup.policy", value: "delete" },
  ];
}

/**
 * Whether this member still owns the partitions it is handling. Lost when a
 * heartbeat or commit says the member is unknown or of an old generation, or
 * when a rebalance has been pending for nearly the rebalance timeout (the
 * coordinator is about to hand the partitions to another member). Each group
 * generation gets a fresh signal.
 */
export class PartitionOwnership {
  private ctl = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly rebalanceTimeoutMs: number,
    private readonly heartbeatIntervalMs: number,
  ) {}

  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  /** A heartbeat reported a rebalance: the member must re-join before the timeout (less two heartbeats of slack). */
  rebalancing(): void {
    if (this.timer || this.ctl.signal.aborted) return;
    const ms = Math.max(0, this.rebalanceTimeoutMs - 2 * this.heartbeatIntervalMs);
    this.timer = setTimeout(() => this.lost("a rebalance outlasted the rebalance timeout while a handler ran"), ms);
    this.timer.unref();
  }

  lost(reason: string): void {
    this.clearTimer();
    if (!this.ctl.signal.aborted) this.ctl.abort(new Error(`partition ownership lost: ${reason}`));
  }

  /** The member (re-)joined: a new generation, a new signal. */
  rejoined(): void {
    this.clearTimer();
    if (this.ctl.signal.aborted) this.ctl = new AbortController();
  }

  close(): void {
    this.clearTimer();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

// -- conversions between the port's messages and kafkajs's (pure; unit-tested) --

/** Port headers to Kafka headers: every value as UTF-8 bytes, unset ones left out. */
export function toKafkaHeaders(headers: EventHeaders): IHeaders {
  const out: IHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Buffer.from(value, "utf8");
  return out;
}

/**
 * Kafka headers to port headers. kafkajs gives a repeated header name as an
 * array; the last value wins (Kafka's `lastHeader`). This bus never repeats one.
 */
export function fromKafkaHeaders(headers: IHeaders | undefined): EventHeaders {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value !== undefined) out[name] = typeof value === "string" ? value : value.toString("utf8");
  }
  return out as EventHeaders;
}

export function toKafkaMessage(m: OutgoingMessage): Message {
  const value = Buffer.isBuffer(m.value) ? m.value : Buffer.from(m.value.buffer, m.value.byteOffset, m.value.byteLength);
  return { key: m.key, value, headers: toKafkaHeaders(m.headers) };
}

/** A fetched record as the port delivers it (the value copied out of the fetch response buffer). */
export function fromKafkaMessage(
  topic: string,
  partition: number,
  m: Pick<KafkaMessage, "key" | "value" | "offset" | "headers">,
  attempt = 1,
): DeliveredMessage {
  return {
    topic,
    partition,
    offset: Number(m.offset),
    key: m.key ? m.key.toString("utf8") : "",
    value: m.value ? new Uint8Array(m.value) : new Uint8Array(0),
    headers: fromKafkaHeaders(m.headers),
    attempt,
  };
}

/** kafkajs log level matching the most verbose level the pino logger emits. */
export function kafkaLogLevel(logger: Logger): logLevel {
  if (logger.isLevelEnabled("debug")) return logLevel.DEBUG;
  if (logger.isLevelEnabled("info")) return logLevel.INFO;
  if (logger.isLevelEnabled("warn")) return logLevel.WARN;
  if (logger.isLevelEnabled("error")) return logLevel.ERROR;
  return logLevel.NOTHING;
}

/** Routes kafkajs's log entries into pino: its message as the message, its namespace and fields as fields. */
export function kafkaLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, logger: _source, ...fields } = log;
      const entry = { kafkajs: namespace, ...fields };
      if (level === logLevel.ERROR) logger.error(entry, message);
      else if (level === logLevel.WARN) logger.warn(entry, message);
      else if (level === logLevel.INFO) logger.info(entry, message);
      else if (level === logLevel.DEBUG) logger.debug(entry, message);
    };
}

/**
 * Messages of a topic a group has not committed yet. A partition without a
 * committed offset (-1) counts from its earliest retained message, where a new
 * group starts.
 */
export function topicLag(committed: { partition: number; offset: string }[], ends: { partition: number; high: string; low: string }[]): number {
  const byPartition = new Map(committed.map((c) => [c.partition, BigInt(c.offset)]));
  let lag = 0n;
  for (const { partition, high, low } of ends) {
    const c = byPartition.get(partition) ?? -1n;
    const from = c < 0n ? BigInt(low) : c;
    if (BigInt(high) > from) lag += BigInt(high) - from;
  }
  return Number(lag);
}

/** Errors after which kafkajs re-joins the group: this member's assignment is about to change. */
function isGroupChange(err: unknown): boolean {
  const type = (err as { type?: unknown } | null)?.type;
  return type === "REBALANCE_IN_PROGRESS" || type === "NOT_COORDINATOR_FOR_GROUP" || type === "ILLEGAL_GENERATION" || type === "UNKNOWN_MEMBER_ID";
}

/** Errors that say the group has already moved on without this member: its partitions may be another's now. */
function isAssignmentLost(err: unknown): boolean {
  const type = (err as { type?: unknown } | null)?.type;
  return type === "ILLEGAL_GENERATION" || type === "UNKNOWN_MEMBER_ID";
}

// -- consuming one fetched batch (one partition) --

/** What consumeBatch uses of kafkajs's eachBatch payload. */
export interface BatchPayload {
  batch: Pick<Batch, "topic" | "partition" | "highWatermark" | "messages">;
  resolveOffset: EachBatchPayload["resolveOffset"];
  heartbeat: EachBatchPayload["heartbeat"];
  commitOffsetsIfNecessary: EachBatchPayload["commitOffsetsIfNecessary"];
  isRunning: EachBatchPayload["isRunning"];
  isStale: EachBatchPayload["isStale"];
}

export interface BatchContext {
  group: string;
  handler: MessageHandler;
  maxAttempts: number;
  backoffMs: number;
  maxBackoffMs: number;
  /** Heartbeat period while a handler runs or a retry waits. */
  heartbeatIntervalMs: number;
  log: Logger;
  /** Publishes a dead letter; resolves once the broker acknowledged it. */
  deadLetter(message: OutgoingMessage): Promise<void>;
  /** True once the subscription is closing. */
  stopping(): boolean;
  /** Aborted when the subscription closes (with `stopping`): the in-flight handlers are told to stop. */
  closing?: AbortSignal;
  /** Resolves after `ms`, or sooner once the subscription is closing. */
  wait(ms: number): Promise<void>;
  /** Shared by the subscription's concurrent batches: set when the group starts rebalancing, cleared on re-join. */
  groupChange: { error?: unknown };
  /** Durable attempt counts (the committed offset's metadata); without it, attempts start at 1 on every delivery. */
  attempts?: KafkaAttemptLedger;
  /** Whether this member still owns its partitions (the delivered messages' signal). */
  ownership?: PartitionOwnership;
}

/**
 * The AttemptLedger on Kafka: before each attempt the group commits the
 * message's own offset (the position does not move) with metadata
 * `{"attempts":n}`; committing offset + 1 afterwards clears it. A member that
 * takes the partition over (after a crash or a rebalance) reads the committed
 * offset's metadata once, for the first message it is handed; after that it
 * knows the next message has no earlier attempts.
 */
export class KafkaAttemptLedger implements AttemptLedger {
  /** Per topic-partition: the offset this member committed last (its next message has no earlier attempts). */
  private readonly settledAt = new Map<string, number>();

  constructor(
    private readonly group: string,
    private readonly io: {
      fetchCommitted(group: string, topic: string): Promise<{ partition: number; offset: string; metadata: string | null }[]>;
      commit(entries: { topic: string; partition: number; offset: string; metadata: string }[]): Promise<void>;
    },
  ) {}

  async started(topic: string, partition: number, offset: number): Promise<number> {
    if (this.settledAt.get(`${topic}#${partition}`) === offset) return 0;
    const committed = (await this.io.fetchCommitted(this.group, topic)).find((p) => p.partition === partition);
    return committed && committed.offset === String(offset) ? attemptsFromMetadata(committed.metadata) : 0;
  }

  async record(topic: string, partition: number, offset: number, attempt: number): Promise<void> {
    await this.io.commit([{ topic, partition, offset: String(offset), metadata: JSON.stringify({ attempts: attempt }) }]);
  }

  /** This member committed `nextOffset` for the partition. */
  settled(topic: string, partition: number, nextOffset: number): void {
    this.settledAt.set(`${topic}#${partition}`, nextOffset);
  }

  /** The assignment may have changed (a re-join): read the metadata again. */
  forget(): void {
    this.settledAt.clear();
  }
}

type Outcome = "handled" | "dead-lettered" | "abandoned";

/**
 * Handles a batch in offset order: each message is handled (retried with
 * backoff, then dead-lettered) and its offset + 1 committed before the next
 * one starts. Stops between messages when the subscription closes or the group
 * rebalances; a message abandoned mid-retry stays uncommitted and is delivered
 * again (to this or another member) — at least once.
 */
export async function consumeBatch(payload: BatchPayload, ctx: BatchContext): Promise<void> {
  const { topic, partition } = payload.batch;
  const halted = () => ctx.stopping() || ctx.groupChange.error !== undefined || !payload.isRunning() || payload.isStale();
  const lag = busMetrics.consumerLag().labels(ctx.group, topic, String(partition));
  const noteGroupChange = (err: unknown) => {
    if (!isGroupChange(err)) return false;
    ctx.groupChange.error ??= err;
    if (isAssignmentLost(err)) ctx.ownership?.lost((err as Error).message);
    else ctx.ownership?.rebalancing();
    return true;
  };
  /** Heartbeat that records a rebalance instead of throwing it; other failures are kafkajs's to retry. */
  const beat = async (quiet: boolean) => {
    try {
      await payload.heartbeat();
    } catch (err) {
      if (!noteGroupChange(err) && !quiet) throw err;
    }
  };

  for (const record of payload.batch.messages) {
    if (halted()) break;
    const signals = [ctx.ownership?.signal, ctx.closing].filter((x): x is AbortSignal => x !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const message: DeliveredMessage = { ...fromKafkaMessage(topic, partition, record), ...(signal ? { signal } : {}) };
    const outcome = await deliver(message, ctx, halted, beat);
    if (outcome === "abandoned") break;
    const next = (BigInt(record.offset) + 1n).toString();
    try {
      await payload.commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: next }] }] });
    } catch (err) {
      // Not committed: the message is delivered again after kafkajs recovers (re-join or retry).
      noteGroupChange(err);
      throw err;
    }
    payload.resolveOffset(record.offset);
    ctx.attempts?.settled(topic, partition, Number(next));
    lag.set(Math.max(0, Number(BigInt(payload.batch.highWatermark) - BigInt(next))));
    if (!halted()) await beat(false);
  }
  // Hand a rebalance to kafkajs, which re-joins; not while stopping (it would re-join instead of leaving).
  if (ctx.groupChange.error !== undefined && payload.isRunning() && !ctx.stopping()) throw ctx.groupChange.error;
}

async function deliver(message: DeliveredMessage, ctx: BatchContext, halted: () => boolean, beat: (quiet: boolean) => Promise<void>): Promise<Outcome> {
  const where = { topic: message.topic, partition: message.partition, offset: message.offset, group: ctx.group, eventType: message.headers["event-type"] };
  const traced = traceDelivery("kafka", ctx.group, message);
  const deadLetter = async (failure: unknown, attempts: number, text: string): Promise<Outcome> => {
    ctx.log.error({ err: failure, ...where, attempts }, text);
    traced.deadLettered(failure, attempts);
    try {
      await ctx.deadLetter(deadLetterMessage(message, ctx.group, failure, attempts));
    } finally {
      traced.end("dead-lettered");
    }
    busMetrics.deadLettered().labels(message.topic, ctx.group).inc();
    return "dead-lettered";
  };
  // Attempts a stopped member started on this message count (a poison message ends in the DLQ).
  const prior = (await ctx.attempts?.started(message.topic, message.partition, message.offset)) ?? 0;
  for (let attempt = prior + 1; ; attempt++) {
    if (attempt > ctx.maxAttempts) return deadLetter(new AttemptsExhaustedError(prior), prior, "event handler never finished; dead-lettering");
    await ctx.attempts?.record(message.topic, message.partition, message.offset, attempt);
    let failure: unknown;
    // Keep the membership alive while a long handler runs (kafkajs sends one only when the interval has passed).
    const keepAlive = setInterval(() => void beat(true), ctx.heartbeatIntervalMs);
    try {
      await traced.attempt(attempt, () => ctx.handler({ ...message, attempt }));
      traced.end("handled");
      return "handled";
    } catch (err) {
      failure = err;
    } finally {
      clearInterval(keepAlive);
    }
    if (ctx.stopping()) {
      // Cut short by the shutdown: not committed (delivered again), and the attempt does not count (the message did
      // not fail; a poison message that takes the process down is still counted).
      await ctx.attempts
        ?.record(message.topic, message.partition, message.offset, attempt - 1)
        .catch((err: unknown) => ctx.log.warn({ err, ...where }, "could not un-count an attempt cut short by the shutdown"));
      ctx.log.info({ ...where, attempt, reason: (failure as Error)?.message ?? String(failure) }, "event handler stopped by the shutdown; delivered again");
      traced.end("abandoned");
      return "abandoned";
    }
    if (attempt >= ctx.maxAttempts) return deadLetter(failure, attempt, "event handler failed on every attempt; dead-lettering");
    const delay = backoffDelay(attempt, ctx.backoffMs, ctx.maxBackoffMs);
    ctx.log.warn({ err: (failure as Error)?.message ?? String(failure), ...where, attempt, retryInMs: delay }, "event handler failed; retrying");
    traced.retrying(failure, attempt, delay);
    // Wait in heartbeat-sized slices so a long backoff never costs the group membership.
    for (let waited = 0; waited < delay && !halted();) {
      const slice = Math.min(delay - waited, ctx.heartbeatIntervalMs);
      await ctx.wait(slice);
      waited += slice;
      await beat(true);
    }
    if (halted()) {
      traced.end("abandoned");
      return "abandoned";
    }
  }
}

// -- the bus --

interface Clients {
  admin: Admin;
  producer: Producer;
}

/**
 * The event bus on Kafka (distributed mode). Same delivery contract as the
 * embedded bus: at least once, ordered per key (the key is the document id;
 * kafkajs's default, Java-compatible murmur2 partitioner maps it to a
 * partition), every consumer group gets every message, failing handlers are
 * retried with backoff and then dead-lettered to `<topic>.dlq`.
 */
export class KafkaEventBus implements EventBus {
  private readonly kafka: Kafka;
  private readonly log: Logger;
  private readonly settings: Settings;
  private ready: Promise<Clients> | undefined;
  private readonly topicsReady = new Map<string, Promise<void>>();
  private readonly subs = new Map<string, KafkaSubscription>();
  private readonly inflight = new Set<Promise<void>>();
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(private readonly opts: KafkaBusOptions) {
    this.settings = resolveSettings(opts);
    this.log = opts.logger;
    this.kafka = new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      ssl: opts.ssl,
      sasl: opts.sasl,
      connectionTimeout: opts.connectionTimeoutMs ?? 3_000,
      requestTimeout: opts.requestTimeoutMs ?? 30_000,
      logLevel: kafkaLogLevel(opts.logger),
      logCreator: kafkaLogCreator(opts.logger),
    });
  }

  /** Connects the producer and admin client and creates the configured topics. publish and subscribe do this on first use. */
  async connect(): Promise<void> {
    if (this.closed) throw new Error("event bus is closed");
    await this.clients();
    if (this.opts.topics?.length) await this.ensureTopics(this.opts.topics);
  }

  async publish(messages: OutgoingMessage[]): Promise<void> {
    if (this.closed) throw new Error("event bus is closed");
    if (messages.length === 0) return;
    const sending = this.send(messages);
    this.inflight.add(sending);
    try {
      await sending;
    } finally {
      this.inflight.delete(sending);
    }
  }

  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error("event bus is closed");
    if (opts.topics.length === 0) throw new Error("subscribe needs at least one topic");
    if (this.subs.has(opts.group)) throw new Error(`consumer group "${opts.group}" already has a subscription on this bus (one consumer per group)`);
    const sub = new KafkaSubscription(
      this.kafka,
      opts,
      this.settings,
      this.log,
      (m) => this.send([m]),
      async (group, topic) => {
        const { admin } = await this.clients();
        return (await admin.fetchOffsets({ groupId: group, topics: [topic] })).find((t) => t.topic === topic)?.partitions ?? [];
      },
    );
    this.subs.set(opts.group, sub);
    const forget = async () => {
      await sub.stop();
      if (this.subs.get(opts.group) === sub) this.subs.delete(opts.group);
    };
    try {
      await this.ensureTopics(opts.topics);
      await sub.start();
    } catch (err) {
      await forget().catch((e) => this.log.warn({ err: e, group: opts.group }, "could not stop a consumer that failed to start"));
      throw err;
    }
    if (this.closed) throw new Error("event bus is closed");
    return { abort: (reason) => sub.abort(reason), close: forget };
  }

  /** Stops every subscription (in-flight handlers are aborted; what they complete is committed), waits for publishes in flight, disconnects. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      // Consumers first: a handler finishing now may still dead-letter through the producer.
      // Every step runs even if an earlier one fails; the first failure is reported at the end.
      const results = await Promise.allSettled([...this.subs.values()].map((s) => s.stop()));
      this.subs.clear();
      await Promise.allSettled([...this.inflight]);
      const ready = this.ready;
      this.ready = undefined;
      const clients = await ready?.catch(() => undefined);
      if (clients) results.push(...(await Promise.allSettled([clients.producer.disconnect(), clients.admin.disconnect()])));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
      if (failed) throw failed.reason;
    })();
    return this.closing;
  }

  /** Every subscription still consuming? A consumer that crashed for good (kafkajs does not restart it) is a problem. */
  health(): BusHealth {
    const problems = [...this.subs.values()].map((s) => s.problem()).filter((p): p is string => p !== undefined);
    return { ok: problems.length === 0, problems };
  }

  /** Consumer lag of a group over topics: messages not yet committed (the hook behind dashboards and tests). */
  async lag(group: string, topics: string[]): Promise<number> {
    if (this.closed) throw new Error("event bus is closed");
    const { admin } = await this.clients();
    let total = 0;
    for (const { topic, partitions } of await admin.fetchOffsets({ groupId: group, topics })) {
      total += topicLag(partitions, await admin.fetchTopicOffsets(topic));
    }
    return total;
  }

  // -- internals --

  private clients(): Promise<Clients> {
    this.ready ??= (async () => {
      const admin = this.kafka.admin();
      const producer = this.kafka.producer({
        idempotent: true,
        // kafkajs keeps an idempotent producer's sequence numbers in order only with one request in flight.
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      try {
        await Promise.all([admin.connect(), producer.connect()]);
      } catch (err) {
        this.ready = undefined; // the next call tries again
        await Promise.allSettled([admin.disconnect(), producer.disconnect()]);
        throw err;
      }
      return { admin, producer };
    })();
    return this.ready;
  }

  private async send(messages: OutgoingMessage[]): Promise<void> {
    const { producer } = await this.clients();
    const byTopic = new Map<string, Message[]>();
    for (const m of messages) {
      const list = byTopic.get(m.topic) ?? [];
      list.push(toKafkaMessage(m));
      byTopic.set(m.topic, list);
    }
    await this.ensureTopics([...byTopic.keys()]);
    await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })) });
    for (const m of messages) busMetrics.published().labels(m.topic).inc();
  }

  /** Creates missing topics (and their `.dlq` topics) once per bus; existing topics are left as they are. */
  private ensureTopics(topics: string[]): Promise<void> {
    const wanted = new Set<string>();
    for (const t of topics) {
      wanted.add(t);
      if (!isDeadLetterTopic(t)) wanted.add(deadLetterTopic(t));
    }
    const missing = [...wanted].filter((t) => !this.topicsReady.has(t));
    if (missing.length > 0) {
      const creating = this.createTopics(missing);
      for (const t of missing) this.topicsReady.set(t, creating);
      creating.catch(() => {
        for (const t of missing) if (this.topicsReady.get(t) === creating) this.topicsReady.delete(t);
      });
    }
    return Promise.all([...wanted].map((t) => this.topicsReady.get(t))).then(() => undefined);
  }

  private async createTopics(topics: string[]): Promise<void> {
    const { admin } = await this.clients();
    const existing = new Set(await admin.listTopics());
    const create = topics.filter((t) => !existing.has(t));
    const found = topics.filter((t) => existing.has(t));
    if (found.length > 0) await this.checkTopicSettings(admin, found);
    if (create.length === 0) return;
    const { topicPartitions: numPartitions, replicationFactor, minInsyncReplicas } = this.settings;
    // Another process may create some of them at the same moment; kafkajs then returns false instead of failing.
    await admin.createTopics({
      waitForLeaders: true,
      topics: create.map((topic) => ({ topic, numPartitions, replicationFactor, configEntries: topicConfigEntries(this.settings, topic) })),
    });
    this.log.info({ topics: create, partitions: numPartitions, replicationFactor, minInsyncReplicas }, "created Kafka topics");
  }

  /**
   * Topics that already exist keep their settings (an operator may manage
   * them); a durability setting weaker than this bus's is logged as a warning
   * once per topic, naming the setting to change.
   */
  private async checkTopicSettings(admin: Admin, topics: string[]): Promise<void> {
    try {
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: topics.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ["min.insync.replicas", "retention.ms"] })),
      });
      for (const r of resources) {
        const value = (name: string) => r.configEntries.find((e) => e.configName === name)?.configValue;
        const isr = Number(value("min.insync.replicas"));
        const retention = Number(value("retention.ms"));
        const wanted = isDeadLetterTopic(r.resourceName) ? this.settings.deadLetterRetentionMs : this.settings.retentionMs;
        const weaker: string[] = [];
        if (Number.isFinite(isr) && isr < this.settings.minInsyncReplicas)
          weaker.push(`min.insync.replicas=${isr} (this bus creates ${this.settings.minInsyncReplicas})`);
        if (Number.isFinite(retention) && retention >= 0 && retention < wanted) weaker.push(`retention.ms=${retention} (this bus creates ${wanted})`);
        if (weaker.length > 0)
          this.log.warn(
            { topic: r.resourceName, settings: weaker },
            "an existing Kafka topic has weaker settings than Engram creates; change them with kafka-configs",
          );
      }
    } catch (err) {
      this.log.warn({ err, topics }, "could not read the settings of existing Kafka topics");
    }
  }
}

/** One kafkajs consumer for one consumer group. */
class KafkaSubscription {
  private consumer: Consumer | undefined;
  private started: Promise<void> | undefined;
  private stopped: Promise<void> | undefined;
  private stopping = false;
  private readonly wakers = new Set<() => void>();
  /** Aborted when the subscription stops: the in-flight handlers' signal. */
  private readonly aborter = new AbortController();
  private readonly groupChange: { error?: unknown } = {};
  private readonly ownership: PartitionOwnership;
  private failure: string | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly opts: SubscribeOptions,
    private readonly settings: Settings,
    private readonly log: Logger,
    private readonly deadLetter: (m: OutgoingMessage) => Promise<void>,
    private readonly fetchCommitted: (group: string, topic: string) => Promise<{ partition: number; offset: string; metadata: string | null }[]>,
  ) {
    this.rebalanceTimeoutMs = derivedRebalanceTimeout(settings.rebalanceTimeoutMs, settings.heartbeatIntervalMs, opts.maxHandlerMs);
    this.ownership = new PartitionOwnership(this.rebalanceTimeoutMs, settings.heartbeatIntervalMs);
  }

  readonly rebalanceTimeoutMs: number;

  /** Why this consumer no longer consumes, or undefined while it does (or is restarting). */
  problem(): string | undefined {
    return this.failure;
  }

  /** Resolves once the consumer has joined its group and fetches. */
  start(): Promise<void> {
    if (this.stopping) return Promise.resolve(); // closed before it started: never connect
    this.started ??= this.run();
    return this.started;
  }

  /** Stops fetching (no message is started after this) and aborts the in-flight handlers' signal, without waiting. */
  abort(reason: unknown = new Error("the event subscription is closing (the process is stopping)")): void {
    if (this.stopping) return;
    this.stopping = true;
    this.aborter.abort(reason);
    for (const wake of [...this.wakers]) wake();
  }

  /** Aborts, waits for the in-flight handlers (what they complete is committed), leaves the group, disconnects. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.abort();
      // A consumer still joining would not see the stop; let it finish starting first.
      await this.started?.catch(() => undefined);
      await this.consumer?.disconnect();
      this.ownership.close();
    })();
    return this.stopped;
  }

  private async run(): Promise<void> {
    const { group, topics, handler } = this.opts;
    const s = this.settings;
    const consumer = this.kafka.consumer({
      groupId: group,
      sessionTimeout: s.sessionTimeoutMs,
      heartbeatInterval: s.heartbeatIntervalMs,
      rebalanceTimeout: this.rebalanceTimeoutMs,
      maxWaitTimeInMs: s.maxWaitTimeMs,
      allowAutoTopicCreation: false,
    });
    this.consumer = consumer;
    // kafkajs logs joins and crashes itself; a (re-)join ends the rebalance the batches stopped for.
    const attempts = new KafkaAttemptLedger(group, { fetchCommitted: this.fetchCommitted, commit: (entries) => consumer.commitOffsets(entries) });
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.groupChange.error = undefined;
      this.failure = undefined;
      this.ownership.rejoined();
      attempts.forget();
    });
    // A rebalance started: this member must re-join before the rebalance timeout or lose its partitions.
    consumer.on(consumer.events.REBALANCING, () => this.ownership.rebalancing());
    // kafkajs restarts a consumer after a retriable crash; after any other it stays stopped: readiness must say so.
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      this.ownership.lost("the consumer crashed");
      if (payload.restart || this.stopping) return;
      this.failure = `consumer of group ${group} crashed and stopped: ${payload.error?.message ?? String(payload.error)}`;
      this.log.error({ err: payload.error, group }, "Kafka consumer crashed and will not restart; this process is no longer ready");
    });
    consumer.on(consumer.events.STOP, () => {
      if (!this.stopping) this.failure ??= `consumer of group ${group} stopped unexpectedly`;
    });
    if (this.rebalanceTimeoutMs !== s.rebalanceTimeoutMs) {
      this.log.info(
        { group, rebalanceTimeoutMs: this.rebalanceTimeoutMs, maxHandlerMs: this.opts.maxHandlerMs },
        "rebalance timeout raised to outlast the longest handler",
      );
    }
    const ctx: BatchContext = {
      group,
      handler,
      maxAttempts: s.maxAttempts,
      backoffMs: s.backoffMs,
      maxBackoffMs: s.maxBackoffMs,
      heartbeatIntervalMs: s.heartbeatIntervalMs,
      log: this.log,
      deadLetter: this.deadLetter,
      stopping: () => this.stopping,
      closing: this.aborter.signal,
      wait: (ms) => this.wait(ms),
      groupChange: this.groupChange,
      attempts,
      ownership: this.ownership,
    };
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    if (this.stopping) return; // stop() disconnects once this has returned
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: s.concurrency,
      eachBatch: (payload) => consumeBatch(payload, ctx),
    });
  }

  private wait(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }
}
