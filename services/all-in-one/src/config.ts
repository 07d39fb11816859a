import { checkKafkaConfig, kafkaConfigShape } from "@engram/bus";
import { ConfigError, env, loadConfig, mongoConfigShape, shutdownConfigProblems, shutdownConfigShape, z, type Env } from "@engram/config";
import { ANN_MIN_VECTORS, checkQdrantConfig, qdrantConfigShape } from "@engram/index";
import { loadGatewayConfig } from "@engram/gateway";
import { loadIngestionConfig } from "@engram/ingestion";
import { loadWorkerConfig } from "@engram/pipeline-worker";
import { loadMemoriesConfig } from "@engram/memories";
import { loadRecallConfig } from "@engram/recall";
import { loadConnectionsConfig } from "@engram/connections";

import { SERVICES, type ServiceName, topologyProblems } from "./topology";
import { securityConfigShape, securityProblems } from "./security";

export { SERVICES, type ServiceName };

export const processSchema = z
  .object({
    TARGETS: z
      .string()
      .default("all")
      .transform((v, ctx) => {
        const parts = v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        if (parts.length === 1 && parts[0] === "all") return new Set<ServiceName>(SERVICES);
        const bad = parts.filter((p) => !(SERVICES as readonly string[]).includes(p));
        if (bad.length || parts.length === 0) {
          ctx.addIssue({
            code: "custom",
            message: `must be "all" or a comma-separated list of ${SERVICES.join(", ")}${bad.length ? `; unknown: ${bad.join(", ")}` : ""}`,
          });
          return z.NEVER;
        }
        return new Set(parts as ServiceName[]);
      }),
    /** Event bus: in-process and durable under the data dir, or Kafka (services in separate processes). */
    BUS: z.enum(["embedded", "kafka"], { message: "must be embedded or kafka" }).default("embedded"),
    /** Records (documents, settings, keys, memories): SQLite under the data dir, or MongoDB. */
    STORE: z.enum(["embedded", "mongo"], { message: "must be embedded or mongo" }).default("embedded"),
    /** Prometheus endpoint (GET /metrics) for a process without the gateway, as host:port; unset = none. */
    METRICS_ADDRESS: env.address().optional(),
    ENGRAM_DATA_DIR: env.string("./.data"),
    LOG_LEVEL: env.logLevel(),
    /** Interface the in-process gRPC servers bind (loopback: nothing leaves the machine). */
    GRPC_HOST: env.string("127.0.0.1"),
    BUS_PARTITIONS: env.int(8, { min: 1, max: 256 }),
    BUS_MAX_ATTEMPTS: env.int(5, { min: 1, max: 100 }),
    BUS_BACKOFF_MS: env.int(200, { min: 1 }),
    /** Run the gateway on its own worker thread when other services share the process (uses a second core). */
    GATEWAY_THREAD: env.bool(true),
    /** /healthz fails while an event loop of the process is blocked longer than this (ms), and for 30 s after such a stall. */
    HEALTH_MAX_LOOP_LAG_MS: env.int(5000, { min: 100, max: 600_000 }),
    /** SHUTDOWN_GRACE_MS (the budget from SIGTERM to exit), SHUTDOWN_DELAY_MS (load balancers stop routing), SHUTDOWN_DEADLINE_MS (a gRPC drain). */
    ...shutdownConfigShape,
    /** Readiness fails (the part is `low`) while the data volume has less free space than this (MB); 0 = only a failing write probe. */
    STORAGE_MIN_FREE_MB: env.int(16, { min: 0, max: 1_000_000 }),
    /**
     * Memory the embedded index and memory store may keep loaded (MB), chunks and memories together; past it the least
     * recently used partitions (one per container tag) are dropped and read back on their next use. 0 = no limit.
     */
    INDEX_MEMORY_BUDGET_MB: env.int(1536, { min: 0, max: 16_777_216 }),
    /** The embedded chunk index saves its large partitions at close and reads them back at start (architecture.md, "Saved partitions"). */
    INDEX_SNAPSHOTS: env.bool(true),
    /** Live chunks from which a container's partition is saved (SNAPSHOT_MIN_CHUNKS; smaller ones load from their rows quickly). */
    INDEX_SNAPSHOT_MIN_CHUNKS: env.int(50_000, { min: 1, max: 1_000_000_000 }),
    /**
     * Vectors of one model in one container from which the embedded dense pass is approximate (an HNSW graph built in
     * the background; ANN_MIN_VECTORS, architecture.md "Approximate dense pass"). 0 = always the exact scan.
     */
    INDEX_ANN_MIN_VECTORS: env.int(ANN_MIN_VECTORS, { min: 0, max: 1_000_000_000 }),
    /** Time between write probes of the data directory's parts (ms); a write that fails for lack of space probes at once. */
    STORAGE_PROBE_INTERVAL_MS: env.int(5000, { min: 250, max: 600_000 }),
    ...kafkaConfigShape,
    ...mongoConfigShape,
    ...securityConfigShape,
    ...qdrantConfigShape,
    // After the Qdrant shape: one definition of INDEX (the same values), documented here.
    /** Search read models (chunks, memory search): in-process, or Qdrant. */
    INDEX: z.enum(["embedded", "qdrant"], { message: "must be embedded or qdrant" }).default("embedded"),
  })
  .superRefine((c, ctx) => {
    checkKafkaConfig(c, ctx);
    checkQdrantConfig(c, ctx);
    if (c.STORE === "mongo" && !c.MONGO_URL) ctx.addIssue({ code: "custom", path: ["MONGO_URL"], message: "is required when STORE=mongo" });
  });

