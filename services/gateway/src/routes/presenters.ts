import { fromStruct, fromTimestamp } from "@engram/grpc";
import type { Connection__Output } from "@engram/grpc/src/gen/engram/connections/v1/Connection";
import type { SyncRun__Output } from "@engram/grpc/src/gen/engram/connections/v1/SyncRun";
import type { Document__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/Document";
import type { ChunkEntry__Output } from "@engram/grpc/src/gen/engram/recall/v1/ChunkEntry";
import type { Memory__Output } from "@engram/grpc/src/gen/engram/memories/v1/Memory";
import type { MemoryContextEntry__Output } from "@engram/grpc/src/gen/engram/recall/v1/MemoryContextEntry";
import type { ScoredChunk__Output } from "@engram/grpc/src/gen/engram/recall/v1/ScoredChunk";
import type { SearchV3Result__Output } from "@engram/grpc/src/gen/engram/recall/v1/SearchV3Result";
import type { SearchV4Result__Output } from "@engram/grpc/src/gen/engram/recall/v1/SearchV4Result";
import { protoEnum } from "@engram/grpc";

const iso = (t: Parameters<typeof fromTimestamp>[0]) => fromTimestamp(t)?.toISOString() ?? null;
const orNull = (s: string | undefined) => (s ? s : null);

/** v5 document: the caller's id when it has one, lifecycle under `system`. */
export function presentV5Document(d: Document__Output) {
  const status = protoEnum.status.from(d.status);
  return {
    id: d.customId || d.id,
    content: d.content,
    ...(d.contentOmitted ? { contentOmitted: true } : {}),
    ...(d.supportingContext ? { supportingContext: d.supportingContext } : {}),
    metadata: fromStruct(d.metadata) ?? {},
    ...(d.group ? { group: fromStruct(d.group) } : {}),
    ...(d.date ? { date: d.date } : {}),
    system: {
      status,
      createdAt: iso(d.createdAt),
      updatedAt: iso(d.updatedAt),
      ...(status === "failed" && d.statusReason ? { failureReason: d.statusReason } : {}),
    },
  };
}

/** Engram extension of the v3 document and list item: why a failed document failed. */
function failure(d: Document__Output): { failureReason?: string } {
  return protoEnum.status.from(d.status) === "failed" && d.statusReason ? { failureReason: d.statusReason } : {};
}

/** Legacy v3 document (OpenAPI getV3DocumentsById). */
const FINAL_STATUSES: ReadonlySet<string> = new Set(["done", "failed"]);

export function presentV3Document(d: Document__Output) {
  return {
    id: d.id,
    customId: orNull(d.customId),
    connectionId: orNull(d.connectionId),
    content: d.content || null,
    containerTags: d.containerTags.length ? d.containerTags : [d.namespace],
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
    metadata: fromStruct(d.metadata) ?? null,
    ogImage: orNull(d.ogImage),
    raw: null,
    source: orNull(d.sourceKind.replace("SOURCE_KIND_", "").toLowerCase().replace("unspecified", "")),
    status: protoEnum.status.from(d.status),
    // Memory formation ("dreaming") ends with the document: a document is done only once its memories are searchable.
    dreamingStatus: FINAL_STATUSES.has(protoEnum.status.from(d.status)) ? "done" : "dreaming",
    summary: orNull(d.summary),
    taskType: protoEnum.taskType.from(d.taskType) ?? "memory",
    title: orNull(d.title),
    type: v3Type(d.contentType),
    url: orNull(d.url),
    filepath: orNull(d.filepath),
    ...failure(d),
  };
}

export function presentChunk(e: ChunkEntry__Output) {
  const c = e.chunk!;
  return {
    id: c.id,
    documentId: c.documentId,
    position: c.position,
    content: c.content,
    startOffset: c.startOffset,
    endOffset: c.endOffset,
    tokenCount: c.tokenCount,
    type: e.type === "CHUNK_TYPE_IMAGE" ? "image" : "text",
    createdAt: iso(c.createdAt),
  };
}

/** Engram's detected content types -> the v3 `type` enum of the OpenAPI description. */
const V3_TYPE: Record<string, string> = {
  text: "text",
  markdown: "text",
  pdf: "pdf",
  webpage: "webpage",
  html: "webpage",
  image: "image",
  video: "video",
  audio: "audio",
};

export function v3Type(contentType: string): string | null {
  if (!contentType) return null;
  return V3_TYPE[contentType] ?? "text";
}

/** An item of the legacy list (POST /v3/documents/list, OpenAPI `memories` array). */
export function presentV3ListItem(d: Document__Output, includeContent: boolean) {
  return {
    id: d.id,
    customId: orNull(d.customId),
    connectionId: orNull(d.connectionId),
    containerTags: d.containerTags.length ? d.containerTags : [d.namespace],
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
    filepath: orNull(d.filepath),
    metadata: fromStruct(d.metadata) ?? null,
    status: protoEnum.status.from(d.status),
    summary: orNull(d.summary),
    title: orNull(d.title),
    type: v3Type(d.contentType) ?? "text",
    url: orNull(d.url),
    ...(includeContent ? (d.contentOmitted ? { contentOmitted: true } : { content: d.content }) : {}),
    ...failure(d),
  };
}

/**
 * What a listing with content (or a v3 search with includeFullDocs) says when
 * its content budget left some out (docs/api-decisions.md, section 22): absent
 * when every document carries its content.
 */
export function presentContentLimit(out: { maxContentBytes: number; contentOmitted: number }) {
  if (out.contentOmitted === 0) return {};
  return {
    contentLimit: {
      maxBytes: out.maxContentBytes,
      omittedDocuments: out.contentOmitted,
      details: `this answer carries at most ${out.maxContentBytes} bytes of content; documents marked contentOmitted come without theirs: read them one by one, or ask for fewer at once`,
    },
  };
}

/** An item of GET /v3/documents/processing. */
export function presentProcessing(d: Document__Output) {
  return {
    id: d.id,
    customId: orNull(d.customId),
    title: orNull(d.title),
    type: v3Type(d.contentType) ?? "text",
    status: protoEnum.status.from(d.status),
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
    metadata: fromStruct(d.metadata) ?? null,
    containerTags: d.containerTags.length ? d.containerTags : [d.namespace],
  };
}

// --- memories and recall ---

const RELATION: Record<string, "updates" | "extends" | "derives" | undefined> = {
  MEMORY_RELATION_UPDATES: "updates",
  MEMORY_RELATION_EXTENDS: "extends",
  MEMORY_RELATION_DERIVES: "derives",
};

function temporalOf(m: Memory__Output) {
  const t = m.temporalContext;
  if (!t) return null;
  const documentDate = iso(t.documentDate);
  if (!documentDate && t.eventDates.length === 0) return null;
  return { documentDate, eventDate: t.eventDates.length ? t.eventDates : null };
}

/** A memory as POST /v4/memories answers it. */
export function presentCreatedMemory(m: Memory__Output) {
  return {
    id: m.id,
    memory: m.content,
    isStatic: m.isStatic,
    createdAt: iso(m.createdAt),
    forgetAfter: iso(m.forgetAfter),
    forgetReason: m.forgetReason ?? null,
    metadata: fromStruct(m.metadata) ?? null,
  };
}

/** PATCH /v4/memories: the new version. */
export function presentUpdatedMemory(m: Memory__Output) {
  return {
    id: m.id,
    memory: m.content,
    version: m.version,
    parentMemoryId: orNull(m.parentMemoryId),
    rootMemoryId: orNull(m.rootMemoryId),
    createdAt: iso(m.createdAt),
    forgetAfter: iso(m.forgetAfter),
    forgetReason: m.forgetReason ?? null,
    metadata: fromStruct(m.metadata) ?? null,
  };
}

function presentHistoryItem(m: Memory__Output) {
  return {
    id: m.id,
    memory: m.content,
    version: m.version,
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
    parentMemoryId: orNull(m.parentMemoryId),
    rootMemoryId: orNull(m.rootMemoryId),
    isLatest: m.isLatest,
    isForgotten: m.isForgotten,
  };
}

/** A memory entry (POST /v4/memories/list; v5 lists and include=memories without history). */
export function presentMemoryEntry(m: Memory__Output, history?: Memory__Output[]) {
  const relations = Object.entries(m.memoryRelations ?? {}).flatMap(([id, r]) => (RELATION[r] ? [[id, RELATION[r]]] : []));
  return {
    id: m.id,
    memory: m.content,
    version: m.version,
    isLatest: m.isLatest,
    isForgotten: m.isForgotten,
    isStatic: m.isStatic,
    isInference: m.isInference ?? null,
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
    spaceId: m.spaceId,
    orgId: m.tenantId,
    sourceCount: m.documentIds.length,
    parentMemoryId: orNull(m.parentMemoryId),
    rootMemoryId: orNull(m.rootMemoryId),
    forgetAfter: iso(m.forgetAfter),
    forgetReason: m.forgetReason ?? null,
    metadata: fromStruct(m.metadata) ?? null,
    memoryRelations: relations.length ? Object.fromEntries(relations) : null,
    temporalContext: temporalOf(m),
    ...(history ? { history: history.map(presentHistoryItem) } : {}),
    documentIds: m.documentIds,
    // Engram extension: provenance down to the chunk (0-based positions in GET /v3/documents/{id}/chunks).
    sources: m.sources.map((x) => ({ documentId: x.documentId, chunkPositions: x.chunkPositions })),
  };
}

export interface SearchIncludeFlags {
  documents?: boolean;
  summaries?: boolean;
  relatedMemories?: boolean;
  chunks?: boolean;
}

function presentContextEntry(e: MemoryContextEntry__Output) {
  return {
    relation: RELATION[e.relation] ?? "updates",
    ...(e.relativeVersion !== undefined ? { version: e.relativeVersion } : {}),
    memory: e.memory?.content ?? "",
    metadata: fromStruct(e.memory?.metadata) ?? null,
    updatedAt: iso(e.memory?.updatedAt),
  };
}

function presentSearchDocument(d: Document__Output, include: SearchIncludeFlags) {
  return {
    id: d.id,
    ...(include.documents ? { title: d.title || null, type: d.contentType || null, metadata: fromStruct(d.metadata) ?? null } : {}),
    ...(include.summaries ? { summary: d.summary || null } : {}),
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
  };
}

function presentScoredChunk(c: ScoredChunk__Output) {
  return { content: c.chunk?.content ?? "", score: c.score, position: c.chunk?.position ?? 0, documentId: c.chunk?.documentId ?? "" };
}

/** One result of POST /v4/search (and of a profile's searchResults): a memory result or a chunk result. */
export function presentSearchResult(r: SearchV4Result__Output, include: SearchIncludeFlags) {
  const withDocuments = include.documents || include.summaries;
  if (r.chunk) {
    const doc = r.documents[0];
    return {
      id: r.chunk.id,
      chunk: r.chunk.content,
      documentId: r.chunk.documentId,
      metadata: fromStruct(r.chunk.metadata) ?? null,
      updatedAt: iso(doc?.updatedAt) ?? iso(r.chunk.createdAt),
      similarity: r.similarity,
      ...(withDocuments && doc ? { documents: [presentSearchDocument(doc, include)] } : {}),
      ...(include.chunks ? { chunks: r.chunks.map(presentScoredChunk) } : {}),
    };
  }
  const m = r.memory!;
  return {
    id: m.id,
    memory: m.content,
    metadata: fromStruct(m.metadata) ?? null,
    updatedAt: iso(m.updatedAt),
    similarity: r.similarity,
    version: m.version,
    ...(m.filepath ? { filepath: m.filepath } : {}),
    ...(m.isAggregated ? { isAggregated: true } : {}),
    ...(include.relatedMemories && r.context
      ? {
          context: {
            parents: r.context.parents.map(presentContextEntry),
            children: r.context.children.map(presentContextEntry),
            related: r.context.related.map(presentContextEntry),
          },
        }
      : {}),
    ...(withDocuments ? { documents: r.documents.map((d) => presentSearchDocument(d, include)) } : {}),
    ...(include.chunks ? { chunks: r.chunks.map(presentScoredChunk) } : {}),
  };
}

/** One result of POST /v3/search: a document with its matching chunks. */
export function presentV3SearchResult(r: SearchV3Result__Output, include: { fullDocs: boolean; summary: boolean }) {
  const d = r.document!;
  return {
    documentId: d.id,
    title: d.title || null,
    type: v3Type(d.contentType),
    metadata: fromStruct(d.metadata) ?? null,
    score: r.score,
    chunks: r.chunks.map((c) => ({ content: c.chunk?.content ?? "", isRelevant: c.isRelevant, score: c.score })),
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
    ...(include.summary ? { summary: d.summary || null } : {}),
    ...(include.fullDocs ? { content: d.content || null, ...(d.contentOmitted ? { contentOmitted: true } : {}) } : {}),
  };
}

/** A sync run: a connection's `lastSyncRun`, and each run of GET /v3/connections/{connectionId}/runs. */
export function presentSyncRun(run: SyncRun__Output) {
  return {
    status: protoEnum.syncRunStatus.from(run.status) ?? "queued",
    errorCode: protoEnum.syncErrorCode.from(run.errorCode) ?? null,
    error: run.error ?? null,
    startedAt: iso(run.startedAt),
    ...(run.completedAt ? { completedAt: iso(run.completedAt) } : {}),
    // Engram extensions (docs/api-decisions.md section 14): what the run imported so far, and what started it.
    documentsImported: run.documentsImported ?? 0,
    trigger: protoEnum.syncTrigger.from(run.trigger) ?? null,
  };
}

/** A connection (list, get, by tags): optional fields left out when unset, as the OpenAPI description has them. */
export function presentConnection(c: Connection__Output) {
  const run = c.lastSyncRun;
  return {
    id: c.id,
    provider: protoEnum.provider.from(c.provider) ?? "unknown",
    ...(c.email ? { email: c.email } : {}),
    ...(c.documentLimit !== undefined ? { documentLimit: c.documentLimit } : {}),
    createdAt: iso(c.createdAt),
    ...(c.expiresAt ? { expiresAt: iso(c.expiresAt) } : {}),
    metadata: fromStruct(c.metadata) ?? {},
    containerTags: c.containerTags.length ? c.containerTags : [c.namespace],
    // Engram extension: where the connection stands (waiting for consent, active, authorization lost, expired, deleting).
    status: protoEnum.connectionStatus.from(c.status) ?? null,
    ...(run ? { lastSyncRun: presentSyncRun(run) } : {}),
  };
}

/** A document a connection imported (POST /v3/connections/{provider}/documents). */
export function presentConnectionDocument(d: Document__Output) {
  return {
    id: d.id,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
    status: protoEnum.status.from(d.status),
    summary: orNull(d.summary),
    title: orNull(d.title),
    type: v3Type(d.contentType) ?? "text",
  };
}
