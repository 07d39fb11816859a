// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AddDocumentBatchRequest as _engram_ingestion_v1_AddDocumentBatchRequest, AddDocumentBatchRequest__Output as _engram_ingestion_v1_AddDocumentBatchRequest__Output } from '../../../engram/ingestion/v1/AddDocumentBatchRequest';
import type { AddDocumentBatchResponse as _engram_ingestion_v1_AddDocumentBatchResponse, AddDocumentBatchResponse__Output as _engram_ingestion_v1_AddDocumentBatchResponse__Output } from '../../../engram/ingestion/v1/AddDocumentBatchResponse';
import type { AddDocumentRequest as _engram_ingestion_v1_AddDocumentRequest, AddDocumentRequest__Output as _engram_ingestion_v1_AddDocumentRequest__Output } from '../../../engram/ingestion/v1/AddDocumentRequest';
import type { AddDocumentResponse as _engram_ingestion_v1_AddDocumentResponse, AddDocumentResponse__Output as _engram_ingestion_v1_AddDocumentResponse__Output } from '../../../engram/ingestion/v1/AddDocumentResponse';
import type { CreateFileUrlRequest as _engram_ingestion_v1_CreateFileUrlRequest, CreateFileUrlRequest__Output as _engram_ingestion_v1_CreateFileUrlRequest__Output } from '../../../engram/ingestion/v1/CreateFileUrlRequest';
import type { CreateFileUrlResponse as _engram_ingestion_v1_CreateFileUrlResponse, CreateFileUrlResponse__Output as _engram_ingestion_v1_CreateFileUrlResponse__Output } from '../../../engram/ingestion/v1/CreateFileUrlResponse';
import type { DeleteDocumentsRequest as _engram_ingestion_v1_DeleteDocumentsRequest, DeleteDocumentsRequest__Output as _engram_ingestion_v1_DeleteDocumentsRequest__Output } from '../../../engram/ingestion/v1/DeleteDocumentsRequest';
import type { DeleteDocumentsResponse as _engram_ingestion_v1_DeleteDocumentsResponse, DeleteDocumentsResponse__Output as _engram_ingestion_v1_DeleteDocumentsResponse__Output } from '../../../engram/ingestion/v1/DeleteDocumentsResponse';
import type { ExportDocumentsRequest as _engram_ingestion_v1_ExportDocumentsRequest, ExportDocumentsRequest__Output as _engram_ingestion_v1_ExportDocumentsRequest__Output } from '../../../engram/ingestion/v1/ExportDocumentsRequest';
import type { ExportDocumentsResponse as _engram_ingestion_v1_ExportDocumentsResponse, ExportDocumentsResponse__Output as _engram_ingestion_v1_ExportDocumentsResponse__Output } from '../../../engram/ingestion/v1/ExportDocumentsResponse';
import type { GetDocumentRequest as _engram_ingestion_v1_GetDocumentRequest, GetDocumentRequest__Output as _engram_ingestion_v1_GetDocumentRequest__Output } from '../../../engram/ingestion/v1/GetDocumentRequest';
import type { GetDocumentResponse as _engram_ingestion_v1_GetDocumentResponse, GetDocumentResponse__Output as _engram_ingestion_v1_GetDocumentResponse__Output } from '../../../engram/ingestion/v1/GetDocumentResponse';
import type { GetDocumentSourceRequest as _engram_ingestion_v1_GetDocumentSourceRequest, GetDocumentSourceRequest__Output as _engram_ingestion_v1_GetDocumentSourceRequest__Output } from '../../../engram/ingestion/v1/GetDocumentSourceRequest';
import type { GetDocumentSourceResponse as _engram_ingestion_v1_GetDocumentSourceResponse, GetDocumentSourceResponse__Output as _engram_ingestion_v1_GetDocumentSourceResponse__Output } from '../../../engram/ingestion/v1/GetDocumentSourceResponse';
import type { ImportDocumentFileRequest as _engram_ingestion_v1_ImportDocumentFileRequest, ImportDocumentFileRequest__Output as _engram_ingestion_v1_ImportDocumentFileRequest__Output } from '../../../engram/ingestion/v1/ImportDocumentFileRequest';
import type { ImportDocumentsRequest as _engram_ingestion_v1_ImportDocumentsRequest, ImportDocumentsRequest__Output as _engram_ingestion_v1_ImportDocumentsRequest__Output } from '../../../engram/ingestion/v1/ImportDocumentsRequest';
import type { ImportDocumentsResponse as _engram_ingestion_v1_ImportDocumentsResponse, ImportDocumentsResponse__Output as _engram_ingestion_v1_ImportDocumentsResponse__Output } from '../../../engram/ingestion/v1/ImportDocumentsResponse';
import type { ListDocumentsRequest as _engram_ingestion_v1_ListDocumentsRequest, ListDocumentsRequest__Output as _engram_ingestion_v1_ListDocumentsRequest__Output } from '../../../engram/ingestion/v1/ListDocumentsRequest';
import type { ListDocumentsResponse as _engram_ingestion_v1_ListDocumentsResponse, ListDocumentsResponse__Output as _engram_ingestion_v1_ListDocumentsResponse__Output } from '../../../engram/ingestion/v1/ListDocumentsResponse';
import type { ListProcessingDocumentsRequest as _engram_ingestion_v1_ListProcessingDocumentsRequest, ListProcessingDocumentsRequest__Output as _engram_ingestion_v1_ListProcessingDocumentsRequest__Output } from '../../../engram/ingestion/v1/ListProcessingDocumentsRequest';
import type { ListProcessingDocumentsResponse as _engram_ingestion_v1_ListProcessingDocumentsResponse, ListProcessingDocumentsResponse__Output as _engram_ingestion_v1_ListProcessingDocumentsResponse__Output } from '../../../engram/ingestion/v1/ListProcessingDocumentsResponse';
import type { PlanDocumentImportRequest as _engram_ingestion_v1_PlanDocumentImportRequest, PlanDocumentImportRequest__Output as _engram_ingestion_v1_PlanDocumentImportRequest__Output } from '../../../engram/ingestion/v1/PlanDocumentImportRequest';
import type { PlanDocumentImportResponse as _engram_ingestion_v1_PlanDocumentImportResponse, PlanDocumentImportResponse__Output as _engram_ingestion_v1_PlanDocumentImportResponse__Output } from '../../../engram/ingestion/v1/PlanDocumentImportResponse';
import type { ReadDocumentFileRequest as _engram_ingestion_v1_ReadDocumentFileRequest, ReadDocumentFileRequest__Output as _engram_ingestion_v1_ReadDocumentFileRequest__Output } from '../../../engram/ingestion/v1/ReadDocumentFileRequest';
import type { ReadDocumentFileResponse as _engram_ingestion_v1_ReadDocumentFileResponse, ReadDocumentFileResponse__Output as _engram_ingestion_v1_ReadDocumentFileResponse__Output } from '../../../engram/ingestion/v1/ReadDocumentFileResponse';
import type { ReadDocumentResponse as _engram_ingestion_v1_ReadDocumentResponse, ReadDocumentResponse__Output as _engram_ingestion_v1_ReadDocumentResponse__Output } from '../../../engram/ingestion/v1/ReadDocumentResponse';
import type { UpdateDocumentRequest as _engram_ingestion_v1_UpdateDocumentRequest, UpdateDocumentRequest__Output as _engram_ingestion_v1_UpdateDocumentRequest__Output } from '../../../engram/ingestion/v1/UpdateDocumentRequest';
import type { UploadDocumentFileRequest as _engram_ingestion_v1_UploadDocumentFileRequest, UploadDocumentFileRequest__Output as _engram_ingestion_v1_UploadDocumentFileRequest__Output } from '../../../engram/ingestion/v1/UploadDocumentFileRequest';