/** Every service's configuration from one environment; all problems reported together. */
export function loadAllInOneConfig(e: Env = process.env) {
  const problems: string[] = [];
  const attempt = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof ConfigError) {
        problems.push(...err.problems.map((p) => `${err.component}: ${p}`));
        return undefined;
      }
      throw err;
    }
  };
  const proc = attempt(() => loadConfig("engram", processSchema, e));
  const result = {
    process: proc,
    ingestion: attempt(() => loadIngestionConfig(e)),
    worker: attempt(() => loadWorkerConfig(e)),
    memories: attempt(() => loadMemoriesConfig(e)),
    recall: attempt(() => loadRecallConfig(e)),
    connections: attempt(() => loadConnectionsConfig(e)),
    gateway: attempt(() => loadGatewayConfig(e)),
  };
  if (proc) problems.push(...securityProblems(proc, proc.TARGETS).map((m) => `engram: ${m}`));
  if (proc) problems.push(...topologyProblems({ targets: proc.TARGETS, bus: proc.BUS, store: proc.STORE, index: proc.INDEX }).map((m) => `engram: ${m}`));
  if (proc) problems.push(...shutdownConfigProblems(proc).map((m) => `engram: ${m}`));
  const embedderKeys = ["EMBEDDER", "MEMORY_EMBEDDER", "EMBEDDING_DIMENSIONS", "EMBEDDING_MODEL", "EMBEDDING_BASE_URL"] as const;
  if (
    result.worker &&
    result.recall &&
    result.memories &&
    embedderKeys.some((k) => result.worker![k] !== result.recall![k] || result.memories![k] !== result.recall![k])
  ) {
    problems.push("pipeline-worker, memories and recall must use the same embedder and dimensions");
  }
  if (proc?.INDEX === "qdrant" && result.recall?.EMBEDDER === "openai" && !result.recall.EMBEDDING_DIMENSIONS) {
    problems.push("EMBEDDING_DIMENSIONS: is required with INDEX=qdrant and EMBEDDER=openai (the collections' vector size is fixed when they are created)");
  }
  if (problems.length) throw new ConfigError("engram", [...new Set(problems)]);
  return result as { [K in keyof typeof result]: NonNullable<(typeof result)[K]> };
}

export type AllInOneConfig = ReturnType<typeof loadAllInOneConfig>;
