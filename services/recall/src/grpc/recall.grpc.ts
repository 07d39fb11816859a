import type * as grpc from "@grpc/grpc-js";
import { filterFromProto, tenantOf, toStruct, toTimestamp, implement, RecallService, type ServiceImplementation } from "@engram/grpc";
import type { Chunk } from "@engram/grpc/src/gen/engram/common/v1/Chunk";
import type { Document } from "@engram/grpc/src/gen/engram/ingestion/v1/Document";
import type { Memory } from "@engram/grpc/src/gen/engram/memories/v1/Memory";
import type { GetProfileBucketsRequest__Output } from "@engram/grpc/src/gen/engram/recall/v1/GetProfileBucketsRequest";
import type { GetProfileBucketsResponse } from "@engram/grpc/src/gen/engram/recall/v1/GetProfileBucketsResponse";
import type { GetProfileRequest__Output } from "@engram/grpc/src/gen/engram/recall/v1/GetProfileRequest";
import type { GetProfileResponse } from "@engram/grpc/src/gen/engram/recall/v1/GetProfileResponse";
import type { ListChunksRequest__Output } from "@engram/grpc/src/gen/engram/recall/v1/ListChunksRequest";
import type { ListChunksResponse } from "@engram/grpc/src/gen/engram/recall/v1/ListChunksResponse";
import type { MemoryContextEntry } from "@engram/grpc/src/gen/engram/recall/v1/MemoryContextEntry";
import type { SearchV3Request__Output } from "@engram/grpc/src/gen/engram/recall/v1/SearchV3Request";
import type { SearchV3Response } from "@engram/grpc/src/gen/engram/recall/v1/SearchV3Response";
import type { SearchV4Request__Output } from "@engram/grpc/src/gen/engram/recall/v1/SearchV4Request";
import type { SearchV4Response } from "@engram/grpc/src/gen/engram/recall/v1/SearchV4Response";
import type { SearchV4Result } from "@engram/grpc/src/gen/engram/recall/v1/SearchV4Result";
import type { ChunkIndex, IndexedChunk } from "@engram/index";
import { contentBytes, InvalidArgumentError } from "@engram/kernel";
import { type MemoryRecord, memoryToProto } from "@engram/memory-model";
import type { BucketSource, DocumentInfo } from "../app/ports";
import type { ProfileSection, ProfileUseCase } from "../app/profile.usecase";
import { DEFAULT_THRESHOLD, type ContextEntry, type SearchMode, type SearchResult, type SearchUseCase } from "../app/search.usecase";
import type { SearchV3UseCase } from "../app/search-v3.usecase";

/** A chunk as the index lists a document's (no vector). */
type IndexedChunkRow = Awaited<ReturnType<ChunkIndex["listDocumentChunks"]>>[number];
/** ReadDocumentChunks: chunk content per message, about. */
const CHUNK_BATCH_BYTES = 1024 * 1024;

export interface RecallUseCases {
  search: SearchUseCase;
  searchV3: SearchV3UseCase;
  profile: ProfileUseCase;
  buckets: BucketSource;
  index: ChunkIndex;
}

function namespacesOf(namespace: string, tags: string[]): string[] | undefined {
  const all = [...new Set([namespace, ...tags].filter(Boolean))];
  return all.length ? all : undefined;
}

/** Who asks, where and what: the part both search generations' requests share. */
function searchScope(req: { context: Parameters<typeof tenantOf>[0]; namespace: string; containerTags: string[]; q: string }) {
  return { tenantId: tenantOf(req.context), namespaces: namespacesOf(req.namespace, req.containerTags), q: req.q };
}

