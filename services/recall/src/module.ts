import { type ChunkIndex, createEmbedder } from "@engram/index";
import type { Logger } from "@engram/observability";
import type { ServiceModule } from "@engram/runtime";
import { SearchDocumentsUseCase } from "./app/search-documents.usecase";
import type { RecallConfig } from "./config";
import { recallGrpc } from "./grpc/recall.grpc";

export interface RecallDeps {
  config: RecallConfig;
  /** The chunk index the pipeline-worker writes (read side). */
  index: ChunkIndex;
  logger: Logger;
}

export function createRecallModule(deps: RecallDeps): ServiceModule {
  const embedder = createEmbedder(deps.config);
  const searchDocuments = new SearchDocumentsUseCase(deps.index, embedder);
  return {
    name: "recall",
    grpcServices: { "engram.recall.v1.RecallService": recallGrpc({ searchDocuments, index: deps.index }) },
  };
}
