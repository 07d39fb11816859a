import path from "node:path";
import { EmbeddedEventBus, type EventBus, KafkaEventBus, kafkaOptionsFromConfig, TOPICS } from "@engram/bus";
import {
  type ChunkIndex,
  createEmbedder,
  createMemoryEmbedder,
  createQdrantClient,
  MEMORY_RANKING,
  partitionBudget,
  QdrantChunkIndex,
  SearchEngine,
  SqliteChunkIndex,
  ThreadGraphBuilder,
} from "@engram/index";
import { createNlp } from "@engram/nlp";
import type { Logger } from "@engram/observability";
import { LoopHeartbeat, metrics, startMetricsServer } from "@engram/observability";
import { raiseStorageFaults, type StoragePart } from "@engram/kernel";
import { ProcessRuntime, type StoragePartDir, StorageMonitor } from "@engram/runtime";
import { createGatewayModule, openGatewayKeyStore, openGuardStores } from "@engram/gateway";
import { createGatewayThreadModule } from "./gateway-thread";
import { createIngestionModule, embeddedIngestionStorage } from "@engram/ingestion";
import { createWorkerModule } from "@engram/pipeline-worker";
import { createEmbeddedMemoryStore, createMemoriesModule, type MemoryRepository } from "@engram/memories";
import { createRecallModule, type MemoryReadModel } from "@engram/recall";
import { createConnectionsModule, embeddedConnectionRepository, embeddedSettingsRepository } from "@engram/connections";
import { clientSecurity } from "@engram/grpc";
import { type AllInOneConfig, SERVICES } from "./config";
import { processSecurity, securityOf } from "./security";
import { BUS_PARTICIPANTS, CHUNK_INDEX_USERS, CHUNK_INDEX_WRITERS, MEMORY_STORE_USERS, memoryStoreKind } from "./topology";

export interface RunningStack {
  runtime: ProcessRuntime;
  httpPort?: number;
  grpcPorts: Record<string, number>;
}

/**
 * The all-in-one composition root: every selected service module in this
 * process, started in dependency order (ingestion, connections, recall,
 * memories, pipeline-worker, gateway; each after the services it calls), each on its own loopback gRPC port
 * (the gateway and the worker still dial them), sharing one embedded event
 * bus and one embedded chunk index under the data directory.
 */
