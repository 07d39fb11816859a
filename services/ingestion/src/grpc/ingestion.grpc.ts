import type * as grpc from "@grpc/grpc-js";
import { fromStruct, requestIdOf, toTimestamp, traceparentOf, implement, IngestionService, type ServiceImplementation } from "@engram/grpc";
import type { AddDocumentBatchRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/AddDocumentBatchRequest";
import type { AddDocumentBatchResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/AddDocumentBatchResponse";
import type { AddDocumentRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/AddDocumentRequest";
import type { AddDocumentResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/AddDocumentResponse";
import type { CreateFileUrlRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/CreateFileUrlRequest";
import type { CreateFileUrlResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/CreateFileUrlResponse";
import type { DeleteDocumentsRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/DeleteDocumentsRequest";
import type { DeleteDocumentsResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/DeleteDocumentsResponse";
import type { GetDocumentRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/GetDocumentRequest";
import type { GetDocumentResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/GetDocumentResponse";
import type { GetDocumentSourceRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/GetDocumentSourceRequest";
import type { GetDocumentSourceResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/GetDocumentSourceResponse";
import type { ListDocumentsRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/ListDocumentsRequest";
import type { ListDocumentsResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/ListDocumentsResponse";
import type { ListProcessingDocumentsRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/ListProcessingDocumentsRequest";
import type { ListProcessingDocumentsResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/ListProcessingDocumentsResponse";
import type { ReadDocumentFileRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/ReadDocumentFileRequest";
import type { ReadDocumentFileResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/ReadDocumentFileResponse";
import type { ReadDocumentResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/ReadDocumentResponse";
import type { UpdateDocumentRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/UpdateDocumentRequest";
import type { UploadDocumentFileRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/UploadDocumentFileRequest";
import type { UploadDocumentFileHeader__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/UploadDocumentFileHeader";
import { contentBytes, FailedPreconditionError, InvalidArgumentError } from "@engram/kernel";
import { MAX_MESSAGE_BYTES, protoEnum } from "@engram/grpc";
import type { ExportDocumentsRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/ExportDocumentsRequest";
import type { ExportDocumentsResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/ExportDocumentsResponse";
import type { ImportDocumentFileRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/ImportDocumentFileRequest";
import type { ImportDocumentsRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/ImportDocumentsRequest";
import type { ImportDocumentsResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/ImportDocumentsResponse";
import type { PlanDocumentImportRequest__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/PlanDocumentImportRequest";
import type { PlanDocumentImportResponse } from "@engram/grpc/src/gen/engram/ingestion/v1/PlanDocumentImportResponse";
import type { DocumentArchiveUseCase, ImportResult } from "../app/document-archive.usecase";
import type { AddDocumentBatchUseCase, AddDocumentUseCase } from "../app/add-document.usecase";
import type { DeleteDocumentsUseCase } from "../app/delete-documents.usecase";
import type { FileUrlUseCase } from "../app/file-url.usecase";
import type { GetDocumentUseCase } from "../app/get-document.usecase";
import type { ListDocumentsUseCase } from "../app/list-documents.usecase";
import type { FileStore } from "../app/ports";
import type { UpdateDocumentUseCase } from "../app/update-document.usecase";
import type { UploadDocumentFileUseCase } from "../app/upload-document-file.usecase";
import { documentToProto, filterFromProto, inputFromProto, pageFromProto, tenantOf } from "./mappers";

export interface IngestionUseCases {
  addDocument: AddDocumentUseCase;
  addBatch: AddDocumentBatchUseCase;
  upload: UploadDocumentFileUseCase;
  getDocument: GetDocumentUseCase;
  updateDocument: UpdateDocumentUseCase;
  listDocuments: ListDocumentsUseCase;
  deleteDocuments: DeleteDocumentsUseCase;
  fileUrls: FileUrlUseCase;
  files: FileStore;
  archive: DocumentArchiveUseCase;
}

const importedToProto = (r: ImportResult) => ({ sourceId: r.sourceId, id: r.id ?? "", error: r.error ?? "" });

const CHUNK = 256 * 1024;
/** Parts of a document's content in ReadDocument (UTF-8 bytes). */
const CONTENT_PART = 1024 * 1024;
/** GetDocument carries a content up to this size; past it the whole answer might not fit in one message (ReadDocument streams). */
const GET_DOCUMENT_MAX_CONTENT = MAX_MESSAGE_BYTES - 8 * 1024 * 1024;
const trace = (call: { metadata: grpc.Metadata }) => ({ requestId: requestIdOf(call), traceparent: traceparentOf(call) });

async function* frames(bytes: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  for await (const b of bytes) for (let i = 0; i < b.byteLength; i += CHUNK) yield b.subarray(i, i + CHUNK);
}

/** engram.ingestion.v1.IngestionService: proto <-> use case mapping only. */
export function ingestionGrpc(uc: IngestionUseCases): ServiceImplementation {
  return implement(IngestionService, {
    async AddDocument(req: AddDocumentRequest__Output, call: grpc.ServerUnaryCall<unknown, unknown>): Promise<AddDocumentResponse> {
      const res = await uc.addDocument.execute({
        tenantId: tenantOf(req.context),
        namespace: req.namespace,
        input: inputFromProto(req.document),
        taskType: protoEnum.taskType.from(req.taskType),
        dreaming: protoEnum.dreaming.from(req.dreaming),
        containerTags: req.containerTags,
        ...trace(call),
      });
      return { id: res.id, status: protoEnum.status.to(res.status), namespace: res.namespace, customId: res.customId ?? "" };
    },

    async AddDocumentBatch(req: AddDocumentBatchRequest__Output, call: grpc.ServerUnaryCall<unknown, unknown>): Promise<AddDocumentBatchResponse> {
      const res = await uc.addBatch.execute(
        {
          tenantId: tenantOf(req.context),
          namespace: req.namespace,
          taskType: protoEnum.taskType.from(req.taskType),
          dreaming: protoEnum.dreaming.from(req.dreaming),
          containerTags: req.containerTags,
          ...trace(call),
        },
        req.documents.map((d) => ({ input: inputFromProto(d), namespace: d.namespace || undefined })),
      );
      return {
        count: res.count,
        failed: res.failed,
        results: res.results.map((r) => ({
          id: r.id ?? "",
          customId: r.customId ?? "",
          url: r.url ?? "",
          status: r.status === "error" ? "DOCUMENT_STATUS_UNSPECIFIED" : protoEnum.status.to(r.status),
          error: r.status === "error",
          errorMessage: r.error ?? "",
          index: r.index,
        })),
      };
    },

    async UploadDocumentFile(call: grpc.ServerReadableStream<UploadDocumentFileRequest__Output, unknown>): Promise<AddDocumentResponse> {
      const it = call[Symbol.asyncIterator]() as AsyncIterator<UploadDocumentFileRequest__Output>;
      const first = await it.next();
      const h: UploadDocumentFileHeader__Output | null | undefined = first.done ? undefined : first.value.header;
      if (!h) throw new InvalidArgumentError("the upload stream must start with its header");
      async function* bytes(): AsyncIterable<Uint8Array> {
        for (let n = await it.next(); !n.done; n = await it.next()) {
          if (n.value.header) throw new InvalidArgumentError("only the first message of an upload may be a header");
          if (n.value.data?.length) yield n.value.data;
        }
      }
      const res = await uc.upload.execute({
        tenantId: tenantOf(h.context),
        namespace: h.namespace,
        fileName: h.fileName || undefined,
        mimeType: h.mimeType || undefined,
        fileType: h.fileType || undefined,
        input: {
          customId: h.customId || undefined,
          supportingContext: h.supportingContext || undefined,
          metadata: fromStruct(h.metadata),
          group: fromStruct(h.group),
          date: h.date || undefined,
          filepath: h.filepath || undefined,
          connectionId: h.connectionId || undefined,
          title: (h.connectionId && h.title) || undefined,
        },
        taskType: protoEnum.taskType.from(h.taskType),
        dreaming: protoEnum.dreaming.from(h.dreaming),
        containerTags: h.containerTags,
        bytes: bytes(),
        ...trace(call),
      });
      return { id: res.id, status: protoEnum.status.to(res.status), namespace: res.namespace, customId: res.customId ?? "" };
    },

    async GetDocument(req: GetDocumentRequest__Output): Promise<GetDocumentResponse> {
      const doc = await uc.getDocument.execute(tenantOf(req.context), req.namespace || undefined, req.id);
      if (req.omitContent) return { document: documentToProto(doc, { includeContent: false }) };
      if (contentBytes(doc.content) > GET_DOCUMENT_MAX_CONTENT) {
        throw new FailedPreconditionError(`document ${req.id} is too large for one message`, "read it with ReadDocument, which streams the content");
      }
      return { document: documentToProto(doc) };
    },

    async ReadDocument(req: GetDocumentRequest__Output, call: grpc.ServerWritableStream<unknown, ReadDocumentResponse>): Promise<void> {
      const doc = await uc.getDocument.execute(tenantOf(req.context), req.namespace || undefined, req.id);
      const write = async (m: ReadDocumentResponse) => {
        if (!call.write(m)) await new Promise((r) => call.once("drain", r));
      };
      await write({ document: documentToProto(doc, { includeContent: false }) });
      const bytes = Buffer.from(doc.content, "utf8");
      for (let i = 0; i < bytes.byteLength && !call.cancelled; i += CONTENT_PART) await write({ content: bytes.subarray(i, i + CONTENT_PART) });
    },

    async UpdateDocument(req: UpdateDocumentRequest__Output, call: grpc.ServerUnaryCall<unknown, unknown>): Promise<AddDocumentResponse> {
      const mask = new Set(req.updateMask);
      const d = req.document;
      const res = await uc.updateDocument.execute({
        tenantId: tenantOf(req.context),
        namespace: req.namespace || undefined,
        id: req.id,
        patch: {
          content: mask.has("content") ? (d?.content ?? "") : undefined,
          customId: mask.has("custom_id") ? d?.customId : undefined,
          namespace: mask.has("namespace") ? d?.namespace : undefined,
          containerTags: mask.has("container_tags") ? req.containerTags : undefined,
          metadata: mask.has("metadata") ? (fromStruct(d?.metadata) ?? {}) : undefined,
          group: mask.has("group") ? (fromStruct(d?.group) ?? {}) : undefined,
          filepath: mask.has("filepath") ? d?.filepath : undefined,
          taskType: protoEnum.taskType.from(req.taskType),
        },
        ...trace(call),
      });
      return { id: res.id, status: protoEnum.status.to(res.status), namespace: res.namespace, customId: res.customId ?? "" };
    },

    async ListDocuments(req: ListDocumentsRequest__Output): Promise<ListDocumentsResponse> {
      const namespaces = [...new Set([req.namespace, ...req.containerTags].filter(Boolean))];
      const page = await uc.listDocuments.execute({
        tenantId: tenantOf(req.context),
        namespaces: namespaces.length ? namespaces : undefined,
        filter: filterFromProto(req.filter),
        filepath: req.filepath || undefined,
        connectionId: req.connectionId || undefined,
        ...(req.statuses.length ? { statuses: req.statuses.map((x) => protoEnum.status.from(x)) } : {}),
        ...pageFromProto(req.page, { limit: 10 }),
        includeContent: req.includeContent,
        maxContentBytes: Number(req.maxContentBytes) || undefined,
      });
      return {
        documents: page.items.map((d, i) => ({
          ...documentToProto(d, { includeContent: req.includeContent }),
          contentOmitted: page.content?.omitted[i] ?? false,
        })),
        pagination: { currentPage: page.currentPage, limit: page.limit, totalItems: page.totalItems, totalPages: page.totalPages },
        maxContentBytes: page.content?.maxBytes ?? 0,
        contentOmitted: page.content?.omittedCount ?? 0,
      };
    },

    async ListProcessingDocuments(req: ListProcessingDocumentsRequest__Output): Promise<ListProcessingDocumentsResponse> {
      const page = await uc.listDocuments.execute({
        tenantId: tenantOf(req.context),
        namespaces: req.namespace ? [req.namespace] : undefined,
        statuses: ["unknown", "queued", "extracting", "chunking", "embedding", "indexing"],
        page: 1,
        limit: 1100,
        sort: "createdAt",
        order: "asc",
      });
      return { documents: page.items.map((d) => documentToProto(d, { includeContent: false })), totalCount: page.totalItems };
    },

    async DeleteDocuments(req: DeleteDocumentsRequest__Output): Promise<DeleteDocumentsResponse> {
      const tenantId = tenantOf(req.context);
      const ways = [req.ids.length > 0, req.containerTags.length > 0, req.connectionId !== ""].filter(Boolean).length;
      if (ways > 1) throw new InvalidArgumentError("give ids, containerTags or a connection id, not several");
      if (req.filepath && req.containerTags.length === 0)
        throw new InvalidArgumentError("filepath narrows a delete by containerTags", "give containerTags with it");
      const res = req.ids.length
        ? await uc.deleteDocuments.byIds(tenantId, req.namespace || undefined, req.ids)
        : req.connectionId
          ? await uc.deleteDocuments.byConnection(tenantId, req.connectionId)
          : await uc.deleteDocuments.byNamespaces(tenantId, req.containerTags, req.filepath || undefined);
      return { count: res.count, errors: res.errors, deletedIds: res.deletedIds, containerTags: req.containerTags };
    },

    async CreateFileUrl(req: CreateFileUrlRequest__Output): Promise<CreateFileUrlResponse> {
      const { token, expiresAt, doc } = await uc.fileUrls.create(tenantOf(req.context), req.namespace || undefined, req.id, req.expiresInSeconds);
      return { token, expiresAt: toTimestamp(expiresAt), fileName: doc.file?.name ?? "", mimeType: doc.file?.mimeType ?? "" };
    },

    async ReadDocumentFile(req: ReadDocumentFileRequest__Output, call: grpc.ServerWritableStream<unknown, ReadDocumentFileResponse>): Promise<void> {
      const { doc, bytes } = await uc.fileUrls.open(req.token);
      call.write({
        info: { fileName: doc.file?.name ?? "", mimeType: doc.file?.mimeType ?? "application/octet-stream", sizeBytes: String(doc.file?.sizeBytes ?? 0) },
      });
      for await (const b of frames(bytes)) if (!call.write({ data: b })) await new Promise((r) => call.once("drain", r));
    },

    async GetDocumentSource(req: GetDocumentSourceRequest__Output, call: grpc.ServerWritableStream<unknown, GetDocumentSourceResponse>): Promise<void> {
      const doc = await uc.getDocument.execute(tenantOf(req.context), req.namespace || undefined, req.id);
      const current = req.generation === 0 || req.generation === doc.generation;
      const isText = doc.sourceKind === "text" || doc.sourceKind === "conversation" || doc.sourceKind === "connector";
      // A large text follows in parts, like a file's bytes.
      const textInData = isText && contentBytes(doc.content) > CONTENT_PART;
      call.write({
        info: {
          // The text travels once, in `text` or the data parts (the record's copy would double it).
          document: documentToProto(doc, { includeContent: false }),
          sourceKind: protoEnum.sourceKind.to(doc.sourceKind),
          text: isText && !textInData ? doc.content : "",
          textInData,
          url: doc.url ?? "",
          mimeType: doc.file?.mimeType ?? "",
          fileName: doc.file?.name ?? "",
          sizeBytes: String(doc.file?.sizeBytes ?? 0),
          fileType: doc.file?.fileType ?? "",
          current,
        },
      });
      if (textInData) {
        const bytes = Buffer.from(doc.content, "utf8");
        for (let i = 0; i < bytes.byteLength && !call.cancelled; i += CONTENT_PART) {
          if (!call.write({ data: bytes.subarray(i, i + CONTENT_PART) })) await new Promise((r) => call.once("drain", r));
        }
      } else if (current && doc.file) {
        for await (const b of frames(uc.files.read(doc.file.key))) if (!call.write({ data: b })) await new Promise((r) => call.once("drain", r));
      }
    },

    async ExportDocuments(req: ExportDocumentsRequest__Output): Promise<ExportDocumentsResponse> {
      return uc.archive.exportPage(tenantOf(req.context), req.cursor, req.maxBytes);
    },

    async PlanDocumentImport(req: PlanDocumentImportRequest__Output): Promise<PlanDocumentImportResponse> {
      const plan = await uc.archive.plan(
        tenantOf(req.context),
        req.documents.map((d) => ({ id: d.id, namespace: d.namespace, customId: d.customId || undefined })),
      );
      return { newIds: Object.fromEntries(plan.newIds), existingIds: Object.fromEntries(plan.existingIds) };
    },

    async ImportDocuments(req: ImportDocumentsRequest__Output): Promise<ImportDocumentsResponse> {
      const results = await uc.archive.importRecords(tenantOf(req.context), req.records, new Map(Object.entries(req.newIds)));
      return { results: results.map(importedToProto) };
    },

    async ImportDocumentFile(call: grpc.ServerReadableStream<ImportDocumentFileRequest__Output, unknown>): Promise<ImportDocumentsResponse> {
      const it = call[Symbol.asyncIterator]() as AsyncIterator<ImportDocumentFileRequest__Output>;
      const first = await it.next();
      const h = first.done ? undefined : first.value.header;
      if (!h) throw new InvalidArgumentError("the import stream must start with its header");
      async function* bytes(): AsyncIterable<Uint8Array> {
        for (let n = await it.next(); !n.done; n = await it.next()) {
          if (n.value.header) throw new InvalidArgumentError("only the first message of an import stream may be a header");
          if (n.value.data?.length) yield n.value.data;
        }
      }
      const result = await uc.archive.importFile(tenantOf(h.context), h.record, new Map(Object.entries(h.newIds)), bytes());
      return { results: [importedToProto(result)] };
    },
  });
}