/**
 * Owns documents: identity, namespace, caller id, metadata, group, date,
 * source, raw bytes, processing status and timestamps. Serves both API
 * generations: v5 (/ns/{namespace}/...) and legacy v3 (/v3/documents...).
 */
export interface IngestionServiceClient extends grpc.Client {
  /**
   * POST /ns/{namespace}/document, POST /v3/documents.
   */
  AddDocument(argument: _engram_ingestion_v1_AddDocumentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  AddDocument(argument: _engram_ingestion_v1_AddDocumentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  AddDocument(argument: _engram_ingestion_v1_AddDocumentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  AddDocument(argument: _engram_ingestion_v1_AddDocumentRequest, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /ns/{namespace}/document, POST /v3/documents.
   */
  addDocument(argument: _engram_ingestion_v1_AddDocumentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  addDocument(argument: _engram_ingestion_v1_AddDocumentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  addDocument(argument: _engram_ingestion_v1_AddDocumentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  addDocument(argument: _engram_ingestion_v1_AddDocumentRequest, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /ns/{namespace}/document/batch, POST /v3/documents/batch.
   */
  AddDocumentBatch(argument: _engram_ingestion_v1_AddDocumentBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentBatchResponse__Output>): grpc.ClientUnaryCall;
  AddDocumentBatch(argument: _engram_ingestion_v1_AddDocumentBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentBatchResponse__Output>): grpc.ClientUnaryCall;
  AddDocumentBatch(argument: _engram_ingestion_v1_AddDocumentBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentBatchResponse__Output>): grpc.ClientUnaryCall;
  AddDocumentBatch(argument: _engram_ingestion_v1_AddDocumentBatchRequest, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentBatchResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /ns/{namespace}/document/batch, POST /v3/documents/batch.
   */
  addDocumentBatch(argument: _engram_ingestion_v1_AddDocumentBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentBatchResponse__Output>): grpc.ClientUnaryCall;
  addDocumentBatch(argument: _engram_ingestion_v1_AddDocumentBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentBatchResponse__Output>): grpc.ClientUnaryCall;
  addDocumentBatch(argument: _engram_ingestion_v1_AddDocumentBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentBatchResponse__Output>): grpc.ClientUnaryCall;
  addDocumentBatch(argument: _engram_ingestion_v1_AddDocumentBatchRequest, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentBatchResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/documents/{id}/file-url: an expiring link the gateway serves.
   */
  CreateFileUrl(argument: _engram_ingestion_v1_CreateFileUrlRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_CreateFileUrlResponse__Output>): grpc.ClientUnaryCall;
  CreateFileUrl(argument: _engram_ingestion_v1_CreateFileUrlRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_CreateFileUrlResponse__Output>): grpc.ClientUnaryCall;
  CreateFileUrl(argument: _engram_ingestion_v1_CreateFileUrlRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_CreateFileUrlResponse__Output>): grpc.ClientUnaryCall;
  CreateFileUrl(argument: _engram_ingestion_v1_CreateFileUrlRequest, callback: grpc.requestCallback<_engram_ingestion_v1_CreateFileUrlResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/documents/{id}/file-url: an expiring link the gateway serves.
   */
  createFileUrl(argument: _engram_ingestion_v1_CreateFileUrlRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_CreateFileUrlResponse__Output>): grpc.ClientUnaryCall;
  createFileUrl(argument: _engram_ingestion_v1_CreateFileUrlRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_CreateFileUrlResponse__Output>): grpc.ClientUnaryCall;
  createFileUrl(argument: _engram_ingestion_v1_CreateFileUrlRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_CreateFileUrlResponse__Output>): grpc.ClientUnaryCall;
  createFileUrl(argument: _engram_ingestion_v1_CreateFileUrlRequest, callback: grpc.requestCallback<_engram_ingestion_v1_CreateFileUrlResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * DELETE /ns/{namespace}/document, DELETE /v3/documents/{id}, DELETE /v3/documents/bulk.
   */
  DeleteDocuments(argument: _engram_ingestion_v1_DeleteDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteDocumentsResponse__Output>): grpc.ClientUnaryCall;
  DeleteDocuments(argument: _engram_ingestion_v1_DeleteDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteDocumentsResponse__Output>): grpc.ClientUnaryCall;
  DeleteDocuments(argument: _engram_ingestion_v1_DeleteDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteDocumentsResponse__Output>): grpc.ClientUnaryCall;
  DeleteDocuments(argument: _engram_ingestion_v1_DeleteDocumentsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteDocumentsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DELETE /ns/{namespace}/document, DELETE /v3/documents/{id}, DELETE /v3/documents/bulk.
   */
  deleteDocuments(argument: _engram_ingestion_v1_DeleteDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteDocumentsResponse__Output>): grpc.ClientUnaryCall;
  deleteDocuments(argument: _engram_ingestion_v1_DeleteDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteDocumentsResponse__Output>): grpc.ClientUnaryCall;
  deleteDocuments(argument: _engram_ingestion_v1_DeleteDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteDocumentsResponse__Output>): grpc.ClientUnaryCall;
  deleteDocuments(argument: _engram_ingestion_v1_DeleteDocumentsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteDocumentsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/export: one page of the tenant's documents as archive records
   * (docs/export-format.md), oldest first, at most max_bytes of records.
   */
  ExportDocuments(argument: _engram_ingestion_v1_ExportDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ExportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ExportDocuments(argument: _engram_ingestion_v1_ExportDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ExportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ExportDocuments(argument: _engram_ingestion_v1_ExportDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ExportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ExportDocuments(argument: _engram_ingestion_v1_ExportDocumentsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ExportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/export: one page of the tenant's documents as archive records
   * (docs/export-format.md), oldest first, at most max_bytes of records.
   */
  exportDocuments(argument: _engram_ingestion_v1_ExportDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ExportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  exportDocuments(argument: _engram_ingestion_v1_ExportDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ExportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  exportDocuments(argument: _engram_ingestion_v1_ExportDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ExportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  exportDocuments(argument: _engram_ingestion_v1_ExportDocumentsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ExportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * A document's record. Its content comes along only while the whole answer
   * fits in one gRPC message (a document whose content does not is refused
   * with FAILED_PRECONDITION, naming ReadDocument); omit_content leaves it out.
   */
  GetDocument(argument: _engram_ingestion_v1_GetDocumentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetDocumentResponse__Output>): grpc.ClientUnaryCall;
  GetDocument(argument: _engram_ingestion_v1_GetDocumentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_GetDocumentResponse__Output>): grpc.ClientUnaryCall;
  GetDocument(argument: _engram_ingestion_v1_GetDocumentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetDocumentResponse__Output>): grpc.ClientUnaryCall;
  GetDocument(argument: _engram_ingestion_v1_GetDocumentRequest, callback: grpc.requestCallback<_engram_ingestion_v1_GetDocumentResponse__Output>): grpc.ClientUnaryCall;
  /**
   * A document's record. Its content comes along only while the whole answer
   * fits in one gRPC message (a document whose content does not is refused
   * with FAILED_PRECONDITION, naming ReadDocument); omit_content leaves it out.
   */
  getDocument(argument: _engram_ingestion_v1_GetDocumentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetDocumentResponse__Output>): grpc.ClientUnaryCall;
  getDocument(argument: _engram_ingestion_v1_GetDocumentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_GetDocumentResponse__Output>): grpc.ClientUnaryCall;
  getDocument(argument: _engram_ingestion_v1_GetDocumentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetDocumentResponse__Output>): grpc.ClientUnaryCall;
  getDocument(argument: _engram_ingestion_v1_GetDocumentRequest, callback: grpc.requestCallback<_engram_ingestion_v1_GetDocumentResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Internal (pipeline-worker): the source of one generation of a document.
   */
  GetDocumentSource(argument: _engram_ingestion_v1_GetDocumentSourceRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_GetDocumentSourceResponse__Output>;
  GetDocumentSource(argument: _engram_ingestion_v1_GetDocumentSourceRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_GetDocumentSourceResponse__Output>;
  /**
   * Internal (pipeline-worker): the source of one generation of a document.
   */
  getDocumentSource(argument: _engram_ingestion_v1_GetDocumentSourceRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_GetDocumentSourceResponse__Output>;
  getDocumentSource(argument: _engram_ingestion_v1_GetDocumentSourceRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_GetDocumentSourceResponse__Output>;
  
  /**
   * POST /v3/import: one document with its original file. First message:
   * header; then the bytes in order.
   */
  ImportDocumentFile(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_ImportDocumentFileRequest>;
  ImportDocumentFile(metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_ImportDocumentFileRequest>;
  ImportDocumentFile(options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_ImportDocumentFileRequest>;
  ImportDocumentFile(callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_ImportDocumentFileRequest>;
  /**
   * POST /v3/import: one document with its original file. First message:
   * header; then the bytes in order.
   */
  importDocumentFile(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_ImportDocumentFileRequest>;
  importDocumentFile(metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_ImportDocumentFileRequest>;
  importDocumentFile(options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_ImportDocumentFileRequest>;
  importDocumentFile(callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_ImportDocumentFileRequest>;
  
  /**
   * POST /v3/import: writes archive records (documents without an original file).
   */
  ImportDocuments(argument: _engram_ingestion_v1_ImportDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ImportDocuments(argument: _engram_ingestion_v1_ImportDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ImportDocuments(argument: _engram_ingestion_v1_ImportDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ImportDocuments(argument: _engram_ingestion_v1_ImportDocumentsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/import: writes archive records (documents without an original file).
   */
  importDocuments(argument: _engram_ingestion_v1_ImportDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  importDocuments(argument: _engram_ingestion_v1_ImportDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  importDocuments(argument: _engram_ingestion_v1_ImportDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  importDocuments(argument: _engram_ingestion_v1_ImportDocumentsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ImportDocumentsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /ns/{namespace}/list/documents, POST /v3/documents/list.
   */
  ListDocuments(argument: _engram_ingestion_v1_ListDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ListDocuments(argument: _engram_ingestion_v1_ListDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ListDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ListDocuments(argument: _engram_ingestion_v1_ListDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ListDocuments(argument: _engram_ingestion_v1_ListDocumentsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ListDocumentsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /ns/{namespace}/list/documents, POST /v3/documents/list.
   */
  listDocuments(argument: _engram_ingestion_v1_ListDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListDocumentsResponse__Output>): grpc.ClientUnaryCall;
  listDocuments(argument: _engram_ingestion_v1_ListDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ListDocumentsResponse__Output>): grpc.ClientUnaryCall;
  listDocuments(argument: _engram_ingestion_v1_ListDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListDocumentsResponse__Output>): grpc.ClientUnaryCall;
  listDocuments(argument: _engram_ingestion_v1_ListDocumentsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ListDocumentsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/documents/processing.
   */
  ListProcessingDocuments(argument: _engram_ingestion_v1_ListProcessingDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListProcessingDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ListProcessingDocuments(argument: _engram_ingestion_v1_ListProcessingDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ListProcessingDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ListProcessingDocuments(argument: _engram_ingestion_v1_ListProcessingDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListProcessingDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ListProcessingDocuments(argument: _engram_ingestion_v1_ListProcessingDocumentsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ListProcessingDocumentsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/documents/processing.
   */
  listProcessingDocuments(argument: _engram_ingestion_v1_ListProcessingDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListProcessingDocumentsResponse__Output>): grpc.ClientUnaryCall;
  listProcessingDocuments(argument: _engram_ingestion_v1_ListProcessingDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ListProcessingDocumentsResponse__Output>): grpc.ClientUnaryCall;
  listProcessingDocuments(argument: _engram_ingestion_v1_ListProcessingDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListProcessingDocumentsResponse__Output>): grpc.ClientUnaryCall;
  listProcessingDocuments(argument: _engram_ingestion_v1_ListProcessingDocumentsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ListProcessingDocumentsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/import: which archive ids are free here; taken ones get new ids,
   * documents whose caller id is already in the target namespace are kept.
   */
  PlanDocumentImport(argument: _engram_ingestion_v1_PlanDocumentImportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_PlanDocumentImportResponse__Output>): grpc.ClientUnaryCall;
  PlanDocumentImport(argument: _engram_ingestion_v1_PlanDocumentImportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_PlanDocumentImportResponse__Output>): grpc.ClientUnaryCall;
  PlanDocumentImport(argument: _engram_ingestion_v1_PlanDocumentImportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_PlanDocumentImportResponse__Output>): grpc.ClientUnaryCall;
  PlanDocumentImport(argument: _engram_ingestion_v1_PlanDocumentImportRequest, callback: grpc.requestCallback<_engram_ingestion_v1_PlanDocumentImportResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/import: which archive ids are free here; taken ones get new ids,
   * documents whose caller id is already in the target namespace are kept.
   */
  planDocumentImport(argument: _engram_ingestion_v1_PlanDocumentImportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_PlanDocumentImportResponse__Output>): grpc.ClientUnaryCall;
  planDocumentImport(argument: _engram_ingestion_v1_PlanDocumentImportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_PlanDocumentImportResponse__Output>): grpc.ClientUnaryCall;
  planDocumentImport(argument: _engram_ingestion_v1_PlanDocumentImportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_PlanDocumentImportResponse__Output>): grpc.ClientUnaryCall;
  planDocumentImport(argument: _engram_ingestion_v1_PlanDocumentImportRequest, callback: grpc.requestCallback<_engram_ingestion_v1_PlanDocumentImportResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /ns/{namespace}/document/{id}, GET /v3/documents/{id}: the record
   * first (content empty), then the content as UTF-8 in order, in parts of at
   * most 1 MiB, so a document of any stored size is read whole.
   */
  ReadDocument(argument: _engram_ingestion_v1_GetDocumentRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_ReadDocumentResponse__Output>;
  ReadDocument(argument: _engram_ingestion_v1_GetDocumentRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_ReadDocumentResponse__Output>;
  /**
   * GET /ns/{namespace}/document/{id}, GET /v3/documents/{id}: the record
   * first (content empty), then the content as UTF-8 in order, in parts of at
   * most 1 MiB, so a document of any stored size is read whole.
   */
  readDocument(argument: _engram_ingestion_v1_GetDocumentRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_ReadDocumentResponse__Output>;
  readDocument(argument: _engram_ingestion_v1_GetDocumentRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_ReadDocumentResponse__Output>;
  
  /**
   * The stored original behind a file URL (token checked by ingestion).
   */
  ReadDocumentFile(argument: _engram_ingestion_v1_ReadDocumentFileRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_ReadDocumentFileResponse__Output>;
  ReadDocumentFile(argument: _engram_ingestion_v1_ReadDocumentFileRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_ReadDocumentFileResponse__Output>;
  /**
   * The stored original behind a file URL (token checked by ingestion).
   */
  readDocumentFile(argument: _engram_ingestion_v1_ReadDocumentFileRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_ReadDocumentFileResponse__Output>;
  readDocumentFile(argument: _engram_ingestion_v1_ReadDocumentFileRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_ingestion_v1_ReadDocumentFileResponse__Output>;
  
  /**
   * PATCH /v3/documents/{id}.
   */
  UpdateDocument(argument: _engram_ingestion_v1_UpdateDocumentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  UpdateDocument(argument: _engram_ingestion_v1_UpdateDocumentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  UpdateDocument(argument: _engram_ingestion_v1_UpdateDocumentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  UpdateDocument(argument: _engram_ingestion_v1_UpdateDocumentRequest, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  /**
   * PATCH /v3/documents/{id}.
   */
  updateDocument(argument: _engram_ingestion_v1_UpdateDocumentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  updateDocument(argument: _engram_ingestion_v1_UpdateDocumentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  updateDocument(argument: _engram_ingestion_v1_UpdateDocumentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  updateDocument(argument: _engram_ingestion_v1_UpdateDocumentRequest, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /ns/{namespace}/document/file, POST /v3/documents/file.
   * First message: header; then the bytes in order.
   */
  UploadDocumentFile(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_UploadDocumentFileRequest>;
  UploadDocumentFile(metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_UploadDocumentFileRequest>;
  UploadDocumentFile(options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_UploadDocumentFileRequest>;
  UploadDocumentFile(callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_UploadDocumentFileRequest>;
  /**
   * POST /ns/{namespace}/document/file, POST /v3/documents/file.
   * First message: header; then the bytes in order.
   */
  uploadDocumentFile(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_UploadDocumentFileRequest>;
  uploadDocumentFile(metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_UploadDocumentFileRequest>;
  uploadDocumentFile(options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_UploadDocumentFileRequest>;
  uploadDocumentFile(callback: grpc.requestCallback<_engram_ingestion_v1_AddDocumentResponse__Output>): grpc.ClientWritableStream<_engram_ingestion_v1_UploadDocumentFileRequest>;
  
}

/**
 * Owns documents: identity, namespace, caller id, metadata, group, date,
 * source, raw bytes, processing status and timestamps. Serves both API
 * generations: v5 (/ns/{namespace}/...) and legacy v3 (/v3/documents...).
 */
export interface IngestionServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * POST /ns/{namespace}/document, POST /v3/documents.
   */
  AddDocument: grpc.handleUnaryCall<_engram_ingestion_v1_AddDocumentRequest__Output, _engram_ingestion_v1_AddDocumentResponse>;
  
  /**
   * POST /ns/{namespace}/document/batch, POST /v3/documents/batch.
   */
  AddDocumentBatch: grpc.handleUnaryCall<_engram_ingestion_v1_AddDocumentBatchRequest__Output, _engram_ingestion_v1_AddDocumentBatchResponse>;
  
  /**
   * GET /v3/documents/{id}/file-url: an expiring link the gateway serves.
   */
  CreateFileUrl: grpc.handleUnaryCall<_engram_ingestion_v1_CreateFileUrlRequest__Output, _engram_ingestion_v1_CreateFileUrlResponse>;
  
  /**
   * DELETE /ns/{namespace}/document, DELETE /v3/documents/{id}, DELETE /v3/documents/bulk.
   */
  DeleteDocuments: grpc.handleUnaryCall<_engram_ingestion_v1_DeleteDocumentsRequest__Output, _engram_ingestion_v1_DeleteDocumentsResponse>;
  
  /**
   * GET /v3/export: one page of the tenant's documents as archive records
   * (docs/export-format.md), oldest first, at most max_bytes of records.
   */
  ExportDocuments: grpc.handleUnaryCall<_engram_ingestion_v1_ExportDocumentsRequest__Output, _engram_ingestion_v1_ExportDocumentsResponse>;
  
  /**
   * A document's record. Its content comes along only while the whole answer
   * fits in one gRPC message (a document whose content does not is refused
   * with FAILED_PRECONDITION, naming ReadDocument); omit_content leaves it out.
   */
  GetDocument: grpc.handleUnaryCall<_engram_ingestion_v1_GetDocumentRequest__Output, _engram_ingestion_v1_GetDocumentResponse>;
  
  /**
   * Internal (pipeline-worker): the source of one generation of a document.
   */
  GetDocumentSource: grpc.handleServerStreamingCall<_engram_ingestion_v1_GetDocumentSourceRequest__Output, _engram_ingestion_v1_GetDocumentSourceResponse>;
  
  /**
   * POST /v3/import: one document with its original file. First message:
   * header; then the bytes in order.
   */
  ImportDocumentFile: grpc.handleClientStreamingCall<_engram_ingestion_v1_ImportDocumentFileRequest__Output, _engram_ingestion_v1_ImportDocumentsResponse>;
  
  /**
   * POST /v3/import: writes archive records (documents without an original file).
   */
  ImportDocuments: grpc.handleUnaryCall<_engram_ingestion_v1_ImportDocumentsRequest__Output, _engram_ingestion_v1_ImportDocumentsResponse>;
  
  /**
   * POST /ns/{namespace}/list/documents, POST /v3/documents/list.
   */
  ListDocuments: grpc.handleUnaryCall<_engram_ingestion_v1_ListDocumentsRequest__Output, _engram_ingestion_v1_ListDocumentsResponse>;
  
  /**
   * GET /v3/documents/processing.
   */
  ListProcessingDocuments: grpc.handleUnaryCall<_engram_ingestion_v1_ListProcessingDocumentsRequest__Output, _engram_ingestion_v1_ListProcessingDocumentsResponse>;
  
  /**
   * POST /v3/import: which archive ids are free here; taken ones get new ids,
   * documents whose caller id is already in the target namespace are kept.
   */
  PlanDocumentImport: grpc.handleUnaryCall<_engram_ingestion_v1_PlanDocumentImportRequest__Output, _engram_ingestion_v1_PlanDocumentImportResponse>;
  
  /**
   * GET /ns/{namespace}/document/{id}, GET /v3/documents/{id}: the record
   * first (content empty), then the content as UTF-8 in order, in parts of at
   * most 1 MiB, so a document of any stored size is read whole.
   */
  ReadDocument: grpc.handleServerStreamingCall<_engram_ingestion_v1_GetDocumentRequest__Output, _engram_ingestion_v1_ReadDocumentResponse>;
  
  /**
   * The stored original behind a file URL (token checked by ingestion).
   */
  ReadDocumentFile: grpc.handleServerStreamingCall<_engram_ingestion_v1_ReadDocumentFileRequest__Output, _engram_ingestion_v1_ReadDocumentFileResponse>;
  
  /**
   * PATCH /v3/documents/{id}.
   */
  UpdateDocument: grpc.handleUnaryCall<_engram_ingestion_v1_UpdateDocumentRequest__Output, _engram_ingestion_v1_AddDocumentResponse>;
  
  /**
   * POST /ns/{namespace}/document/file, POST /v3/documents/file.
   * First message: header; then the bytes in order.
   */
  UploadDocumentFile: grpc.handleClientStreamingCall<_engram_ingestion_v1_UploadDocumentFileRequest__Output, _engram_ingestion_v1_AddDocumentResponse>;
  
}

export interface IngestionServiceDefinition extends grpc.ServiceDefinition {
  AddDocument: MethodDefinition<_engram_ingestion_v1_AddDocumentRequest, _engram_ingestion_v1_AddDocumentResponse, _engram_ingestion_v1_AddDocumentRequest__Output, _engram_ingestion_v1_AddDocumentResponse__Output>
  AddDocumentBatch: MethodDefinition<_engram_ingestion_v1_AddDocumentBatchRequest, _engram_ingestion_v1_AddDocumentBatchResponse, _engram_ingestion_v1_AddDocumentBatchRequest__Output, _engram_ingestion_v1_AddDocumentBatchResponse__Output>
  CreateFileUrl: MethodDefinition<_engram_ingestion_v1_CreateFileUrlRequest, _engram_ingestion_v1_CreateFileUrlResponse, _engram_ingestion_v1_CreateFileUrlRequest__Output, _engram_ingestion_v1_CreateFileUrlResponse__Output>
  DeleteDocuments: MethodDefinition<_engram_ingestion_v1_DeleteDocumentsRequest, _engram_ingestion_v1_DeleteDocumentsResponse, _engram_ingestion_v1_DeleteDocumentsRequest__Output, _engram_ingestion_v1_DeleteDocumentsResponse__Output>
  ExportDocuments: MethodDefinition<_engram_ingestion_v1_ExportDocumentsRequest, _engram_ingestion_v1_ExportDocumentsResponse, _engram_ingestion_v1_ExportDocumentsRequest__Output, _engram_ingestion_v1_ExportDocumentsResponse__Output>
  GetDocument: MethodDefinition<_engram_ingestion_v1_GetDocumentRequest, _engram_ingestion_v1_GetDocumentResponse, _engram_ingestion_v1_GetDocumentRequest__Output, _engram_ingestion_v1_GetDocumentResponse__Output>
  GetDocumentSource: MethodDefinition<_engram_ingestion_v1_GetDocumentSourceRequest, _engram_ingestion_v1_GetDocumentSourceResponse, _engram_ingestion_v1_GetDocumentSourceRequest__Output, _engram_ingestion_v1_GetDocumentSourceResponse__Output>
  ImportDocumentFile: MethodDefinition<_engram_ingestion_v1_ImportDocumentFileRequest, _engram_ingestion_v1_ImportDocumentsResponse, _engram_ingestion_v1_ImportDocumentFileRequest__Output, _engram_ingestion_v1_ImportDocumentsResponse__Output>
  ImportDocuments: MethodDefinition<_engram_ingestion_v1_ImportDocumentsRequest, _engram_ingestion_v1_ImportDocumentsResponse, _engram_ingestion_v1_ImportDocumentsRequest__Output, _engram_ingestion_v1_ImportDocumentsResponse__Output>
  ListDocuments: MethodDefinition<_engram_ingestion_v1_ListDocumentsRequest, _engram_ingestion_v1_ListDocumentsResponse, _engram_ingestion_v1_ListDocumentsRequest__Output, _engram_ingestion_v1_ListDocumentsResponse__Output>
  ListProcessingDocuments: MethodDefinition<_engram_ingestion_v1_ListProcessingDocumentsRequest, _engram_ingestion_v1_ListProcessingDocumentsResponse, _engram_ingestion_v1_ListProcessingDocumentsRequest__Output, _engram_ingestion_v1_ListProcessingDocumentsResponse__Output>
  PlanDocumentImport: MethodDefinition<_engram_ingestion_v1_PlanDocumentImportRequest, _engram_ingestion_v1_PlanDocumentImportResponse, _engram_ingestion_v1_PlanDocumentImportRequest__Output, _engram_ingestion_v1_PlanDocumentImportResponse__Output>
  ReadDocument: MethodDefinition<_engram_ingestion_v1_GetDocumentRequest, _engram_ingestion_v1_ReadDocumentResponse, _engram_ingestion_v1_GetDocumentRequest__Output, _engram_ingestion_v1_ReadDocumentResponse__Output>
  ReadDocumentFile: MethodDefinition<_engram_ingestion_v1_ReadDocumentFileRequest, _engram_ingestion_v1_ReadDocumentFileResponse, _engram_ingestion_v1_ReadDocumentFileRequest__Output, _engram_ingestion_v1_ReadDocumentFileResponse__Output>
  UpdateDocument: MethodDefinition<_engram_ingestion_v1_UpdateDocumentRequest, _engram_ingestion_v1_AddDocumentResponse, _engram_ingestion_v1_UpdateDocumentRequest__Output, _engram_ingestion_v1_AddDocumentResponse__Output>
  UploadDocumentFile: MethodDefinition<_engram_ingestion_v1_UploadDocumentFileRequest, _engram_ingestion_v1_AddDocumentResponse, _engram_ingestion_v1_UploadDocumentFileRequest__Output, _engram_ingestion_v1_AddDocumentResponse__Output>
}
