import { type ClientSecurity, OrgSettingsClient } from "@engram/grpc";
import type { EventBus, Subscription } from "@engram/bus";
import { TOPICS } from "@engram/bus";
import { type ChunkIndex, createEmbedder } from "@engram/index";
import { type Clock, systemClock } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import type { ServiceModule } from "@engram/runtime";
import { BusPipelineEvents } from "./adapters/bus/pipeline-events.bus";
import { GrpcDocumentSourceReader } from "./adapters/ingestion/document-source.grpc";
import { BackfillFilepathsUseCase } from "./app/backfill-filepaths.usecase";
import { documentsHandler } from "./app/documents.consumer";
import { ProcessDocumentUseCase } from "./app/process-document.usecase";
import { GuardedFetcher } from "@engram/fetch";
import { ExtractionPool } from "./adapters/extract/pool";
import { SourceExtractor } from "./adapters/source-extractor";
import { PooledChunkPreparer } from "./adapters/pooled-chunk-preparer";
import type { WorkerConfig } from "./config";

export interface WorkerDeps {
  config: WorkerConfig;
  bus: EventBus;
  /** The chunk index (shared read model; recall reads the same store). */
  index: ChunkIndex;
  logger: Logger;
  clock?: Clock;
  /** How this service signs its calls to its peers (and dials them over TLS): set by the process runtime's owner. */
  security?: ClientSecurity;
}

export const WORKER_CONSUMER_GROUP = "pipeline-worker";

export function createWorkerModule(deps: WorkerDeps): ServiceModule {
  const log = deps.logger.child({ component: "pipeline-worker" });
  const clock = deps.clock ?? systemClock;
  const { config } = deps;
  const sources = new GrpcDocumentSourceReader(config.INGESTION_ADDRESS, deps.security);
  const pool = new ExtractionPool({ threads: config.EXTRACT_THREADS, timeoutMs: config.EXTRACT_TIMEOUT_MS });
  const fetcher = new GuardedFetcher({
    allowPrivate: config.ENGRAM_ALLOW_PRIVATE_URLS,
    maxBytes: config.FETCH_MAX_BYTES,
    timeoutMs: config.FETCH_TIMEOUT_MS,
    maxRedirects: config.FETCH_MAX_REDIRECTS,
  });
  const embedder = createEmbedder(config);
  // The organisation's chunk size (PATCH /v3/settings), from the connections service.
  const settings = new OrgSettingsClient(config.CONNECTIONS_ADDRESS, undefined, deps.security);
  const process = new ProcessDocumentUseCase({
    sources,
    extractor: new SourceExtractor(pool, fetcher),
    preparer: new PooledChunkPreparer(pool, embedder),
    embedder,
    index: deps.index,
    events: new BusPipelineEvents(deps.bus, clock),
    clock,
    chunking: { maxTokens: config.CHUNK_MAX_TOKENS, overlapTokens: config.CHUNK_OVERLAP_TOKENS },
    chunkSizeOf: async (tenantId) => (await settings.settings(tenantId)).chunkSize,
    embedBatchSize: config.EMBED_BATCH_SIZE,
    progressIntervalMs: config.PIPELINE_PROGRESS_INTERVAL_MS,
    logger: log,
  });
  const backfill = new BackfillFilepathsUseCase({ index: deps.index, documents: sources, logger: log });
  const stopBackfill = new AbortController();
  let backfilling: Promise<unknown> = Promise.resolve();
  let subscription: Subscription | undefined;
  return {
    name: "pipeline-worker",
    // The worker serves only grpc.health.v1 (probes); its work arrives as events.
    grpcServices: [],
    async start() {
      subscription = await deps.bus.subscribe({
        group: WORKER_CONSUMER_GROUP,
        topics: [TOPICS.documents],
        handler: documentsHandler({ process, index: deps.index, maxAttempts: config.BUS_MAX_ATTEMPTS, logger: log }),
        // A URL's fetch and the extraction are bounded by their timeouts; chunking, embedding and indexing get a minute.
        maxHandlerMs: config.FETCH_TIMEOUT_MS + config.EXTRACT_TIMEOUT_MS + 60_000,
      });
      // Chunks of an earlier release get their document's filepath, in the background (searches check them meanwhile).
      backfilling = backfill.keepTrying(stopBackfill.signal);
    },
    // Shutdown: no new document, and the one being processed stops (its extraction thread terminated); its event stays
    // unacknowledged and is processed again after the restart.
    abort(reason) {
      stopBackfill.abort(reason);
      subscription?.abort(reason);
    },
    async stop() {
      stopBackfill.abort();
      await backfilling;
      await subscription?.close();
      sources.close();
      settings.close();
      await pool.close();
    },
  };
}
