import { ContainerTagService, implement, type ServiceImplementation, tenantOf, toTimestamp } from "@engram/grpc";
import type { ContainerTag } from "@engram/grpc/src/gen/engram/ingestion/v1/ContainerTag";
import type { DeleteContainerTagRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/DeleteContainerTagRequest";
import type { DeleteContainerTagResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/DeleteContainerTagResponse";
import type { GetContainerTagRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/GetContainerTagRequest";
import type { GetContainerTagResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/GetContainerTagResponse";
import type { ListContainerTagsRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/ListContainerTagsRequest";
import type { ListContainerTagsResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/ListContainerTagsResponse";
import type { ResetTenantContentRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/ResetTenantContentRequest";
import type { ResetTenantContentResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/ResetTenantContentResponse";
import type { UpdateContainerTagRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/UpdateContainerTagRequest";
import type { UpdateContainerTagResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/UpdateContainerTagResponse";
import { NotFoundError } from "@engram/kernel";
import type { ContainerTagsUseCase } from "../app/container-tags.usecase";
import type { ContainerTagMergesUseCase } from "../app/container-tag-merges.usecase";
import type { GetContainerTagMergeRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/GetContainerTagMergeRequest";
import type { GetContainerTagMergeResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/GetContainerTagMergeResponse";
import type { MergeContainerTagsRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/MergeContainerTagsRequest";
import type { MergeContainerTagsResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/MergeContainerTagsResponse";
import type { ContainerTagMerge as MergeProto } from "@engram/grpc/src/gen/engram/ingestion/v1/ContainerTagMerge";
import type { ContainerTagMerge, ContainerTagPatch, ContainerTagView } from "../domain/container-tag";

const MERGE_STATUS = {
  queued: "MERGE_STATUS_QUEUED",
  running: "MERGE_STATUS_RUNNING",
  completed: "MERGE_STATUS_COMPLETED",
  failed: "MERGE_STATUS_FAILED",
} as const;

function mergeToProto(m: ContainerTagMerge): MergeProto {
  return {
    id: m.id,
    status: MERGE_STATUS[m.status],
    targetNamespace: m.target,
    sourceNamespaces: m.sources,
    movedDocumentsCount: m.movedDocuments,
    movedMemoriesCount: m.movedMemories,
    error: m.error ?? "",
    createdAt: toTimestamp(m.createdAt),
    updatedAt: toTimestamp(m.updatedAt),
    completedAt: toTimestamp(m.completedAt),
  };
}

/** Tags of projects (OpenAPI isNova: the sm_project_ prefix). */
const NOVA_PREFIX = "sm_project_";

export function containerTagToProto(v: ContainerTagView): ContainerTag {
  const s = v.settings;
  return {
    id: v.id,
    namespace: v.namespace,
    ...(s?.name ? { name: s.name } : {}),
    ...(s?.entityContext !== null && s?.entityContext !== undefined ? { entityContext: s.entityContext } : {}),
    memoryFilesystemPaths: s?.memoryFilesystemPaths ? { paths: s.memoryFilesystemPaths } : null,
    profileBuckets: s?.profileBuckets ?? [],
    createdAt: toTimestamp(v.createdAt),
    updatedAt: toTimestamp(v.updatedAt),
    isNova: v.namespace.startsWith(NOVA_PREFIX),
    documentCount: v.documentCount,
    lastActivityAt: toTimestamp(v.lastActivityAt),
  };
}

/** The proto request's fields as a patch: a masked field left unset is a clear (null), an unmasked one is kept. */
function patchOf(req: UpdateContainerTagRequest__Output): ContainerTagPatch {
  const mask = new Set(req.updateMask);
  return {
    ...(mask.has("name") ? { name: req.name ?? null } : {}),
    ...(mask.has("entity_context") ? { entityContext: req.entityContext ?? null } : {}),
    ...(mask.has("memory_filesystem_paths") ? { memoryFilesystemPaths: req.memoryFilesystemPaths ? [...req.memoryFilesystemPaths.paths] : null } : {}),
    ...(mask.has("profile_buckets") ? { profileBuckets: req.profileBuckets.map((b) => ({ key: b.key, description: b.description })) } : {}),
  };
}

/**
 * engram.ingestion.v1.ContainerTagService: proto <-> use case mapping only.
 * The document side of container tags, of their merges and of the
 * organisation reset (the gateway adds the memories' side).
 */
export function containerTagsGrpc(uc: { containerTags: ContainerTagsUseCase; merges: ContainerTagMergesUseCase }): ServiceImplementation {
  return implement(ContainerTagService, {
    async ListContainerTags(req: ListContainerTagsRequest__Output): Promise<ListContainerTagsResponse> {
      return { containerTags: (await uc.containerTags.list(tenantOf(req.context))).map(containerTagToProto) };
    },

    async GetContainerTag(req: GetContainerTagRequest__Output): Promise<GetContainerTagResponse> {
      return { containerTag: containerTagToProto(await uc.containerTags.get(tenantOf(req.context), req.namespace)) };
    },

    async UpdateContainerTag(req: UpdateContainerTagRequest__Output): Promise<UpdateContainerTagResponse> {
      return { containerTag: containerTagToProto(await uc.containerTags.update(tenantOf(req.context), req.namespace, patchOf(req))) };
    },

    async DeleteContainerTag(req: DeleteContainerTagRequest__Output): Promise<DeleteContainerTagResponse> {
      const out = await uc.containerTags.delete(tenantOf(req.context), req.namespace);
      // Memories may remain where no document or setting was: the gateway asks the memories service before calling it not found.
      if (!out.existed) throw new NotFoundError(`container tag ${req.namespace} has no documents and no settings`);
      return { success: true, namespace: req.namespace, deletedDocumentsCount: out.deletedDocuments };
    },

    async MergeContainerTags(req: MergeContainerTagsRequest__Output): Promise<MergeContainerTagsResponse> {
      const job = await uc.merges.queue(tenantOf(req.context), req.containerTags, req.targetNamespace, req.movedMemoriesCount);
      return { success: true, status: "MERGE_STATUS_QUEUED", mergeId: job.id, targetNamespace: job.target, sourceNamespaces: job.sources };
    },

    async GetContainerTagMerge(req: GetContainerTagMergeRequest__Output): Promise<GetContainerTagMergeResponse> {
      return { merge: mergeToProto(await uc.merges.get(tenantOf(req.context), req.mergeId)) };
    },

    async ResetTenantContent(req: ResetTenantContentRequest__Output): Promise<ResetTenantContentResponse> {
      const out = await uc.containerTags.resetTenant(tenantOf(req.context));
      return {
        // Engram splits a batch into documents at intake and keeps no batch record: each document counts as one.
        deletedDocumentBatches: out.deletedDocuments,
        deletedDocumentsApprox: out.deletedDocuments,
        deletedExtraSpaces: out.deletedExtraSpaces,
        clearedDefaultSpaceContext: true,
      };
    },
  });
}
