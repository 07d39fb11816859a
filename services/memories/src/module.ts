import { type EventBus, type Subscription, TOPICS } from "@engram/bus";
import { createMemoryEmbedder, type HybridSearchEngine, type PartitionBudget, type PartitionLoader } from "@engram/index";
import { type Clock, systemClock } from "@engram/kernel";
import type { Nlp } from "@engram/nlp";
import type { Logger } from "@engram/observability";
import type { ServiceModule } from "@engram/runtime";
import { SqliteMemoryStore } from "./adapters/embedded/memory.sqlite";
import { BusFormationEvents } from "./adapters/bus/formation-events.bus";
import { type ClientSecurity, EffectiveBuckets } from "@engram/grpc";
import { GrpcSourceDocumentReader } from "./adapters/grpc/source-document.grpc";
import { CreateMemoriesUseCase } from "./app/create-memories.usecase";
import { ForgetMemoriesUseCase } from "./app/forget-memories.usecase";
import { FormMemoriesUseCase } from "./app/form-memories.usecase";
import { KeyedMutex } from "./app/keyed-mutex";
import { ListMemoriesUseCase } from "./app/list-memories.usecase";
import { MemoryArchiveUseCase } from "./app/memory-archive.usecase";
import { memoryEventsHandler } from "./app/memory-events.consumer";
import { MemoryWriter } from "./app/memory-writer";
import type { DocumentChunks, MemoryRepository } from "./app/ports";
import { RetireMemoriesUseCase } from "./app/retire-memories.usecase";
import { UpdateMemoryUseCase } from "./app/update-memory.usecase";
import type { MemoriesConfig } from "./config";
import { memoriesGrpc } from "./grpc/memories.grpc";
import { NamespaceMemoriesUseCase } from "./app/namespace-memories.usecase";

export interface MemoriesDeps {
  config: MemoriesConfig;
  bus: EventBus;
  /** The memory store (also the read model recall searches; the composition root owns and closes it). */
  store: MemoryRepository;
  /** The chunk index the pipeline-worker writes: memory formation reads a document's chunks from it. */
  chunks: DocumentChunks;
  nlp: Nlp;
  logger: Logger;
  clock?: Clock;
  /** How this service signs its calls to its peers (and dials them over TLS): set by the process runtime's owner. */
  security?: ClientSecurity;
}

export const MEMORIES_CONSUMER_GROUP = "memories";

/** The embedded memory store under the data directory, searched by the given engine. */
export function createEmbeddedMemoryStore(
  config: MemoriesConfig,
  engine: (load: PartitionLoader) => HybridSearchEngine,
  budget?: PartitionBudget,
): SqliteMemoryStore {
  return new SqliteMemoryStore(config.ENGRAM_DATA_DIR, { engine, vectors: createMemoryEmbedder(config).semantic, ...(budget ? { budget } : {}) });
}

/**
 * The memories service: memories API (write, list, update, forget,
 * forget-matching), memory formation on DocumentIndexed, provenance
 * retirement on DocumentDeleted, and the expiry sweep. Any number of replicas
 * may run on one store: the KeyedMutex only spares one process's own work
 * conflicts; the store's conditional writes guard memory versions across
 * replicas (docs/architecture.md, "Memories across replicas").
 */
export function createMemoriesModule(deps: MemoriesDeps): ServiceModule {
  const { config, store } = deps;
  const log = deps.logger.child({ component: "memories" });
  const clock = deps.clock ?? systemClock;
  const lock = new KeyedMutex();
  const embedder = createMemoryEmbedder(config);
  const writer = new MemoryWriter(store, embedder);
  const reader = new GrpcSourceDocumentReader({ ingestion: config.INGESTION_ADDRESS, security: deps.security }, deps.chunks);
  // The organisation's profile buckets and, on top, the container tag's own.
  const buckets = new EffectiveBuckets({ connections: config.CONNECTIONS_ADDRESS, ingestion: config.INGESTION_ADDRESS, security: deps.security });
  const retire = new RetireMemoriesUseCase(store, clock);
  const form = new FormMemoriesUseCase({
    repo: store,
    writer,
    reader,
    extractor: deps.nlp.extractor,
    relator: deps.nlp.relator,
    buckets,
    tags: buckets,
    events: new BusFormationEvents(deps.bus, clock),
    clock,
    lock,
    logger: log,
  });
  let subscription: Subscription | undefined;
  let sweep: NodeJS.Timeout | undefined;

  return {
    name: "memories",
    grpcServices: [
      memoriesGrpc({
        create: new CreateMemoriesUseCase({ repo: store, writer, classifier: deps.nlp.classifier, buckets, clock, lock }),
        update: new UpdateMemoryUseCase({ repo: store, writer, clock, lock }),
        forget: new ForgetMemoriesUseCase({ repo: store, clock, lock }),
        list: new ListMemoriesUseCase(store, clock),
        archive: new MemoryArchiveUseCase({ repo: store, writer, clock }),
        namespaces: new NamespaceMemoriesUseCase({ repo: store, clock, lock }),
        repo: store,
      }),
    ],
    async start() {
      subscription = await deps.bus.subscribe({
        group: MEMORIES_CONSUMER_GROUP,
        topics: [TOPICS.documents, TOPICS.documentState],
        handler: memoryEventsHandler({ form, retire, maxAttempts: config.BUS_MAX_ATTEMPTS, logger: log }),
        // Extraction is bounded by its timeout; relating the facts (up to two model calls' worth) and the writes get the rest.
        maxHandlerMs: (config.MEMORY_EXTRACTION_TIMEOUT_MS ?? 60_000) + 2 * (config.LLM_TIMEOUT_MS ?? 30_000) + 30_000,
      });
      sweep = setInterval(() => {
        retire.expire().then(
          (n) => n && log.info({ forgotten: n }, "memories past forgetAfter forgotten"),
          (err) => log.error({ err }, "memory expiry sweep failed"),
        );
        retire.pruneTombstones().then(
          (n) => n && log.debug({ pruned: n }, "tombstones of long-deleted documents removed"),
          (err) => log.error({ err }, "pruning the tombstones of deleted documents failed"),
        );
      }, config.MEMORY_EXPIRY_SWEEP_MS);
      sweep.unref();
    },
    // Shutdown: no new event, no sweep, and the formation in flight stops (its extraction thread terminated, or before
    // its next relation decision or its write); nothing of it was written (one write per document), its event stays
    // unacknowledged and forms the document after the restart.
    abort(reason) {
      if (sweep) clearInterval(sweep);
      subscription?.abort(reason);
    },
    async stop() {
      if (sweep) clearInterval(sweep);
      await subscription?.close();
      reader.close();
      buckets.close();
      await embedder.close?.();
    },
  };
}
