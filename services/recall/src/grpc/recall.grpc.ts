import { parseFilter } from "@engram/filters";
import { fromStruct, type ServiceImpl, toStruct, toTimestamp } from "@engram/grpc";
import type { SearchV4Request__Output } from "@engram/grpc/src/gen/engram/recall/v1/SearchV4Request";
import type { SearchV4Response } from "@engram/grpc/src/gen/engram/recall/v1/SearchV4Response";
import type { ListChunksRequest__Output } from "@engram/grpc/src/gen/engram/recall/v1/ListChunksRequest";
import type { ListChunksResponse } from "@engram/grpc/src/gen/engram/recall/v1/ListChunksResponse";
import type { ChunkIndex, IndexedChunk } from "@engram/index";
import type { Chunk } from "@engram/grpc/src/gen/engram/common/v1/Chunk";
import { InvalidArgumentError, UnimplementedError } from "@engram/kernel";
import type { SearchDocumentsUseCase } from "../app/search-documents.usecase";

const DEFAULT_THRESHOLD = 0.6;

function namespacesOf(namespace: string, tags: string[]): string[] | undefined {
  const all = [...new Set([namespace, ...tags].filter(Boolean))];
  return all.length ? all : undefined;
}

function chunkToProto(c: Omit<IndexedChunk, "vector">): Chunk {
  return {
    id: c.id,
    documentId: c.documentId,
    position: c.position,
    content: c.content,
    startOffset: c.startOffset,
    endOffset: c.endOffset,
    tokenCount: c.tokenCount,
    createdAt: toTimestamp(c.createdAt),
    namespace: c.namespace,
  };
}

/** engram.recall.v1.RecallService: proto <-> use case mapping only. */
export function recallGrpc(uc: { searchDocuments: SearchDocumentsUseCase; index: ChunkIndex }): ServiceImpl {
  return {
    async listChunks(req: ListChunksRequest__Output): Promise<ListChunksResponse> {
      const tenantId = req.context?.tenantId;
      if (!tenantId) throw new InvalidArgumentError("call context without tenant");
      if (!req.documentId || !req.namespace)
        throw new UnimplementedError("listing chunks across documents", "list the chunks of one document (GET /ns/{namespace}/document/{id}?include=chunks)");
      const chunks = await uc.index.listDocumentChunks(tenantId, req.namespace, req.documentId);
      return {
        chunks: chunks.map((c) => ({
          chunk: chunkToProto(c),
          type: "CHUNK_TYPE_TEXT" as const,
        })),
        total: chunks.length,
        documentId: req.documentId,
      };
    },

    async searchV4(req: SearchV4Request__Output): Promise<SearchV4Response> {
      const started = performance.now();
      const tenantId = req.context?.tenantId;
      if (!tenantId) throw new InvalidArgumentError("call context without tenant");
      const mode = req.searchMode === "SEARCH_MODE_UNSPECIFIED" ? "SEARCH_MODE_MEMORIES" : req.searchMode;
      if (mode !== "SEARCH_MODE_DOCUMENTS") {
        throw new UnimplementedError(
          `searchMode ${mode === "SEARCH_MODE_HYBRID" ? "hybrid" : "memories"}`,
          'memory formation arrives in a later release; use searchMode "documents"',
        );
      }
      const filterJson = fromStruct(req.filter?.expression);
      const filter = filterJson && Object.keys(filterJson).length ? parseFilter(filterJson) : undefined;
      const limit = req.limit || 10;
      const hits = await uc.searchDocuments.execute({
        tenantId,
        namespaces: namespacesOf(req.namespace, req.containerTags),
        q: req.q,
        limit,
        threshold: req.threshold ?? DEFAULT_THRESHOLD,
        filter,
      });
      const results = hits.map((h) => {
        const best = h.chunks[0]!.chunk;
        const doc = best.document;
        return {
          chunk: { ...chunkToProto(best), metadata: toStruct(doc.metadata) },
          similarity: h.similarity,
          documents: [
            {
              id: best.documentId,
              customId: doc.customId ?? "",
              namespace: best.namespace,
              title: doc.title ?? "",
              contentType: doc.contentType ?? "",
              metadata: toStruct(doc.metadata),
              createdAt: toTimestamp(doc.createdAt),
              updatedAt: toTimestamp(doc.updatedAt),
            },
          ],
          chunks: h.chunks.map((c) => ({
            chunk: { id: c.chunk.id, documentId: c.chunk.documentId, position: c.chunk.position, content: c.chunk.content, namespace: c.chunk.namespace },
            score: c.similarity,
            isRelevant: true,
          })),
        };
      });
      return { results, timingMs: Math.round(performance.now() - started), total: results.length };
    },
  };
}
