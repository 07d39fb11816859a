import type * as grpc from "@grpc/grpc-js";
import { requestIdOf, type ServiceImpl, traceparentOf } from "@engram/grpc";
import type { AddDocumentRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/AddDocumentRequest";
import type { AddDocumentResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/AddDocumentResponse";
import type { GetDocumentRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/GetDocumentRequest";
import type { GetDocumentResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/GetDocumentResponse";
import type { GetDocumentSourceRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/GetDocumentSourceRequest";
import type { GetDocumentSourceResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/GetDocumentSourceResponse";
import { protoEnum } from "@engram/kernel";
import type { AddDocumentUseCase } from "../app/add-document.usecase";
import type { GetDocumentUseCase } from "../app/get-document.usecase";
import { documentToProto, inputFromProto, sourceKindToProto, tenantOf } from "./mappers";

export interface IngestionUseCases {
  addDocument: AddDocumentUseCase;
  getDocument: GetDocumentUseCase;
}

/** engram.ingestion.v1.IngestionService: proto <-> use case mapping only. */
export function ingestionGrpc(uc: IngestionUseCases): ServiceImpl {
  return {
    async addDocument(req: AddDocumentRequest__Output, call: grpc.ServerUnaryCall<unknown, unknown>): Promise<AddDocumentResponse> {
      const res = await uc.addDocument.execute({
        tenantId: tenantOf(req.context),
        namespace: req.namespace,
        input: inputFromProto(req.document),
        taskType: protoEnum.taskType.from(req.taskType),
        dreaming: protoEnum.dreaming.from(req.dreaming),
        requestId: requestIdOf(call),
        traceparent: traceparentOf(call),
      });
      return { id: res.id, status: protoEnum.status.to(res.status) as never, namespace: res.namespace, customId: res.customId ?? "" };
    },

    async getDocument(req: GetDocumentRequest__Output): Promise<GetDocumentResponse> {
      const doc = await uc.getDocument.execute(tenantOf(req.context), req.namespace || undefined, req.id);
      return { document: documentToProto(doc) };
    },

    async getDocumentSource(req: GetDocumentSourceRequest__Output, call: grpc.ServerWritableStream<unknown, GetDocumentSourceResponse>): Promise<void> {
      const doc = await uc.getDocument.execute(tenantOf(req.context), req.namespace || undefined, req.id);
      call.write({
        info: {
          document: documentToProto(doc),
          sourceKind: sourceKindToProto(doc.sourceKind) as never,
          text: doc.sourceKind === "url" ? "" : doc.content,
          url: doc.url ?? "",
          current: req.generation === 0 || req.generation === doc.generation,
        },
      });
    },
  };
}