export function chunkToProto(c: Omit<IndexedChunk, "vector">): Chunk {
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

function documentToProto(d: DocumentInfo): Document {
  return {
    id: d.id,
    customId: d.customId ?? "",
    namespace: d.namespace,
    title: d.title ?? "",
    contentType: d.contentType ?? "",
    metadata: toStruct(d.metadata),
    summary: d.summary ?? "",
    content: d.content ?? "",
    createdAt: toTimestamp(d.createdAt),
    updatedAt: toTimestamp(d.updatedAt),
  };
}

const RELATION = { updates: "MEMORY_RELATION_UPDATES", extends: "MEMORY_RELATION_EXTENDS", derives: "MEMORY_RELATION_DERIVES" } as const;

function contextEntry(e: ContextEntry): MemoryContextEntry {
  return {
    relation: RELATION[e.relation],
    ...(e.relativeVersion !== undefined ? { relativeVersion: e.relativeVersion } : {}),
    memory: memoryToProto(e.memory),
  };
}

/**
 * A memory as a search result shows it: the fields of the REST memory result
 * (the full record, with provenance and history, is MemoriesService's). Less
 * to encode and decode on the hottest call.
 */
function memoryResultToProto(m: MemoryRecord, aggregated: boolean): Memory {
  return {
    id: m.id,
    content: m.content,
    namespace: m.namespace,
    metadata: toStruct(m.metadata),
    version: m.version,
    updatedAt: toTimestamp(m.updatedAt),
    filepath: m.filepath ?? "",
    isAggregated: aggregated,
  };
}

function resultToProto(r: SearchResult, withChunks = false): SearchV4Result {
  if (r.kind === "chunk") {
    const best = r.hit.chunks[0]!.chunk;
    // The best chunk is the result; the document's other matching chunks travel only when asked for (include.chunks).
    return {
      chunk: { ...chunkToProto(best), metadata: toStruct(best.document.metadata) },
      similarity: r.similarity,
      documents: [documentToProto(r.document)],
      ...(withChunks ? { chunks: r.hit.chunks.map((c) => ({ chunk: chunkToProto(c.chunk), score: c.similarity, isRelevant: true })) } : {}),
    };
  }
  return {
    memory: memoryResultToProto(r.memory, !!r.aggregatedFrom),
    similarity: r.similarity,
    ...(r.context
      ? {
          context: {
            parents: r.context.parents.map(contextEntry),
            children: r.context.children.map(contextEntry),
            related: r.context.related.map(contextEntry),
          },
        }
      : {}),
    documents: (r.documents ?? []).map(documentToProto),
    chunks: (r.chunks ?? []).map((c) => ({ chunk: chunkToProto(c.chunk), score: c.similarity, isRelevant: true })),
  };
}

const MODE: Record<string, SearchMode> = {
  SEARCH_MODE_UNSPECIFIED: "memories",
  SEARCH_MODE_MEMORIES: "memories",
  SEARCH_MODE_HYBRID: "hybrid",
  SEARCH_MODE_DOCUMENTS: "documents",
};

const SECTION: Record<string, ProfileSection | undefined> = {
  PROFILE_SECTION_STATIC: "static",
  PROFILE_SECTION_DYNAMIC: "dynamic",
  PROFILE_SECTION_BUCKETS: "buckets",
};

/** engram.recall.v1.RecallService: proto <-> use case mapping only. */
export function recallGrpc(uc: RecallUseCases): ServiceImplementation {
  return implement(RecallService, {
    async SearchV4(req: SearchV4Request__Output): Promise<SearchV4Response> {
      const started = performance.now();
      const results = await uc.search.execute({
        ...searchScope(req),
        mode: MODE[req.searchMode] ?? "memories",
        threshold: req.threshold ?? DEFAULT_THRESHOLD,
        limit: req.limit || 10,
        filter: filterFromProto(req.filter),
        include: {
          documents: req.include?.documents,
          summaries: req.include?.summaries,
          relatedMemories: req.include?.relatedMemories,
          forgottenMemories: req.include?.forgottenMemories,
          chunks: req.include?.chunks,
        },
        rerank: req.rerank,
        rewriteQuery: req.rewriteQuery,
        aggregate: req.aggregate,
        filepath: req.filepath || undefined,
      });
      const withChunks = req.include?.chunks ?? false;
      return { results: results.map((r) => resultToProto(r, withChunks)), timingMs: Math.round(performance.now() - started), total: results.length };
    },

    async SearchV3(req: SearchV3Request__Output): Promise<SearchV3Response> {
      const started = performance.now();
      const { results, content } = await uc.searchV3.execute({
        ...searchScope(req),
        chunkThreshold: req.chunkThreshold ?? 0,
        docId: req.docId || undefined,
        onlyMatchingChunks: req.onlyMatchingChunks ?? true,
        includeFullDocs: req.includeFullDocs,
        includeSummary: req.includeSummary,
        rerank: req.rerank,
        rewriteQuery: req.rewriteQuery,
        filter: filterFromProto(req.filter),
        limit: req.limit || 10,
        filepath: req.filepath || undefined,
      });
      return {
        results: results.map((r) => ({
          document: { ...documentToProto(r.document), contentOmitted: r.contentOmitted ?? false },
          score: r.score,
          chunks: r.chunks.map((c) => ({ chunk: chunkToProto(c.chunk), score: c.score, isRelevant: c.isRelevant })),
        })),
        timingMs: Math.round(performance.now() - started),
        total: results.length,
        maxContentBytes: content?.maxBytes ?? 0,
        contentOmitted: content?.omitted ?? 0,
      };
    },

    async GetProfile(req: GetProfileRequest__Output): Promise<GetProfileResponse> {
      if (!req.namespace) throw new InvalidArgumentError("containerTag is required");
      const include = req.include.map((s) => SECTION[s]).filter((s): s is ProfileSection => !!s);
      const out = await uc.profile.execute({
        tenantId: tenantOf(req.context),
        namespace: req.namespace,
        q: req.q,
        threshold: req.threshold,
        filter: filterFromProto(req.filter),
        include,
        buckets: req.buckets,
      });
      return {
        profile: {
          staticMemories: out.profile.static ?? [],
          dynamicMemories: out.profile.dynamic ?? [],
          buckets: Object.fromEntries(Object.entries(out.profile.buckets ?? {}).map(([k, v]) => [k, { memories: v }])),
        },
        ...(out.search
          ? { searchResults: { results: out.search.results.map((r) => resultToProto(r)), total: out.search.results.length, timingMs: out.search.timingMs } }
          : {}),
      };
    },

    async GetProfileBuckets(req: GetProfileBucketsRequest__Output): Promise<GetProfileBucketsResponse> {
      if (!req.namespace) throw new InvalidArgumentError("containerTag is required");
      return { buckets: await uc.buckets.buckets(tenantOf(req.context), req.namespace) };
    },

    async ReadDocumentChunks(req: ListChunksRequest__Output, call: grpc.ServerWritableStream<unknown, ListChunksResponse>): Promise<void> {
      const tenantId = tenantOf(req.context);
      if (!req.documentId) throw new InvalidArgumentError("documentId is required");
      if (!req.namespace) throw new InvalidArgumentError("listing a document's chunks needs its namespace");
      const chunks = await uc.index.listDocumentChunks(tenantId, req.namespace, req.documentId);
      const write = async (batch: IndexedChunkRow[]) => {
        const m = {
          chunks: batch.map((c) => ({ chunk: chunkToProto(c), type: "CHUNK_TYPE_TEXT" as const })),
          total: chunks.length,
          documentId: req.documentId,
        };
        if (!call.write(m)) await new Promise((r) => call.once("drain", r));
      };
      let batch: IndexedChunkRow[] = [];
      let bytes = 0;
      for (const c of chunks) {
        if (call.cancelled) return;
        batch.push(c);
        bytes += contentBytes(c.content);
        if (bytes >= CHUNK_BATCH_BYTES) {
          await write(batch);
          batch = [];
          bytes = 0;
        }
      }
      if (batch.length || chunks.length === 0) await write(batch);
    },

    async ListChunks(req: ListChunksRequest__Output): Promise<ListChunksResponse> {
      const tenantId = tenantOf(req.context);
      if (req.documentId) {
        if (!req.namespace) throw new InvalidArgumentError("listing a document's chunks needs its namespace");
        const chunks = await uc.index.listDocumentChunks(tenantId, req.namespace, req.documentId);
        return { chunks: chunks.map((c) => ({ chunk: chunkToProto(c), type: "CHUNK_TYPE_TEXT" as const })), total: chunks.length, documentId: req.documentId };
      }
      if (!req.namespace) throw new InvalidArgumentError("namespace is required");
      const page = req.page?.page || 1;
      const limit = req.page?.limit || 100;
      const { items, total } = await uc.index.listChunks({
        tenantId,
        namespace: req.namespace,
        filter: filterFromProto(req.filter),
        offset: (page - 1) * limit,
        limit,
        order: req.page?.order === "SORT_ORDER_ASC" ? "asc" : "desc",
      });
      return {
        chunks: items.map((c) => ({ chunk: { ...chunkToProto(c), metadata: toStruct(c.document.metadata) }, type: "CHUNK_TYPE_TEXT" as const })),
        pagination: { currentPage: page, limit, totalItems: total, totalPages: Math.ceil(total / limit) },
        total,
      };
    },
  });
}