export async function startStack(c: AllInOneConfig, logger: Logger, print?: (line: string) => void): Promise<RunningStack> {
  const p = c.process;
  const targets = p.TARGETS;
  const dataDir = path.resolve(p.ENGRAM_DATA_DIR);
  metrics.collectDefaults();
  // Service-to-service trust (docs/api-decisions.md §19): every gRPC server here verifies the assertion of each call,
  // every client signs as its service; in one process without configured keys they are generated in memory now.
  const security = processSecurity(p, targets);
  const runtime = new ProcessRuntime(logger, {
    graceMs: p.SHUTDOWN_GRACE_MS,
    shutdownDeadlineMs: p.SHUTDOWN_DEADLINE_MS,
    shutdownDelayMs: p.SHUTDOWN_DELAY_MS,
    security,
  });
  // The services' event loop (this thread): /healthz fails while it is blocked or keeps stalling.
  const loopHealth = { maxLagMs: p.HEALTH_MAX_LOOP_LAG_MS };
  const heartbeat = new LoopHeartbeat(loopHealth).start();
  runtime.onStopped(async () => heartbeat.stop());
  // The parts that write under the data directory (embedded engines only): probed for readiness, and their
  // adapters answer a full or read-only disk with 507 naming the part (docs/api-decisions.md section 21).
  const embeddedStore = p.STORE !== "mongo";
  const storageDirs: StoragePartDir[] = [];
  // The SQLite stores: documents (ingestion), connections and settings, memories, the gateway's keys and guards.
  if (embeddedStore && (["ingestion", "connections", "memories", "gateway"] as const).some((t) => targets.has(t)))
    storageDirs.push({ part: "store", dir: dataDir });
  if (embeddedStore && targets.has("ingestion")) storageDirs.push({ part: "fileStore", dir: path.join(dataDir, "files") });
  if (p.INDEX !== "qdrant" && CHUNK_INDEX_USERS.some((s) => targets.has(s))) storageDirs.push({ part: "index", dir: dataDir });
  if (p.BUS !== "kafka" && BUS_PARTICIPANTS.some((s) => targets.has(s))) storageDirs.push({ part: "bus", dir: dataDir });
  // One memory budget for the embedded stores' loaded partitions, chunks and memories together.
  const residency = partitionBudget(p.INDEX_MEMORY_BUDGET_MB);
  metrics.gauge(
    "engram_index_memory_bytes",
    "Bytes of the embedded stores' partitions held in memory (estimate), against INDEX_MEMORY_BUDGET_MB",
    ["kind"],
    (g) => {
      const s = residency.stats();
      g.set({ kind: "used" }, s.usedBytes);
      g.set({ kind: "budget" }, s.limitBytes);
    },
  );
  metrics.gauge("engram_index_memory_evictions", "Partitions dropped from memory to stay within INDEX_MEMORY_BUDGET_MB since start", [], (g) =>
    g.set(residency.stats().evictions),
  );
  const storage = new StorageMonitor({
    parts: storageDirs,
    minFreeBytes: p.STORAGE_MIN_FREE_MB * 1024 * 1024,
    intervalMs: p.STORAGE_PROBE_INTERVAL_MS,
    logger: logger.child({ component: "storage" }),
  });
  /** An embedded adapter whose writes a full or read-only disk refuses with 507 naming `part` (and a probe at once). */
  const guarded = <T extends object>(adapter: T, part: StoragePart): T => raiseStorageFaults(adapter, part, () => storage.report());
  const busLog = logger.child({ component: "bus" });
  // Only services that publish or consume events get a bus (a gateway-only process never connects to Kafka).
  const needsBus = BUS_PARTICIPANTS.some((s) => targets.has(s));
  const bus: EventBus | undefined = !needsBus
    ? undefined
    : p.BUS === "kafka"
      ? new KafkaEventBus({
          ...kafkaOptionsFromConfig(p),
          logger: busLog,
          maxAttempts: p.BUS_MAX_ATTEMPTS,
          backoffMs: p.BUS_BACKOFF_MS,
          topics: Object.values(TOPICS),
        })
      : guarded(
          new EmbeddedEventBus({ dataDir, logger: busLog, partitions: p.BUS_PARTITIONS, maxAttempts: p.BUS_MAX_ATTEMPTS, backoffMs: p.BUS_BACKOFF_MS }),
          "bus",
        );
  if (bus) runtime.onStopped(() => bus.close());
  // Topics exist before any service publishes or subscribes (a broker that cannot be reached fails the start).
  if (bus instanceof KafkaEventBus) await bus.connect();
  // A consumer that crashed for good leaves the process not ready (its gRPC health NOT_SERVING) instead of idle.
  if (bus?.health) runtime.watchReadiness("event bus", () => bus.health!());
  // Dense graphs of large containers are built on one worker thread, shared by the chunk index and the memory store.
  const graphLog = logger.child({ component: "dense-graphs" });
  const graphBuilder = new ThreadGraphBuilder({ onError: (err) => graphLog.error({ err }, "dense graph thread failed") });
  runtime.onStopped(() => graphBuilder.close());
  const graphBuilds = {
    graphBuilder,
    onGraphBuildFailed: (err: unknown) => graphLog.warn({ err }, "dense graph build failed on the worker thread; building in slices instead"),
  };
  // The model whose vectors searches will compare, when it has meaning: partitions warmed at start load its vectors.
  const denseModels = (e: { id: string; semantic: boolean }) => (e.semantic ? { vectorModels: [e.id] } : {});
  // When a container's approximate dense pass is ready (engine/hnsw.ts): until then its searches scan every vector.
  const graphsBuilt = (component: string) => {
    const log = logger.child({ component });
    return (partition: string, info: { vectors: number; seconds: number }) => {
      const [tenantId, namespace] = partition.split("\u0000");
      log.info({ tenantId, namespace, vectors: info.vectors, seconds: Math.round(info.seconds * 10) / 10 }, "dense graph built");
    };
  };
  // The chunk index is written by the pipeline-worker and read by recall and memory formation.
  let index: ChunkIndex | undefined;
  if (CHUNK_INDEX_USERS.some((s) => targets.has(s))) {
    // Qdrant: the collection is created (or checked against the embedder's size) before anything is served. A process
    // that only reads the index (recall alone) opens it read-only: it creates nothing and refuses writes.
    const readsOnly = !CHUNK_INDEX_WRITERS.some((s) => targets.has(s));
    const qdrantChunks = {
      prefix: p.QDRANT_COLLECTION_PREFIX,
      dimensions: createEmbedder(c.recall).dimensions,
      indexedMetadataKeys: p.QDRANT_INDEXED_METADATA_KEYS,
      fusion: p.QDRANT_FUSION,
    };
    // The embedded index saves its large partitions at close and reads them back at start (deployment.md, "Start-up").
    const embedded =
      p.INDEX === "qdrant"
        ? undefined
        : new SqliteChunkIndex(dataDir, {
            budget: residency,
            annMinVectors: p.INDEX_ANN_MIN_VECTORS,
            ...graphBuilds,
            ...denseModels(createEmbedder(c.recall)),
            onGraphsBuilt: graphsBuilt("index"),
            ...(p.INDEX_SNAPSHOTS ? { snapshots: path.join(dataDir, "index-snapshots"), snapshotMinChunks: p.INDEX_SNAPSHOT_MIN_CHUNKS } : {}),
          });
    const idx = embedded
      ? guarded(embedded, "index")
      : readsOnly
        ? await QdrantChunkIndex.openReadOnly(createQdrantClient(p), qdrantChunks)
        : await QdrantChunkIndex.open(createQdrantClient(p), qdrantChunks);
    index = idx;
    const indexLog = logger.child({ component: "index" });
    runtime.onStopped(async () => {
      if (!embedded) return idx.close();
      const started = performance.now();
      const saved = embedded.saveSnapshots((_partition, err) =>
        indexLog.warn({ err }, "a partition's saved copy could not be written; the next start reads its rows"),
      );
      await embedded.close();
      indexLog.info({ ms: Math.round(performance.now() - started), savedPartitions: saved.partitions, savedBytes: saved.bytes }, "chunk index closed");
    });
  }
  // MongoDB: one connection for the process's stores (closed after every module stopped). Loaded only when chosen.
  const mongoSettings = p.STORE === "mongo" ? { url: p.MONGO_URL!, dbName: p.MONGO_DB } : undefined;
  let mongo: import("@engram/storage/mongo").MongoConnection | undefined;
  if (mongoSettings && (["ingestion", "connections", "memories", "recall"] as const).some((t) => targets.has(t))) {
    const { connectMongo } = await import("@engram/storage/mongo");
    const conn = await connectMongo(mongoSettings);
    runtime.onStopped(() => conn.close());
    mongo = conn;
  }
  const mongoDb = mongo?.db;
  // The memory store is written by memories and read by recall (its read-model port, which the store implements):
  // embedded (SQLite + in-memory engine), or records in MongoDB with their search mirrored to Qdrant.
  // The memories service owns the store's schema and its reconciler: a process without it (recall alone) opens the
  // production store's read side only (no DDL, no reconcile pass, no writes).
  let memoryStore: MemoryRepository | undefined;
  let memoryReads: MemoryReadModel | undefined;
  if (MEMORY_STORE_USERS.some((s) => targets.has(s))) {
    const production = memoryStoreKind({ store: p.STORE, index: p.INDEX }) === "production";
    const storeLog = logger.child({ component: "memory-store" });
    // The process's MongoDB connection (opened above whenever the store is production).
    const shared = () => ({ mongo: { client: mongo!.client, db: mongo!.db } });
    if (production && !targets.has("memories")) {
      const reader = await (await import("@engram/memories/production")).createProductionMemoryReaderFromConfig({ ...c.memories, ...p }, storeLog, shared());
      memoryReads = reader;
      runtime.onStopped(() => reader.close());
    } else {
      const store: MemoryRepository & MemoryReadModel = production
        ? await (await import("@engram/memories/production")).createProductionMemoryStoreFromConfig({ ...c.memories, ...p }, storeLog, shared())
        : guarded(
            createEmbeddedMemoryStore(
              { ...c.memories, ENGRAM_DATA_DIR: dataDir },
              (load) =>
                new SearchEngine({
                  load,
                  ranking: MEMORY_RANKING,
                  ann: { minVectors: p.INDEX_ANN_MIN_VECTORS },
                  onGraphsBuilt: graphsBuilt("memory-store"),
                  ...graphBuilds,
                  ...denseModels(createMemoryEmbedder(c.memories)),
                }),
              residency,
            ),
            "store",
          );
      memoryStore = store;
      memoryReads = store;
      runtime.onStopped(() => store.close());
    }
  }
  // One set of language components (extractor, relator, reranker, ...) for both services.
  // The offline extractor runs on worker threads: its cost grows with the document.
  const nlp = createNlp(c.memories, { threads: true });
  runtime.onStopped(async () => {
    await nlp.close?.();
  });
  // Every service here: loopback ports picked by the system (nothing else dials them). A split process binds
  // each service's configured address, where its peers in other processes expect it.
  const together = SERVICES.every((s) => targets.has(s));
  const bindAddress = (configured: string) => (together ? `${p.GRPC_HOST}:0` : configured);
  const local = (port: number | undefined) => `127.0.0.1:${port}`;
  const grpcPorts: Record<string, number> = {};
  const addresses = {
    ingestion: c.gateway.INGESTION_ADDRESS,
    memories: c.gateway.MEMORIES_ADDRESS,
    recall: c.gateway.RECALL_ADDRESS,
    connections: c.gateway.CONNECTIONS_ADDRESS,
  };

  const guardedIngestion = (st: ReturnType<typeof embeddedIngestionStorage>): ReturnType<typeof embeddedIngestionStorage> => ({
    ...st,
    repo: guarded(st.repo, "store"),
    files: guarded(st.files, "fileStore"),
  });

  try {
    if (targets.has("ingestion")) {
      const config = { ...c.ingestion, ENGRAM_DATA_DIR: dataDir };
      grpcPorts.ingestion = (await runtime.add(
        createIngestionModule({
          config,
          bus: bus!,
          logger,
          storage: mongoDb
            ? await (await import("@engram/ingestion/mongo")).mongoIngestionStorage(mongoDb)
            : guardedIngestion(embeddedIngestionStorage(config)),
        }),
        bindAddress(c.ingestion.INGESTION_GRPC_ADDRESS),
      ))!;
      addresses.ingestion = local(grpcPorts.ingestion);
    }
    if (targets.has("connections")) {
      // OAuth callbacks and webhooks come through the gateway: in one process its address is known (unless its port is chosen at start).
      const publicUrl =
        c.connections.ENGRAM_PUBLIC_URL ??
        c.gateway.ENGRAM_PUBLIC_URL ??
        (targets.has("gateway") && c.gateway.PORT !== 0 ? `http://localhost:${c.gateway.PORT}` : undefined);
      const config = { ...c.connections, ENGRAM_DATA_DIR: dataDir, INGESTION_ADDRESS: addresses.ingestion, ENGRAM_PUBLIC_URL: publicUrl };
      const mongoStores = mongoDb ? await import("@engram/connections/mongo") : undefined;
      grpcPorts.connections = (await runtime.add(
        createConnectionsModule({
          config,
          logger,
          settings: mongoStores ? await mongoStores.createMongoSettingsRepository(mongoDb!) : guarded(embeddedSettingsRepository(config), "store"),
          connections: mongoStores ? await mongoStores.createMongoConnectionRepository(mongoDb!) : guarded(embeddedConnectionRepository(config), "store"),
          security: clientSecurity(security, "connections"),
        }),
        bindAddress(c.connections.CONNECTIONS_GRPC_ADDRESS),
      ))!;
      addresses.connections = local(grpcPorts.connections);
    }
    if (targets.has("recall")) {
      const config = { ...c.recall, ENGRAM_DATA_DIR: dataDir, INGESTION_ADDRESS: addresses.ingestion, CONNECTIONS_ADDRESS: addresses.connections };
      grpcPorts.recall = (await runtime.add(
        createRecallModule({ config, index: index!, memories: memoryReads!, nlp, logger, security: clientSecurity(security, "recall") }),
        bindAddress(c.recall.RECALL_GRPC_ADDRESS),
      ))!;
      addresses.recall = local(grpcPorts.recall);
    }
    if (targets.has("memories")) {
      const config = {
        ...c.memories,
        ENGRAM_DATA_DIR: dataDir,
        INGESTION_ADDRESS: addresses.ingestion,
        CONNECTIONS_ADDRESS: addresses.connections,
        BUS_MAX_ATTEMPTS: p.BUS_MAX_ATTEMPTS,
      };
      grpcPorts.memories = (await runtime.add(
        createMemoriesModule({ config, bus: bus!, store: memoryStore!, chunks: index!, nlp, logger, security: clientSecurity(security, "memories") }),
        bindAddress(c.memories.MEMORIES_GRPC_ADDRESS),
      ))!;
      addresses.memories = local(grpcPorts.memories);
    }
    if (targets.has("pipeline-worker")) {
      const config = {
        ...c.worker,
        ENGRAM_DATA_DIR: dataDir,
        INGESTION_ADDRESS: addresses.ingestion,
        CONNECTIONS_ADDRESS: addresses.connections,
        BUS_MAX_ATTEMPTS: p.BUS_MAX_ATTEMPTS,
      };
      grpcPorts["pipeline-worker"] = (await runtime.add(
        createWorkerModule({ config, bus: bus!, index: index!, logger, security: clientSecurity(security, "pipeline-worker") }),
        bindAddress(c.worker.PIPELINE_WORKER_GRPC_ADDRESS),
      ))!;
    }
    // Probed once every store is open (the file store has made its folder) and before the gateway serves, so
    // readiness never says ready over a disk that cannot write.
    if (storageDirs.length > 0) await runtime.watchStorage(storage);
    let httpPort: number | undefined;
    if (targets.has("gateway")) {
      const config = {
        ...c.gateway,
        ENGRAM_DATA_DIR: dataDir,
        INGESTION_ADDRESS: addresses.ingestion,
        MEMORIES_ADDRESS: addresses.memories,
        RECALL_ADDRESS: addresses.recall,
        CONNECTIONS_ADDRESS: addresses.connections,
      };
      // With services in this process, the gateway gets its own thread (its own core): HTTP and the gRPC client side
      // no longer queue behind the services' work.
      const threaded = p.GATEWAY_THREAD && targets.size > 1;
      const gateway = threaded
        ? createGatewayThreadModule({
            config,
            logger,
            loop: { buffer: heartbeat.buffer, ...loopHealth },
            logLevel: p.LOG_LEVEL,
            mongo: mongoSettings,
            security: securityOf(security, "gateway"),
            print,
            // Half the shutdown budget: the services behind it still stop and the stores close within the rest.
            stopTimeoutMs: Math.round(p.SHUTDOWN_GRACE_MS / 2),
            onCrash: (err) => {
              logger.fatal({ err }, "gateway thread crashed; stopping");
              void runtime.stop().finally(() => process.exit(1));
            },
          })
        : createGatewayModule({
            config,
            logger,
            print,
            keyStore: await openGatewayKeyStore(config, mongoSettings),
            guardStores: await openGuardStores(config, mongoSettings),
            health: () => heartbeat.status(),
            security: clientSecurity(security, "gateway"),
          });
      await runtime.add(gateway);
      httpPort = gateway.port();
    }
    // The gateway serves /metrics for its process; any other process can expose its own.
    if (p.METRICS_ADDRESS && !targets.has("gateway")) {
      const server = await startMetricsServer(p.METRICS_ADDRESS, logger.child({ component: "metrics" }), () => heartbeat.status());
      runtime.onStopped(() => server.close());
    }
    return { runtime, httpPort, grpcPorts };
  } catch (err) {
    await runtime.stop();
    throw err;
  }
}
