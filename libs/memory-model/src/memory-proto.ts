import { protoEnum, toStruct, toTimestamp } from "@engram/grpc";
import type { Memory } from "@engram/grpc/src/gen/engram/memories/v1/Memory";
import type { MemoryRecord } from "./memory";

/** The proto Memory (engram.memories.v1) of a memory record: the one mapping memories and recall both answer with. */
export function memoryToProto(m: MemoryRecord): Memory {
  return {
    id: m.id,
    content: m.content,
    namespace: m.namespace,
    containerTags: [m.namespace],
    metadata: toStruct(m.metadata),
    isStatic: m.isStatic,
    isForgotten: m.isForgotten,
    forgetAfter: toTimestamp(m.forgetAfter),
    ...(m.forgetReason !== undefined ? { forgetReason: m.forgetReason } : {}),
    temporalContext: m.temporalContext ? { documentDate: toTimestamp(m.temporalContext.documentDate), eventDates: m.temporalContext.eventDates ?? [] } : null,
    version: m.version,
    isLatest: m.isLatest,
    parentMemoryId: m.parentMemoryId ?? "",
    rootMemoryId: m.rootMemoryId ?? "",
    relation: protoEnum.memoryRelation.to(m.relation),
    memoryRelations: Object.fromEntries(Object.entries(m.relations).map(([id, r]) => [id, protoEnum.memoryRelation.to(r)])),
    sources: m.sources.map((s) => ({ documentId: s.documentId, chunkPositions: s.chunkPositions, chunkIds: [] })),
    documentIds: m.sources.map((s) => s.documentId),
    spaceId: m.namespace,
    tenantId: m.tenantId,
    ...(m.isInference !== undefined ? { isInference: m.isInference } : {}),
    isAggregated: false,
    bucketKeys: m.bucketKeys,
    forgetBatchId: m.forgetBatchId ?? "",
    filepath: m.filepath ?? "",
    createdAt: toTimestamp(m.createdAt),
    updatedAt: toTimestamp(m.updatedAt),
    forgottenAt: toTimestamp(m.forgottenAt),
  };
}
