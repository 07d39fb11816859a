import { ContainerTagService, implement, type ServiceImplementation, tenantOf } from "@engram/grpc";
import type { ResetTenantContentRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/ResetTenantContentRequest";
import type { ResetTenantContentResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/ResetTenantContentResponse";
import { DEFAULT_NAMESPACE } from "@engram/kernel";
import type { DeleteDocumentsUseCase } from "../app/delete-documents.usecase";

/**
 * engram.ingestion.v1.ContainerTagService: proto <-> use case mapping only.
 * The tenant reset (the organisation reset's document side) is served; the
 * container-tag operations answer UNIMPLEMENTED until their release.
 */
export function containerTagsGrpc(uc: { deleteDocuments: DeleteDocumentsUseCase }): ServiceImplementation {
  return implement(ContainerTagService, {
    async ResetTenantContent(req: ResetTenantContentRequest__Output): Promise<ResetTenantContentResponse> {
      const out = await uc.deleteDocuments.byTenant(tenantOf(req.context));
      return {
        // Engram splits a batch into documents at intake and keeps no batch record: each document counts as one.
        deletedDocumentBatches: out.count,
        deletedDocumentsApprox: out.count,
        deletedExtraSpaces: out.namespaces.filter((ns) => ns !== DEFAULT_NAMESPACE).length,
        // Engram keeps no per-tag context yet: the default tag has none after the reset.
        clearedDefaultSpaceContext: true,
      };
    },
  });
}
