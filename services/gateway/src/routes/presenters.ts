import { fromStruct, fromTimestamp } from "@engram/grpc";
import type { Document__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/Document";
import type { ChunkEntry__Output } from "@engram/grpc/src/gen/engram/recall/v1/ChunkEntry";
import { protoEnum } from "@engram/kernel";

const iso = (t: Parameters<typeof fromTimestamp>[0]) => fromTimestamp(t)?.toISOString() ?? null;
const orNull = (s: string | undefined) => (s ? s : null);

/** v5 document: the caller's id when it has one, lifecycle under `system`. */
export function presentV5Document(d: Document__Output) {
  const status = protoEnum.status.from(d.status);
  return {
    id: d.customId || d.id,
    content: d.content,
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

/** Legacy v3 document (OpenAPI getV3DocumentsById). */
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
    summary: orNull(d.summary),
    taskType: protoEnum.taskType.from(d.taskType) ?? "memory",
    title: orNull(d.title),
    type: v3Type(d.contentType),
    url: orNull(d.url),
    filepath: orNull(d.filepath),
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
    ...(includeContent ? { content: d.content } : {}),
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
