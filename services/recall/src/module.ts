import { type ClientSecurity, EffectiveBuckets } from "@engram/grpc";
import { type ChunkIndex, createEmbedder, createMemoryEmbedder, warmLexicon } from "@engram/index";
import { type Clock, systemClock } from "@engram/kernel";
import type { Nlp } from "@engram/nlp";
import type { Logger } from "@engram/observability";
import type { ServiceModule } from "@engram/runtime";
import { GrpcDocumentLookup } from "./adapters/grpc/document-lookup.grpc";
import type { MemoryReadModel } from "./app/ports";
import { ProfileUseCase } from "./app/profile.usecase";
import { QueryPreparer } from "./app/query";
import { SearchDocumentsUseCase } from "./app/search-documents.usecase";
import { SearchV3UseCase } from "./app/search-v3.usecase";
import { SearchUseCase } from "./app/search.usecase";
import type { RecallConfig } from "./config";
import { recallGrpc } from "./grpc/recall.grpc";

export interface RecallDeps {
  config: RecallConfig;
  /** The chunk index the pipeline-worker writes (read side). */
  index: ChunkIndex;
  /** The memory read model the memories service writes (its store, handed over by the composition root). */
  memories: MemoryReadModel;
  nlp: Pick<Nlp, "reranker" | "rewriter" | "aggregator" | "classifier">;
  logger: Logger;
  clock?: Clock;
  /** How this service signs its calls to its peers (and dials them over TLS): set by the process runtime's owner. */
  security?: ClientSecurity;
}

/** The recall service: search (v3, v4: memories, documents, hybrid), profiles, chunk listing. Read side only. */
export function createRecallModule(deps: RecallDeps): ServiceModule {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const chunkEmbedder = createEmbedder(config);
  const memoryEmbedder = createMemoryEmbedder(config);
  const preparer = new QueryPreparer({ chunks: chunkEmbedder, memories: memoryEmbedder }, deps.nlp.rewriter);
  const lookup = new GrpcDocumentLookup(config.INGESTION_ADDRESS, deps.security);
  const documents = new SearchDocumentsUseCase(deps.index, lookup);
  // The organisation's profile buckets and, on top, the container tag's own.
  const buckets = new EffectiveBuckets({ connections: config.CONNECTIONS_ADDRESS, ingestion: config.INGESTION_ADDRESS, security: deps.security });
  const search = new SearchUseCase({
    memories: deps.memories,
    chunks: deps.index,
    documents,
    preparer,
    reranker: deps.nlp.reranker,
    aggregator: deps.nlp.aggregator,
    lookup,
    clock,
  });
  return {
    name: "recall",
    grpcServices: [
      recallGrpc({
        search,
        searchV3: new SearchV3UseCase({
          chunks: deps.index,
          documents,
          preparer,
          lookup,
          reranker: deps.nlp.reranker,
          maxContentBytes: config.RECALL_SEARCH_MAX_CONTENT_BYTES,
        }),
        profile: new ProfileUseCase({
          memories: deps.memories,
          search,
          buckets,
          classifier: deps.nlp.classifier,
          clock,
          limits: { staticMax: config.PROFILE_STATIC_MAX, dynamicMax: config.PROFILE_DYNAMIC_MAX, perBucketMax: config.PROFILE_BUCKET_MAX },
        }),
        buckets,
        index: deps.index,
      }),
    ],
    // Serving only once the chunk index is in memory: the first searches do not pay for loading it.
    async start() {
      // Searches never pay for a cold partition: both read models load before recall reports serving.
      const started = performance.now();
      await deps.index.warm?.();
      await deps.memories.warm?.();
      // Ranking by evidence reads WordNet (~1.5 s of CPU to load): loaded before serving, in slices with the
      // event loop free, so no search pays for it (a search that did would stall every other one).
      if (memoryEmbedder.calibration || chunkEmbedder.calibration) await warmLexicon();
      // The local model's query thread starts now (~0.3 s to load the model), not on the first search.
      if (memoryEmbedder.calibration) await memoryEmbedder.embed(["warm-up"], "query");
      deps.logger.info({ ms: Math.round(performance.now() - started) }, "chunk index and memory store loaded");
    },
    async stop() {
      lookup.close();
      buckets.close();
      await Promise.all([chunkEmbedder.close?.(), memoryEmbedder.close?.()]);
    },
  };
}
