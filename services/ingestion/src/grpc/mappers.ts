import { fromStruct, toStruct, toTimestamp } from "@engram/grpc";
export { filterFromProto, tenantOf } from "@engram/grpc";
import type { Document } from "@engram/grpc/src/gen/engram/ingestion/v1/Document";
import type { DocumentInput__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/DocumentInput";
import type { PageRequest__Output } from "@engram/grpc/src/gen/engram/common/v1/PageRequest";
import { protoEnum } from "@engram/grpc";
import type { DocumentInput, DocumentRecord } from "../domain/document";

export function inputFromProto(d: DocumentInput__Output | null | undefined): DocumentInput {
  return {
    content: d?.content ?? "",
    customId: d?.customId || undefined,
    supportingContext: d?.supportingContext || undefined,
    metadata: fromStruct(d?.metadata),
    group: fromStruct(d?.group),
    date: d?.date || undefined,
    filepath: d?.filepath || undefined,
    connectionId: d?.connectionId || undefined,
  };
}

export function pageFromProto(p: PageRequest__Output | null | undefined, defaults: { limit: number }) {
  return {
    page: p?.page || 1,
    limit: p?.limit || defaults.limit,
    sort: p?.sort || "createdAt",
    order: p?.order === "SORT_ORDER_ASC" ? "asc" : "desc",
  };
}

export function documentToProto(d: DocumentRecord, opts: { includeContent?: boolean } = {}): Document {
  return {
    id: d.id,
    customId: d.customId ?? "",
    namespace: d.namespace,
    content: opts.includeContent === false ? "" : d.content,
    supportingContext: d.supportingContext ?? "",
    metadata: toStruct(d.metadata),
    group: toStruct(d.group),
    date: d.date ?? "",
    status: protoEnum.status.to(d.status),
    statusReason: d.statusReason ?? "",
    createdAt: toTimestamp(d.createdAt),
    updatedAt: toTimestamp(d.updatedAt),
    taskType: protoEnum.taskType.to(d.taskType),
    dreaming: protoEnum.dreaming.to(d.dreaming),
    sourceKind: protoEnum.sourceKind.to(d.sourceKind),
    title: d.title ?? "",
    contentType: d.contentType ?? "",
    summary: d.summary ?? "",
    url: d.url ?? "",
    filepath: d.filepath ?? "",
    connectionId: d.connectionId ?? "",
    generation: d.generation,
    fileName: d.file?.name ?? "",
    mimeType: d.file?.mimeType ?? "",
    sizeBytes: String(d.file?.sizeBytes ?? 0),
    containerTags: [d.namespace, ...(d.containerTags ?? [])],
  };
}
