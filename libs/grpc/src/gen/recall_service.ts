import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from './engram/common/v1/CallContext';
import type { Chunk as _engram_common_v1_Chunk, Chunk__Output as _engram_common_v1_Chunk__Output } from './engram/common/v1/Chunk';
import type { Filter as _engram_common_v1_Filter, Filter__Output as _engram_common_v1_Filter__Output } from './engram/common/v1/Filter';
import type { PageRequest as _engram_common_v1_PageRequest, PageRequest__Output as _engram_common_v1_PageRequest__Output } from './engram/common/v1/PageRequest';
import type { Pagination as _engram_common_v1_Pagination, Pagination__Output as _engram_common_v1_Pagination__Output } from './engram/common/v1/Pagination';
import type { ProfileBucket as _engram_common_v1_ProfileBucket, ProfileBucket__Output as _engram_common_v1_ProfileBucket__Output } from './engram/common/v1/ProfileBucket';
import type { AddDocumentBatchRequest as _engram_ingestion_v1_AddDocumentBatchRequest, AddDocumentBatchRequest__Output as _engram_ingestion_v1_AddDocumentBatchRequest__Output } from './engram/ingestion/v1/AddDocumentBatchRequest';
import type { AddDocumentBatchResponse as _engram_ingestion_v1_AddDocumentBatchResponse, AddDocumentBatchResponse__Output as _engram_ingestion_v1_AddDocumentBatchResponse__Output } from './engram/ingestion/v1/AddDocumentBatchResponse';
import type { AddDocumentRequest as _engram_ingestion_v1_AddDocumentRequest, AddDocumentRequest__Output as _engram_ingestion_v1_AddDocumentRequest__Output } from './engram/ingestion/v1/AddDocumentRequest';
import type { AddDocumentResponse as _engram_ingestion_v1_AddDocumentResponse, AddDocumentResponse__Output as _engram_ingestion_v1_AddDocumentResponse__Output } from './engram/ingestion/v1/AddDocumentResponse';
import type { BatchItemResult as _engram_ingestion_v1_BatchItemResult, BatchItemResult__Output as _engram_ingestion_v1_BatchItemResult__Output } from './engram/ingestion/v1/BatchItemResult';
import type { CreateFileUrlRequest as _engram_ingestion_v1_CreateFileUrlRequest, CreateFileUrlRequest__Output as _engram_ingestion_v1_CreateFileUrlRequest__Output } from './engram/ingestion/v1/CreateFileUrlRequest';
import type { CreateFileUrlResponse as _engram_ingestion_v1_CreateFileUrlResponse, CreateFileUrlResponse__Output as _engram_ingestion_v1_CreateFileUrlResponse__Output } from './engram/ingestion/v1/CreateFileUrlResponse';
import type { DeleteDocumentsRequest as _engram_ingestion_v1_DeleteDocumentsRequest, DeleteDocumentsRequest__Output as _engram_ingestion_v1_DeleteDocumentsRequest__Output } from './engram/ingestion/v1/DeleteDocumentsRequest';
import type { DeleteDocumentsResponse as _engram_ingestion_v1_DeleteDocumentsResponse, DeleteDocumentsResponse__Output as _engram_ingestion_v1_DeleteDocumentsResponse__Output } from './engram/ingestion/v1/DeleteDocumentsResponse';
import type { DeleteError as _engram_ingestion_v1_DeleteError, DeleteError__Output as _engram_ingestion_v1_DeleteError__Output } from './engram/ingestion/v1/DeleteError';
import type { Document as _engram_ingestion_v1_Document, Document__Output as _engram_ingestion_v1_Document__Output } from './engram/ingestion/v1/Document';
import type { DocumentInput as _engram_ingestion_v1_DocumentInput, DocumentInput__Output as _engram_ingestion_v1_DocumentInput__Output } from './engram/ingestion/v1/DocumentInput';
import type { DocumentSourceInfo as _engram_ingestion_v1_DocumentSourceInfo, DocumentSourceInfo__Output as _engram_ingestion_v1_DocumentSourceInfo__Output } from './engram/ingestion/v1/DocumentSourceInfo';
import type { ExportDocumentsRequest as _engram_ingestion_v1_ExportDocumentsRequest, ExportDocumentsRequest__Output as _engram_ingestion_v1_ExportDocumentsRequest__Output } from './engram/ingestion/v1/ExportDocumentsRequest';
import type { ExportDocumentsResponse as _engram_ingestion_v1_ExportDocumentsResponse, ExportDocumentsResponse__Output as _engram_ingestion_v1_ExportDocumentsResponse__Output } from './engram/ingestion/v1/ExportDocumentsResponse';
import type { FileInfo as _engram_ingestion_v1_FileInfo, FileInfo__Output as _engram_ingestion_v1_FileInfo__Output } from './engram/ingestion/v1/FileInfo';
import type { GetDocumentRequest as _engram_ingestion_v1_GetDocumentRequest, GetDocumentRequest__Output as _engram_ingestion_v1_GetDocumentRequest__Output } from './engram/ingestion/v1/GetDocumentRequest';
import type { GetDocumentResponse as _engram_ingestion_v1_GetDocumentResponse, GetDocumentResponse__Output as _engram_ingestion_v1_GetDocumentResponse__Output } from './engram/ingestion/v1/GetDocumentResponse';
import type { GetDocumentSourceRequest as _engram_ingestion_v1_GetDocumentSourceRequest, GetDocumentSourceRequest__Output as _engram_ingestion_v1_GetDocumentSourceRequest__Output } from './engram/ingestion/v1/GetDocumentSourceRequest';
import type { GetDocumentSourceResponse as _engram_ingestion_v1_GetDocumentSourceResponse, GetDocumentSourceResponse__Output as _engram_ingestion_v1_GetDocumentSourceResponse__Output } from './engram/ingestion/v1/GetDocumentSourceResponse';
import type { ImportDocumentFileHeader as _engram_ingestion_v1_ImportDocumentFileHeader, ImportDocumentFileHeader__Output as _engram_ingestion_v1_ImportDocumentFileHeader__Output } from './engram/ingestion/v1/ImportDocumentFileHeader';
import type { ImportDocumentFileRequest as _engram_ingestion_v1_ImportDocumentFileRequest, ImportDocumentFileRequest__Output as _engram_ingestion_v1_ImportDocumentFileRequest__Output } from './engram/ingestion/v1/ImportDocumentFileRequest';
import type { ImportDocumentsRequest as _engram_ingestion_v1_ImportDocumentsRequest, ImportDocumentsRequest__Output as _engram_ingestion_v1_ImportDocumentsRequest__Output } from './engram/ingestion/v1/ImportDocumentsRequest';
import type { ImportDocumentsResponse as _engram_ingestion_v1_ImportDocumentsResponse, ImportDocumentsResponse__Output as _engram_ingestion_v1_ImportDocumentsResponse__Output } from './engram/ingestion/v1/ImportDocumentsResponse';
import type { ImportedDocument as _engram_ingestion_v1_ImportedDocument, ImportedDocument__Output as _engram_ingestion_v1_ImportedDocument__Output } from './engram/ingestion/v1/ImportedDocument';
import type { IngestionServiceClient as _engram_ingestion_v1_IngestionServiceClient, IngestionServiceDefinition as _engram_ingestion_v1_IngestionServiceDefinition } from './engram/ingestion/v1/IngestionService';
import type { ListDocumentsRequest as _engram_ingestion_v1_ListDocumentsRequest, ListDocumentsRequest__Output as _engram_ingestion_v1_ListDocumentsRequest__Output } from './engram/ingestion/v1/ListDocumentsRequest';
import type { ListDocumentsResponse as _engram_ingestion_v1_ListDocumentsResponse, ListDocumentsResponse__Output as _engram_ingestion_v1_ListDocumentsResponse__Output } from './engram/ingestion/v1/ListDocumentsResponse';
import type { ListProcessingDocumentsRequest as _engram_ingestion_v1_ListProcessingDocumentsRequest, ListProcessingDocumentsRequest__Output as _engram_ingestion_v1_ListProcessingDocumentsRequest__Output } from './engram/ingestion/v1/ListProcessingDocumentsRequest';
import type { ListProcessingDocumentsResponse as _engram_ingestion_v1_ListProcessingDocumentsResponse, ListProcessingDocumentsResponse__Output as _engram_ingestion_v1_ListProcessingDocumentsResponse__Output } from './engram/ingestion/v1/ListProcessingDocumentsResponse';
import type { PlanDocumentImportRequest as _engram_ingestion_v1_PlanDocumentImportRequest, PlanDocumentImportRequest__Output as _engram_ingestion_v1_PlanDocumentImportRequest__Output } from './engram/ingestion/v1/PlanDocumentImportRequest';
import type { PlanDocumentImportResponse as _engram_ingestion_v1_PlanDocumentImportResponse, PlanDocumentImportResponse__Output as _engram_ingestion_v1_PlanDocumentImportResponse__Output } from './engram/ingestion/v1/PlanDocumentImportResponse';
import type { PlannedDocument as _engram_ingestion_v1_PlannedDocument, PlannedDocument__Output as _engram_ingestion_v1_PlannedDocument__Output } from './engram/ingestion/v1/PlannedDocument';
import type { ReadDocumentFileRequest as _engram_ingestion_v1_ReadDocumentFileRequest, ReadDocumentFileRequest__Output as _engram_ingestion_v1_ReadDocumentFileRequest__Output } from './engram/ingestion/v1/ReadDocumentFileRequest';
import type { ReadDocumentFileResponse as _engram_ingestion_v1_ReadDocumentFileResponse, ReadDocumentFileResponse__Output as _engram_ingestion_v1_ReadDocumentFileResponse__Output } from './engram/ingestion/v1/ReadDocumentFileResponse';
import type { ReadDocumentResponse as _engram_ingestion_v1_ReadDocumentResponse, ReadDocumentResponse__Output as _engram_ingestion_v1_ReadDocumentResponse__Output } from './engram/ingestion/v1/ReadDocumentResponse';
import type { UpdateDocumentRequest as _engram_ingestion_v1_UpdateDocumentRequest, UpdateDocumentRequest__Output as _engram_ingestion_v1_UpdateDocumentRequest__Output } from './engram/ingestion/v1/UpdateDocumentRequest';
import type { UploadDocumentFileHeader as _engram_ingestion_v1_UploadDocumentFileHeader, UploadDocumentFileHeader__Output as _engram_ingestion_v1_UploadDocumentFileHeader__Output } from './engram/ingestion/v1/UploadDocumentFileHeader';
import type { UploadDocumentFileRequest as _engram_ingestion_v1_UploadDocumentFileRequest, UploadDocumentFileRequest__Output as _engram_ingestion_v1_UploadDocumentFileRequest__Output } from './engram/ingestion/v1/UploadDocumentFileRequest';
import type { BatchGetMemoriesRequest as _engram_memories_v1_BatchGetMemoriesRequest, BatchGetMemoriesRequest__Output as _engram_memories_v1_BatchGetMemoriesRequest__Output } from './engram/memories/v1/BatchGetMemoriesRequest';
import type { BatchGetMemoriesResponse as _engram_memories_v1_BatchGetMemoriesResponse, BatchGetMemoriesResponse__Output as _engram_memories_v1_BatchGetMemoriesResponse__Output } from './engram/memories/v1/BatchGetMemoriesResponse';
import type { CountNamespaceMemoriesRequest as _engram_memories_v1_CountNamespaceMemoriesRequest, CountNamespaceMemoriesRequest__Output as _engram_memories_v1_CountNamespaceMemoriesRequest__Output } from './engram/memories/v1/CountNamespaceMemoriesRequest';
import type { CountNamespaceMemoriesResponse as _engram_memories_v1_CountNamespaceMemoriesResponse, CountNamespaceMemoriesResponse__Output as _engram_memories_v1_CountNamespaceMemoriesResponse__Output } from './engram/memories/v1/CountNamespaceMemoriesResponse';
import type { CreateMemoriesRequest as _engram_memories_v1_CreateMemoriesRequest, CreateMemoriesRequest__Output as _engram_memories_v1_CreateMemoriesRequest__Output } from './engram/memories/v1/CreateMemoriesRequest';
import type { CreateMemoriesResponse as _engram_memories_v1_CreateMemoriesResponse, CreateMemoriesResponse__Output as _engram_memories_v1_CreateMemoriesResponse__Output } from './engram/memories/v1/CreateMemoriesResponse';
import type { ExportMemoriesRequest as _engram_memories_v1_ExportMemoriesRequest, ExportMemoriesRequest__Output as _engram_memories_v1_ExportMemoriesRequest__Output } from './engram/memories/v1/ExportMemoriesRequest';
import type { ExportMemoriesResponse as _engram_memories_v1_ExportMemoriesResponse, ExportMemoriesResponse__Output as _engram_memories_v1_ExportMemoriesResponse__Output } from './engram/memories/v1/ExportMemoriesResponse';
import type { ForgetCandidate as _engram_memories_v1_ForgetCandidate, ForgetCandidate__Output as _engram_memories_v1_ForgetCandidate__Output } from './engram/memories/v1/ForgetCandidate';
import type { ForgetError as _engram_memories_v1_ForgetError, ForgetError__Output as _engram_memories_v1_ForgetError__Output } from './engram/memories/v1/ForgetError';
import type { ForgetMatchingMemoriesRequest as _engram_memories_v1_ForgetMatchingMemoriesRequest, ForgetMatchingMemoriesRequest__Output as _engram_memories_v1_ForgetMatchingMemoriesRequest__Output } from './engram/memories/v1/ForgetMatchingMemoriesRequest';
import type { ForgetMatchingMemoriesResponse as _engram_memories_v1_ForgetMatchingMemoriesResponse, ForgetMatchingMemoriesResponse__Output as _engram_memories_v1_ForgetMatchingMemoriesResponse__Output } from './engram/memories/v1/ForgetMatchingMemoriesResponse';
import type { ForgetMemoriesByIdsRequest as _engram_memories_v1_ForgetMemoriesByIdsRequest, ForgetMemoriesByIdsRequest__Output as _engram_memories_v1_ForgetMemoriesByIdsRequest__Output } from './engram/memories/v1/ForgetMemoriesByIdsRequest';
import type { ForgetMemoriesByIdsResponse as _engram_memories_v1_ForgetMemoriesByIdsResponse, ForgetMemoriesByIdsResponse__Output as _engram_memories_v1_ForgetMemoriesByIdsResponse__Output } from './engram/memories/v1/ForgetMemoriesByIdsResponse';
import type { ForgetMemoriesByQueryRequest as _engram_memories_v1_ForgetMemoriesByQueryRequest, ForgetMemoriesByQueryRequest__Output as _engram_memories_v1_ForgetMemoriesByQueryRequest__Output } from './engram/memories/v1/ForgetMemoriesByQueryRequest';
import type { ForgetMemoriesByQueryResponse as _engram_memories_v1_ForgetMemoriesByQueryResponse, ForgetMemoriesByQueryResponse__Output as _engram_memories_v1_ForgetMemoriesByQueryResponse__Output } from './engram/memories/v1/ForgetMemoriesByQueryResponse';
import type { ForgetMemoryRequest as _engram_memories_v1_ForgetMemoryRequest, ForgetMemoryRequest__Output as _engram_memories_v1_ForgetMemoryRequest__Output } from './engram/memories/v1/ForgetMemoryRequest';
import type { ForgetMemoryResponse as _engram_memories_v1_ForgetMemoryResponse, ForgetMemoryResponse__Output as _engram_memories_v1_ForgetMemoryResponse__Output } from './engram/memories/v1/ForgetMemoryResponse';
import type { ForgetNamespaceMemoriesRequest as _engram_memories_v1_ForgetNamespaceMemoriesRequest, ForgetNamespaceMemoriesRequest__Output as _engram_memories_v1_ForgetNamespaceMemoriesRequest__Output } from './engram/memories/v1/ForgetNamespaceMemoriesRequest';
import type { ForgetNamespaceMemoriesResponse as _engram_memories_v1_ForgetNamespaceMemoriesResponse, ForgetNamespaceMemoriesResponse__Output as _engram_memories_v1_ForgetNamespaceMemoriesResponse__Output } from './engram/memories/v1/ForgetNamespaceMemoriesResponse';
import type { FormedDocument as _engram_memories_v1_FormedDocument, FormedDocument__Output as _engram_memories_v1_FormedDocument__Output } from './engram/memories/v1/FormedDocument';
import type { ImportMemoriesRequest as _engram_memories_v1_ImportMemoriesRequest, ImportMemoriesRequest__Output as _engram_memories_v1_ImportMemoriesRequest__Output } from './engram/memories/v1/ImportMemoriesRequest';
import type { ImportMemoriesResponse as _engram_memories_v1_ImportMemoriesResponse, ImportMemoriesResponse__Output as _engram_memories_v1_ImportMemoriesResponse__Output } from './engram/memories/v1/ImportMemoriesResponse';
import type { ListDocumentMemoriesRequest as _engram_memories_v1_ListDocumentMemoriesRequest, ListDocumentMemoriesRequest__Output as _engram_memories_v1_ListDocumentMemoriesRequest__Output } from './engram/memories/v1/ListDocumentMemoriesRequest';
import type { ListDocumentMemoriesResponse as _engram_memories_v1_ListDocumentMemoriesResponse, ListDocumentMemoriesResponse__Output as _engram_memories_v1_ListDocumentMemoriesResponse__Output } from './engram/memories/v1/ListDocumentMemoriesResponse';
import type { ListMemoriesRequest as _engram_memories_v1_ListMemoriesRequest, ListMemoriesRequest__Output as _engram_memories_v1_ListMemoriesRequest__Output } from './engram/memories/v1/ListMemoriesRequest';
import type { ListMemoriesResponse as _engram_memories_v1_ListMemoriesResponse, ListMemoriesResponse__Output as _engram_memories_v1_ListMemoriesResponse__Output } from './engram/memories/v1/ListMemoriesResponse';
import type { MemoriesServiceClient as _engram_memories_v1_MemoriesServiceClient, MemoriesServiceDefinition as _engram_memories_v1_MemoriesServiceDefinition } from './engram/memories/v1/MemoriesService';
import type { Memory as _engram_memories_v1_Memory, Memory__Output as _engram_memories_v1_Memory__Output } from './engram/memories/v1/Memory';
import type { MemoryEntry as _engram_memories_v1_MemoryEntry, MemoryEntry__Output as _engram_memories_v1_MemoryEntry__Output } from './engram/memories/v1/MemoryEntry';
import type { MemoryInput as _engram_memories_v1_MemoryInput, MemoryInput__Output as _engram_memories_v1_MemoryInput__Output } from './engram/memories/v1/MemoryInput';
import type { MemorySource as _engram_memories_v1_MemorySource, MemorySource__Output as _engram_memories_v1_MemorySource__Output } from './engram/memories/v1/MemorySource';
import type { MoveNamespaceMemoriesRequest as _engram_memories_v1_MoveNamespaceMemoriesRequest, MoveNamespaceMemoriesRequest__Output as _engram_memories_v1_MoveNamespaceMemoriesRequest__Output } from './engram/memories/v1/MoveNamespaceMemoriesRequest';
import type { MoveNamespaceMemoriesResponse as _engram_memories_v1_MoveNamespaceMemoriesResponse, MoveNamespaceMemoriesResponse__Output as _engram_memories_v1_MoveNamespaceMemoriesResponse__Output } from './engram/memories/v1/MoveNamespaceMemoriesResponse';
import type { NamespaceMemoryCount as _engram_memories_v1_NamespaceMemoryCount, NamespaceMemoryCount__Output as _engram_memories_v1_NamespaceMemoryCount__Output } from './engram/memories/v1/NamespaceMemoryCount';
import type { PlanMemoryImportRequest as _engram_memories_v1_PlanMemoryImportRequest, PlanMemoryImportRequest__Output as _engram_memories_v1_PlanMemoryImportRequest__Output } from './engram/memories/v1/PlanMemoryImportRequest';
import type { PlanMemoryImportResponse as _engram_memories_v1_PlanMemoryImportResponse, PlanMemoryImportResponse__Output as _engram_memories_v1_PlanMemoryImportResponse__Output } from './engram/memories/v1/PlanMemoryImportResponse';
import type { PurgeTenantMemoriesRequest as _engram_memories_v1_PurgeTenantMemoriesRequest, PurgeTenantMemoriesRequest__Output as _engram_memories_v1_PurgeTenantMemoriesRequest__Output } from './engram/memories/v1/PurgeTenantMemoriesRequest';
import type { PurgeTenantMemoriesResponse as _engram_memories_v1_PurgeTenantMemoriesResponse, PurgeTenantMemoriesResponse__Output as _engram_memories_v1_PurgeTenantMemoriesResponse__Output } from './engram/memories/v1/PurgeTenantMemoriesResponse';
import type { TemporalContext as _engram_memories_v1_TemporalContext, TemporalContext__Output as _engram_memories_v1_TemporalContext__Output } from './engram/memories/v1/TemporalContext';
import type { UpdateMemoryRequest as _engram_memories_v1_UpdateMemoryRequest, UpdateMemoryRequest__Output as _engram_memories_v1_UpdateMemoryRequest__Output } from './engram/memories/v1/UpdateMemoryRequest';
import type { UpdateMemoryResponse as _engram_memories_v1_UpdateMemoryResponse, UpdateMemoryResponse__Output as _engram_memories_v1_UpdateMemoryResponse__Output } from './engram/memories/v1/UpdateMemoryResponse';
import type { BucketMemories as _engram_recall_v1_BucketMemories, BucketMemories__Output as _engram_recall_v1_BucketMemories__Output } from './engram/recall/v1/BucketMemories';
import type { ChunkEntry as _engram_recall_v1_ChunkEntry, ChunkEntry__Output as _engram_recall_v1_ChunkEntry__Output } from './engram/recall/v1/ChunkEntry';
import type { GetProfileBucketsRequest as _engram_recall_v1_GetProfileBucketsRequest, GetProfileBucketsRequest__Output as _engram_recall_v1_GetProfileBucketsRequest__Output } from './engram/recall/v1/GetProfileBucketsRequest';
import type { GetProfileBucketsResponse as _engram_recall_v1_GetProfileBucketsResponse, GetProfileBucketsResponse__Output as _engram_recall_v1_GetProfileBucketsResponse__Output } from './engram/recall/v1/GetProfileBucketsResponse';
import type { GetProfileRequest as _engram_recall_v1_GetProfileRequest, GetProfileRequest__Output as _engram_recall_v1_GetProfileRequest__Output } from './engram/recall/v1/GetProfileRequest';
import type { GetProfileResponse as _engram_recall_v1_GetProfileResponse, GetProfileResponse__Output as _engram_recall_v1_GetProfileResponse__Output } from './engram/recall/v1/GetProfileResponse';
import type { ListChunksRequest as _engram_recall_v1_ListChunksRequest, ListChunksRequest__Output as _engram_recall_v1_ListChunksRequest__Output } from './engram/recall/v1/ListChunksRequest';
import type { ListChunksResponse as _engram_recall_v1_ListChunksResponse, ListChunksResponse__Output as _engram_recall_v1_ListChunksResponse__Output } from './engram/recall/v1/ListChunksResponse';
import type { MemoryContext as _engram_recall_v1_MemoryContext, MemoryContext__Output as _engram_recall_v1_MemoryContext__Output } from './engram/recall/v1/MemoryContext';
import type { MemoryContextEntry as _engram_recall_v1_MemoryContextEntry, MemoryContextEntry__Output as _engram_recall_v1_MemoryContextEntry__Output } from './engram/recall/v1/MemoryContextEntry';
import type { Profile as _engram_recall_v1_Profile, Profile__Output as _engram_recall_v1_Profile__Output } from './engram/recall/v1/Profile';
import type { ProfileSearchResults as _engram_recall_v1_ProfileSearchResults, ProfileSearchResults__Output as _engram_recall_v1_ProfileSearchResults__Output } from './engram/recall/v1/ProfileSearchResults';
import type { RecallServiceClient as _engram_recall_v1_RecallServiceClient, RecallServiceDefinition as _engram_recall_v1_RecallServiceDefinition } from './engram/recall/v1/RecallService';
import type { ScoredChunk as _engram_recall_v1_ScoredChunk, ScoredChunk__Output as _engram_recall_v1_ScoredChunk__Output } from './engram/recall/v1/ScoredChunk';
import type { SearchInclude as _engram_recall_v1_SearchInclude, SearchInclude__Output as _engram_recall_v1_SearchInclude__Output } from './engram/recall/v1/SearchInclude';
import type { SearchV3Request as _engram_recall_v1_SearchV3Request, SearchV3Request__Output as _engram_recall_v1_SearchV3Request__Output } from './engram/recall/v1/SearchV3Request';
import type { SearchV3Response as _engram_recall_v1_SearchV3Response, SearchV3Response__Output as _engram_recall_v1_SearchV3Response__Output } from './engram/recall/v1/SearchV3Response';
import type { SearchV3Result as _engram_recall_v1_SearchV3Result, SearchV3Result__Output as _engram_recall_v1_SearchV3Result__Output } from './engram/recall/v1/SearchV3Result';
import type { SearchV4Request as _engram_recall_v1_SearchV4Request, SearchV4Request__Output as _engram_recall_v1_SearchV4Request__Output } from './engram/recall/v1/SearchV4Request';
import type { SearchV4Response as _engram_recall_v1_SearchV4Response, SearchV4Response__Output as _engram_recall_v1_SearchV4Response__Output } from './engram/recall/v1/SearchV4Response';
import type { SearchV4Result as _engram_recall_v1_SearchV4Result, SearchV4Result__Output as _engram_recall_v1_SearchV4Result__Output } from './engram/recall/v1/SearchV4Result';
import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  engram: {
    common: {
      v1: {
        CallContext: MessageTypeDefinition<_engram_common_v1_CallContext, _engram_common_v1_CallContext__Output>
        Chunk: MessageTypeDefinition<_engram_common_v1_Chunk, _engram_common_v1_Chunk__Output>
        DocumentStatus: EnumTypeDefinition
        Dreaming: EnumTypeDefinition
        Filter: MessageTypeDefinition<_engram_common_v1_Filter, _engram_common_v1_Filter__Output>
        PageRequest: MessageTypeDefinition<_engram_common_v1_PageRequest, _engram_common_v1_PageRequest__Output>
        Pagination: MessageTypeDefinition<_engram_common_v1_Pagination, _engram_common_v1_Pagination__Output>
        ProfileBucket: MessageTypeDefinition<_engram_common_v1_ProfileBucket, _engram_common_v1_ProfileBucket__Output>
        SortOrder: EnumTypeDefinition
        TaskType: EnumTypeDefinition
      }
    }
    ingestion: {
      v1: {
        AddDocumentBatchRequest: MessageTypeDefinition<_engram_ingestion_v1_AddDocumentBatchRequest, _engram_ingestion_v1_AddDocumentBatchRequest__Output>
        AddDocumentBatchResponse: MessageTypeDefinition<_engram_ingestion_v1_AddDocumentBatchResponse, _engram_ingestion_v1_AddDocumentBatchResponse__Output>
        AddDocumentRequest: MessageTypeDefinition<_engram_ingestion_v1_AddDocumentRequest, _engram_ingestion_v1_AddDocumentRequest__Output>
        AddDocumentResponse: MessageTypeDefinition<_engram_ingestion_v1_AddDocumentResponse, _engram_ingestion_v1_AddDocumentResponse__Output>
        BatchItemResult: MessageTypeDefinition<_engram_ingestion_v1_BatchItemResult, _engram_ingestion_v1_BatchItemResult__Output>
        CreateFileUrlRequest: MessageTypeDefinition<_engram_ingestion_v1_CreateFileUrlRequest, _engram_ingestion_v1_CreateFileUrlRequest__Output>
        CreateFileUrlResponse: MessageTypeDefinition<_engram_ingestion_v1_CreateFileUrlResponse, _engram_ingestion_v1_CreateFileUrlResponse__Output>
        DeleteDocumentsRequest: MessageTypeDefinition<_engram_ingestion_v1_DeleteDocumentsRequest, _engram_ingestion_v1_DeleteDocumentsRequest__Output>
        DeleteDocumentsResponse: MessageTypeDefinition<_engram_ingestion_v1_DeleteDocumentsResponse, _engram_ingestion_v1_DeleteDocumentsResponse__Output>
        DeleteError: MessageTypeDefinition<_engram_ingestion_v1_DeleteError, _engram_ingestion_v1_DeleteError__Output>
        Document: MessageTypeDefinition<_engram_ingestion_v1_Document, _engram_ingestion_v1_Document__Output>
        DocumentInput: MessageTypeDefinition<_engram_ingestion_v1_DocumentInput, _engram_ingestion_v1_DocumentInput__Output>
        DocumentSourceInfo: MessageTypeDefinition<_engram_ingestion_v1_DocumentSourceInfo, _engram_ingestion_v1_DocumentSourceInfo__Output>
        ExportDocumentsRequest: MessageTypeDefinition<_engram_ingestion_v1_ExportDocumentsRequest, _engram_ingestion_v1_ExportDocumentsRequest__Output>
        ExportDocumentsResponse: MessageTypeDefinition<_engram_ingestion_v1_ExportDocumentsResponse, _engram_ingestion_v1_ExportDocumentsResponse__Output>
        FileInfo: MessageTypeDefinition<_engram_ingestion_v1_FileInfo, _engram_ingestion_v1_FileInfo__Output>
        GetDocumentRequest: MessageTypeDefinition<_engram_ingestion_v1_GetDocumentRequest, _engram_ingestion_v1_GetDocumentRequest__Output>
        GetDocumentResponse: MessageTypeDefinition<_engram_ingestion_v1_GetDocumentResponse, _engram_ingestion_v1_GetDocumentResponse__Output>
        GetDocumentSourceRequest: MessageTypeDefinition<_engram_ingestion_v1_GetDocumentSourceRequest, _engram_ingestion_v1_GetDocumentSourceRequest__Output>
        GetDocumentSourceResponse: MessageTypeDefinition<_engram_ingestion_v1_GetDocumentSourceResponse, _engram_ingestion_v1_GetDocumentSourceResponse__Output>
        ImportDocumentFileHeader: MessageTypeDefinition<_engram_ingestion_v1_ImportDocumentFileHeader, _engram_ingestion_v1_ImportDocumentFileHeader__Output>
        ImportDocumentFileRequest: MessageTypeDefinition<_engram_ingestion_v1_ImportDocumentFileRequest, _engram_ingestion_v1_ImportDocumentFileRequest__Output>
        ImportDocumentsRequest: MessageTypeDefinition<_engram_ingestion_v1_ImportDocumentsRequest, _engram_ingestion_v1_ImportDocumentsRequest__Output>
        ImportDocumentsResponse: MessageTypeDefinition<_engram_ingestion_v1_ImportDocumentsResponse, _engram_ingestion_v1_ImportDocumentsResponse__Output>
        ImportedDocument: MessageTypeDefinition<_engram_ingestion_v1_ImportedDocument, _engram_ingestion_v1_ImportedDocument__Output>
        /**
         * Owns documents: identity, namespace, caller id, metadata, group, date,
         * source, raw bytes, processing status and timestamps. Serves both API
         * generations: v5 (/ns/{namespace}/...) and legacy v3 (/v3/documents...).
         */
        IngestionService: SubtypeConstructor<typeof grpc.Client, _engram_ingestion_v1_IngestionServiceClient> & { service: _engram_ingestion_v1_IngestionServiceDefinition }
        ListDocumentsRequest: MessageTypeDefinition<_engram_ingestion_v1_ListDocumentsRequest, _engram_ingestion_v1_ListDocumentsRequest__Output>
        ListDocumentsResponse: MessageTypeDefinition<_engram_ingestion_v1_ListDocumentsResponse, _engram_ingestion_v1_ListDocumentsResponse__Output>
        ListProcessingDocumentsRequest: MessageTypeDefinition<_engram_ingestion_v1_ListProcessingDocumentsRequest, _engram_ingestion_v1_ListProcessingDocumentsRequest__Output>
        ListProcessingDocumentsResponse: MessageTypeDefinition<_engram_ingestion_v1_ListProcessingDocumentsResponse, _engram_ingestion_v1_ListProcessingDocumentsResponse__Output>
        PlanDocumentImportRequest: MessageTypeDefinition<_engram_ingestion_v1_PlanDocumentImportRequest, _engram_ingestion_v1_PlanDocumentImportRequest__Output>
        PlanDocumentImportResponse: MessageTypeDefinition<_engram_ingestion_v1_PlanDocumentImportResponse, _engram_ingestion_v1_PlanDocumentImportResponse__Output>
        PlannedDocument: MessageTypeDefinition<_engram_ingestion_v1_PlannedDocument, _engram_ingestion_v1_PlannedDocument__Output>
        ReadDocumentFileRequest: MessageTypeDefinition<_engram_ingestion_v1_ReadDocumentFileRequest, _engram_ingestion_v1_ReadDocumentFileRequest__Output>
        ReadDocumentFileResponse: MessageTypeDefinition<_engram_ingestion_v1_ReadDocumentFileResponse, _engram_ingestion_v1_ReadDocumentFileResponse__Output>
        ReadDocumentResponse: MessageTypeDefinition<_engram_ingestion_v1_ReadDocumentResponse, _engram_ingestion_v1_ReadDocumentResponse__Output>
        SourceKind: EnumTypeDefinition
        UpdateDocumentRequest: MessageTypeDefinition<_engram_ingestion_v1_UpdateDocumentRequest, _engram_ingestion_v1_UpdateDocumentRequest__Output>
        UploadDocumentFileHeader: MessageTypeDefinition<_engram_ingestion_v1_UploadDocumentFileHeader, _engram_ingestion_v1_UploadDocumentFileHeader__Output>
        UploadDocumentFileRequest: MessageTypeDefinition<_engram_ingestion_v1_UploadDocumentFileRequest, _engram_ingestion_v1_UploadDocumentFileRequest__Output>
      }
    }
    memories: {
      v1: {
        BatchGetMemoriesRequest: MessageTypeDefinition<_engram_memories_v1_BatchGetMemoriesRequest, _engram_memories_v1_BatchGetMemoriesRequest__Output>
        BatchGetMemoriesResponse: MessageTypeDefinition<_engram_memories_v1_BatchGetMemoriesResponse, _engram_memories_v1_BatchGetMemoriesResponse__Output>
        CountNamespaceMemoriesRequest: MessageTypeDefinition<_engram_memories_v1_CountNamespaceMemoriesRequest, _engram_memories_v1_CountNamespaceMemoriesRequest__Output>
        CountNamespaceMemoriesResponse: MessageTypeDefinition<_engram_memories_v1_CountNamespaceMemoriesResponse, _engram_memories_v1_CountNamespaceMemoriesResponse__Output>
        CreateMemoriesRequest: MessageTypeDefinition<_engram_memories_v1_CreateMemoriesRequest, _engram_memories_v1_CreateMemoriesRequest__Output>
        CreateMemoriesResponse: MessageTypeDefinition<_engram_memories_v1_CreateMemoriesResponse, _engram_memories_v1_CreateMemoriesResponse__Output>
        ExportMemoriesRequest: MessageTypeDefinition<_engram_memories_v1_ExportMemoriesRequest, _engram_memories_v1_ExportMemoriesRequest__Output>
        ExportMemoriesResponse: MessageTypeDefinition<_engram_memories_v1_ExportMemoriesResponse, _engram_memories_v1_ExportMemoriesResponse__Output>
        ForgetCandidate: MessageTypeDefinition<_engram_memories_v1_ForgetCandidate, _engram_memories_v1_ForgetCandidate__Output>
        ForgetError: MessageTypeDefinition<_engram_memories_v1_ForgetError, _engram_memories_v1_ForgetError__Output>
        ForgetMatchingMemoriesRequest: MessageTypeDefinition<_engram_memories_v1_ForgetMatchingMemoriesRequest, _engram_memories_v1_ForgetMatchingMemoriesRequest__Output>
        ForgetMatchingMemoriesResponse: MessageTypeDefinition<_engram_memories_v1_ForgetMatchingMemoriesResponse, _engram_memories_v1_ForgetMatchingMemoriesResponse__Output>
        ForgetMemoriesByIdsRequest: MessageTypeDefinition<_engram_memories_v1_ForgetMemoriesByIdsRequest, _engram_memories_v1_ForgetMemoriesByIdsRequest__Output>
        ForgetMemoriesByIdsResponse: MessageTypeDefinition<_engram_memories_v1_ForgetMemoriesByIdsResponse, _engram_memories_v1_ForgetMemoriesByIdsResponse__Output>
        ForgetMemoriesByQueryRequest: MessageTypeDefinition<_engram_memories_v1_ForgetMemoriesByQueryRequest, _engram_memories_v1_ForgetMemoriesByQueryRequest__Output>
        ForgetMemoriesByQueryResponse: MessageTypeDefinition<_engram_memories_v1_ForgetMemoriesByQueryResponse, _engram_memories_v1_ForgetMemoriesByQueryResponse__Output>
        ForgetMemoryRequest: MessageTypeDefinition<_engram_memories_v1_ForgetMemoryRequest, _engram_memories_v1_ForgetMemoryRequest__Output>
        ForgetMemoryResponse: MessageTypeDefinition<_engram_memories_v1_ForgetMemoryResponse, _engram_memories_v1_ForgetMemoryResponse__Output>
        ForgetNamespaceMemoriesRequest: MessageTypeDefinition<_engram_memories_v1_ForgetNamespaceMemoriesRequest, _engram_memories_v1_ForgetNamespaceMemoriesRequest__Output>
        ForgetNamespaceMemoriesResponse: MessageTypeDefinition<_engram_memories_v1_ForgetNamespaceMemoriesResponse, _engram_memories_v1_ForgetNamespaceMemoriesResponse__Output>
        FormedDocument: MessageTypeDefinition<_engram_memories_v1_FormedDocument, _engram_memories_v1_FormedDocument__Output>
        ImportMemoriesRequest: MessageTypeDefinition<_engram_memories_v1_ImportMemoriesRequest, _engram_memories_v1_ImportMemoriesRequest__Output>
        ImportMemoriesResponse: MessageTypeDefinition<_engram_memories_v1_ImportMemoriesResponse, _engram_memories_v1_ImportMemoriesResponse__Output>
        ListDocumentMemoriesRequest: MessageTypeDefinition<_engram_memories_v1_ListDocumentMemoriesRequest, _engram_memories_v1_ListDocumentMemoriesRequest__Output>
        ListDocumentMemoriesResponse: MessageTypeDefinition<_engram_memories_v1_ListDocumentMemoriesResponse, _engram_memories_v1_ListDocumentMemoriesResponse__Output>
        ListMemoriesRequest: MessageTypeDefinition<_engram_memories_v1_ListMemoriesRequest, _engram_memories_v1_ListMemoriesRequest__Output>
        ListMemoriesResponse: MessageTypeDefinition<_engram_memories_v1_ListMemoriesResponse, _engram_memories_v1_ListMemoriesResponse__Output>
        /**
         * Owns memories: long-term facts formed from documents (on DocumentIndexed)
         * or written directly, with their version chains, relations, provenance and
         * forgetting. Memories are never hard-deleted by the public API: forgetting
         * marks them is_forgotten. Serves /v4/memories*, the v5 forget endpoints and
         * the memories side of v5 reads.
         */
        MemoriesService: SubtypeConstructor<typeof grpc.Client, _engram_memories_v1_MemoriesServiceClient> & { service: _engram_memories_v1_MemoriesServiceDefinition }
        Memory: MessageTypeDefinition<_engram_memories_v1_Memory, _engram_memories_v1_Memory__Output>
        MemoryEntry: MessageTypeDefinition<_engram_memories_v1_MemoryEntry, _engram_memories_v1_MemoryEntry__Output>
        MemoryInput: MessageTypeDefinition<_engram_memories_v1_MemoryInput, _engram_memories_v1_MemoryInput__Output>
        MemoryRelation: EnumTypeDefinition
        MemorySource: MessageTypeDefinition<_engram_memories_v1_MemorySource, _engram_memories_v1_MemorySource__Output>
        MoveNamespaceMemoriesRequest: MessageTypeDefinition<_engram_memories_v1_MoveNamespaceMemoriesRequest, _engram_memories_v1_MoveNamespaceMemoriesRequest__Output>
        MoveNamespaceMemoriesResponse: MessageTypeDefinition<_engram_memories_v1_MoveNamespaceMemoriesResponse, _engram_memories_v1_MoveNamespaceMemoriesResponse__Output>
        NamespaceMemoryCount: MessageTypeDefinition<_engram_memories_v1_NamespaceMemoryCount, _engram_memories_v1_NamespaceMemoryCount__Output>
        PlanMemoryImportRequest: MessageTypeDefinition<_engram_memories_v1_PlanMemoryImportRequest, _engram_memories_v1_PlanMemoryImportRequest__Output>
        PlanMemoryImportResponse: MessageTypeDefinition<_engram_memories_v1_PlanMemoryImportResponse, _engram_memories_v1_PlanMemoryImportResponse__Output>
        PurgeTenantMemoriesRequest: MessageTypeDefinition<_engram_memories_v1_PurgeTenantMemoriesRequest, _engram_memories_v1_PurgeTenantMemoriesRequest__Output>
        PurgeTenantMemoriesResponse: MessageTypeDefinition<_engram_memories_v1_PurgeTenantMemoriesResponse, _engram_memories_v1_PurgeTenantMemoriesResponse__Output>
        TemporalContext: MessageTypeDefinition<_engram_memories_v1_TemporalContext, _engram_memories_v1_TemporalContext__Output>
        UpdateMemoryRequest: MessageTypeDefinition<_engram_memories_v1_UpdateMemoryRequest, _engram_memories_v1_UpdateMemoryRequest__Output>
        UpdateMemoryResponse: MessageTypeDefinition<_engram_memories_v1_UpdateMemoryResponse, _engram_memories_v1_UpdateMemoryResponse__Output>
      }
    }
    recall: {
      v1: {
        BucketMemories: MessageTypeDefinition<_engram_recall_v1_BucketMemories, _engram_recall_v1_BucketMemories__Output>
        ChunkEntry: MessageTypeDefinition<_engram_recall_v1_ChunkEntry, _engram_recall_v1_ChunkEntry__Output>
        ChunkType: EnumTypeDefinition
        GetProfileBucketsRequest: MessageTypeDefinition<_engram_recall_v1_GetProfileBucketsRequest, _engram_recall_v1_GetProfileBucketsRequest__Output>
        GetProfileBucketsResponse: MessageTypeDefinition<_engram_recall_v1_GetProfileBucketsResponse, _engram_recall_v1_GetProfileBucketsResponse__Output>
        GetProfileRequest: MessageTypeDefinition<_engram_recall_v1_GetProfileRequest, _engram_recall_v1_GetProfileRequest__Output>
        GetProfileResponse: MessageTypeDefinition<_engram_recall_v1_GetProfileResponse, _engram_recall_v1_GetProfileResponse__Output>
        ListChunksRequest: MessageTypeDefinition<_engram_recall_v1_ListChunksRequest, _engram_recall_v1_ListChunksRequest__Output>
        ListChunksResponse: MessageTypeDefinition<_engram_recall_v1_ListChunksResponse, _engram_recall_v1_ListChunksResponse__Output>
        MemoryContext: MessageTypeDefinition<_engram_recall_v1_MemoryContext, _engram_recall_v1_MemoryContext__Output>
        MemoryContextEntry: MessageTypeDefinition<_engram_recall_v1_MemoryContextEntry, _engram_recall_v1_MemoryContextEntry__Output>
        Profile: MessageTypeDefinition<_engram_recall_v1_Profile, _engram_recall_v1_Profile__Output>
        ProfileSearchResults: MessageTypeDefinition<_engram_recall_v1_ProfileSearchResults, _engram_recall_v1_ProfileSearchResults__Output>
        ProfileSection: EnumTypeDefinition
        /**
         * Read side: semantic search over memories and document chunks, profiles,
         * and chunk listing. Serves /v4/search, /v3/search, /v4/profile*,
         * /ns/{namespace}/list/chunks and the chunk parts of document reads.
         */
        RecallService: SubtypeConstructor<typeof grpc.Client, _engram_recall_v1_RecallServiceClient> & { service: _engram_recall_v1_RecallServiceDefinition }
        ScoredChunk: MessageTypeDefinition<_engram_recall_v1_ScoredChunk, _engram_recall_v1_ScoredChunk__Output>
        SearchInclude: MessageTypeDefinition<_engram_recall_v1_SearchInclude, _engram_recall_v1_SearchInclude__Output>
        SearchMode: EnumTypeDefinition
        SearchV3Request: MessageTypeDefinition<_engram_recall_v1_SearchV3Request, _engram_recall_v1_SearchV3Request__Output>
        SearchV3Response: MessageTypeDefinition<_engram_recall_v1_SearchV3Response, _engram_recall_v1_SearchV3Response__Output>
        SearchV3Result: MessageTypeDefinition<_engram_recall_v1_SearchV3Result, _engram_recall_v1_SearchV3Result__Output>
        SearchV4Request: MessageTypeDefinition<_engram_recall_v1_SearchV4Request, _engram_recall_v1_SearchV4Request__Output>
        SearchV4Response: MessageTypeDefinition<_engram_recall_v1_SearchV4Response, _engram_recall_v1_SearchV4Response__Output>
        SearchV4Result: MessageTypeDefinition<_engram_recall_v1_SearchV4Result, _engram_recall_v1_SearchV4Result__Output>
      }
    }
  }
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
}

