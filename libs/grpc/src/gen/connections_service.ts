import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from './engram/common/v1/CallContext';
import type { Chunk as _engram_common_v1_Chunk, Chunk__Output as _engram_common_v1_Chunk__Output } from './engram/common/v1/Chunk';
import type { Filter as _engram_common_v1_Filter, Filter__Output as _engram_common_v1_Filter__Output } from './engram/common/v1/Filter';
import type { PageRequest as _engram_common_v1_PageRequest, PageRequest__Output as _engram_common_v1_PageRequest__Output } from './engram/common/v1/PageRequest';
import type { Pagination as _engram_common_v1_Pagination, Pagination__Output as _engram_common_v1_Pagination__Output } from './engram/common/v1/Pagination';
import type { ProfileBucket as _engram_common_v1_ProfileBucket, ProfileBucket__Output as _engram_common_v1_ProfileBucket__Output } from './engram/common/v1/ProfileBucket';
import type { ApiKeyCredentials as _engram_connections_v1_ApiKeyCredentials, ApiKeyCredentials__Output as _engram_connections_v1_ApiKeyCredentials__Output } from './engram/connections/v1/ApiKeyCredentials';
import type { ConfigureConnectionRequest as _engram_connections_v1_ConfigureConnectionRequest, ConfigureConnectionRequest__Output as _engram_connections_v1_ConfigureConnectionRequest__Output } from './engram/connections/v1/ConfigureConnectionRequest';
import type { ConfigureConnectionResponse as _engram_connections_v1_ConfigureConnectionResponse, ConfigureConnectionResponse__Output as _engram_connections_v1_ConfigureConnectionResponse__Output } from './engram/connections/v1/ConfigureConnectionResponse';
import type { Connection as _engram_connections_v1_Connection, Connection__Output as _engram_connections_v1_Connection__Output } from './engram/connections/v1/Connection';
import type { ConnectionsServiceClient as _engram_connections_v1_ConnectionsServiceClient, ConnectionsServiceDefinition as _engram_connections_v1_ConnectionsServiceDefinition } from './engram/connections/v1/ConnectionsService';
import type { CreateConnectionRequest as _engram_connections_v1_CreateConnectionRequest, CreateConnectionRequest__Output as _engram_connections_v1_CreateConnectionRequest__Output } from './engram/connections/v1/CreateConnectionRequest';
import type { CreateConnectionResponse as _engram_connections_v1_CreateConnectionResponse, CreateConnectionResponse__Output as _engram_connections_v1_CreateConnectionResponse__Output } from './engram/connections/v1/CreateConnectionResponse';
import type { DeleteConnectionByProviderRequest as _engram_connections_v1_DeleteConnectionByProviderRequest, DeleteConnectionByProviderRequest__Output as _engram_connections_v1_DeleteConnectionByProviderRequest__Output } from './engram/connections/v1/DeleteConnectionByProviderRequest';
import type { DeleteConnectionByProviderResponse as _engram_connections_v1_DeleteConnectionByProviderResponse, DeleteConnectionByProviderResponse__Output as _engram_connections_v1_DeleteConnectionByProviderResponse__Output } from './engram/connections/v1/DeleteConnectionByProviderResponse';
import type { DeleteConnectionRequest as _engram_connections_v1_DeleteConnectionRequest, DeleteConnectionRequest__Output as _engram_connections_v1_DeleteConnectionRequest__Output } from './engram/connections/v1/DeleteConnectionRequest';
import type { DeleteConnectionResponse as _engram_connections_v1_DeleteConnectionResponse, DeleteConnectionResponse__Output as _engram_connections_v1_DeleteConnectionResponse__Output } from './engram/connections/v1/DeleteConnectionResponse';
import type { DirectCredentials as _engram_connections_v1_DirectCredentials, DirectCredentials__Output as _engram_connections_v1_DirectCredentials__Output } from './engram/connections/v1/DirectCredentials';
import type { GetConnectionByTagsRequest as _engram_connections_v1_GetConnectionByTagsRequest, GetConnectionByTagsRequest__Output as _engram_connections_v1_GetConnectionByTagsRequest__Output } from './engram/connections/v1/GetConnectionByTagsRequest';
import type { GetConnectionByTagsResponse as _engram_connections_v1_GetConnectionByTagsResponse, GetConnectionByTagsResponse__Output as _engram_connections_v1_GetConnectionByTagsResponse__Output } from './engram/connections/v1/GetConnectionByTagsResponse';
import type { GetConnectionRequest as _engram_connections_v1_GetConnectionRequest, GetConnectionRequest__Output as _engram_connections_v1_GetConnectionRequest__Output } from './engram/connections/v1/GetConnectionRequest';
import type { GetConnectionResponse as _engram_connections_v1_GetConnectionResponse, GetConnectionResponse__Output as _engram_connections_v1_GetConnectionResponse__Output } from './engram/connections/v1/GetConnectionResponse';
import type { HandleOAuthCallbackRequest as _engram_connections_v1_HandleOAuthCallbackRequest, HandleOAuthCallbackRequest__Output as _engram_connections_v1_HandleOAuthCallbackRequest__Output } from './engram/connections/v1/HandleOAuthCallbackRequest';
import type { HandleOAuthCallbackResponse as _engram_connections_v1_HandleOAuthCallbackResponse, HandleOAuthCallbackResponse__Output as _engram_connections_v1_HandleOAuthCallbackResponse__Output } from './engram/connections/v1/HandleOAuthCallbackResponse';
import type { HandleProviderWebhookRequest as _engram_connections_v1_HandleProviderWebhookRequest, HandleProviderWebhookRequest__Output as _engram_connections_v1_HandleProviderWebhookRequest__Output } from './engram/connections/v1/HandleProviderWebhookRequest';
import type { HandleProviderWebhookResponse as _engram_connections_v1_HandleProviderWebhookResponse, HandleProviderWebhookResponse__Output as _engram_connections_v1_HandleProviderWebhookResponse__Output } from './engram/connections/v1/HandleProviderWebhookResponse';
import type { ImportConnectionsRequest as _engram_connections_v1_ImportConnectionsRequest, ImportConnectionsRequest__Output as _engram_connections_v1_ImportConnectionsRequest__Output } from './engram/connections/v1/ImportConnectionsRequest';
import type { ImportConnectionsResponse as _engram_connections_v1_ImportConnectionsResponse, ImportConnectionsResponse__Output as _engram_connections_v1_ImportConnectionsResponse__Output } from './engram/connections/v1/ImportConnectionsResponse';
import type { ListConnectionDocumentsRequest as _engram_connections_v1_ListConnectionDocumentsRequest, ListConnectionDocumentsRequest__Output as _engram_connections_v1_ListConnectionDocumentsRequest__Output } from './engram/connections/v1/ListConnectionDocumentsRequest';
import type { ListConnectionDocumentsResponse as _engram_connections_v1_ListConnectionDocumentsResponse, ListConnectionDocumentsResponse__Output as _engram_connections_v1_ListConnectionDocumentsResponse__Output } from './engram/connections/v1/ListConnectionDocumentsResponse';
import type { ListConnectionResourcesRequest as _engram_connections_v1_ListConnectionResourcesRequest, ListConnectionResourcesRequest__Output as _engram_connections_v1_ListConnectionResourcesRequest__Output } from './engram/connections/v1/ListConnectionResourcesRequest';
import type { ListConnectionResourcesResponse as _engram_connections_v1_ListConnectionResourcesResponse, ListConnectionResourcesResponse__Output as _engram_connections_v1_ListConnectionResourcesResponse__Output } from './engram/connections/v1/ListConnectionResourcesResponse';
import type { ListConnectionsRequest as _engram_connections_v1_ListConnectionsRequest, ListConnectionsRequest__Output as _engram_connections_v1_ListConnectionsRequest__Output } from './engram/connections/v1/ListConnectionsRequest';
import type { ListConnectionsResponse as _engram_connections_v1_ListConnectionsResponse, ListConnectionsResponse__Output as _engram_connections_v1_ListConnectionsResponse__Output } from './engram/connections/v1/ListConnectionsResponse';
import type { ListSyncRunsRequest as _engram_connections_v1_ListSyncRunsRequest, ListSyncRunsRequest__Output as _engram_connections_v1_ListSyncRunsRequest__Output } from './engram/connections/v1/ListSyncRunsRequest';
import type { ListSyncRunsResponse as _engram_connections_v1_ListSyncRunsResponse, ListSyncRunsResponse__Output as _engram_connections_v1_ListSyncRunsResponse__Output } from './engram/connections/v1/ListSyncRunsResponse';
import type { S3Credentials as _engram_connections_v1_S3Credentials, S3Credentials__Output as _engram_connections_v1_S3Credentials__Output } from './engram/connections/v1/S3Credentials';
import type { SyncRun as _engram_connections_v1_SyncRun, SyncRun__Output as _engram_connections_v1_SyncRun__Output } from './engram/connections/v1/SyncRun';
import type { WebCrawlerConfig as _engram_connections_v1_WebCrawlerConfig, WebCrawlerConfig__Output as _engram_connections_v1_WebCrawlerConfig__Output } from './engram/connections/v1/WebCrawlerConfig';
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
    connections: {
      v1: {
        ApiKeyCredentials: MessageTypeDefinition<_engram_connections_v1_ApiKeyCredentials, _engram_connections_v1_ApiKeyCredentials__Output>
        ConfigureConnectionRequest: MessageTypeDefinition<_engram_connections_v1_ConfigureConnectionRequest, _engram_connections_v1_ConfigureConnectionRequest__Output>
        ConfigureConnectionResponse: MessageTypeDefinition<_engram_connections_v1_ConfigureConnectionResponse, _engram_connections_v1_ConfigureConnectionResponse__Output>
        Connection: MessageTypeDefinition<_engram_connections_v1_Connection, _engram_connections_v1_Connection__Output>
        ConnectionStatus: EnumTypeDefinition
        /**
         * Links external platforms to the knowledge base and syncs their content into
         * it (through IngestionService). Owns connections, OAuth state, provider
         * tokens, webhook subscriptions and sync runs. Serves /v3/connections/*.
         */
        ConnectionsService: SubtypeConstructor<typeof grpc.Client, _engram_connections_v1_ConnectionsServiceClient> & { service: _engram_connections_v1_ConnectionsServiceDefinition }
        CreateConnectionRequest: MessageTypeDefinition<_engram_connections_v1_CreateConnectionRequest, _engram_connections_v1_CreateConnectionRequest__Output>
        CreateConnectionResponse: MessageTypeDefinition<_engram_connections_v1_CreateConnectionResponse, _engram_connections_v1_CreateConnectionResponse__Output>
        DeleteConnectionByProviderRequest: MessageTypeDefinition<_engram_connections_v1_DeleteConnectionByProviderRequest, _engram_connections_v1_DeleteConnectionByProviderRequest__Output>
        DeleteConnectionByProviderResponse: MessageTypeDefinition<_engram_connections_v1_DeleteConnectionByProviderResponse, _engram_connections_v1_DeleteConnectionByProviderResponse__Output>
        DeleteConnectionRequest: MessageTypeDefinition<_engram_connections_v1_DeleteConnectionRequest, _engram_connections_v1_DeleteConnectionRequest__Output>
        DeleteConnectionResponse: MessageTypeDefinition<_engram_connections_v1_DeleteConnectionResponse, _engram_connections_v1_DeleteConnectionResponse__Output>
        DirectCredentials: MessageTypeDefinition<_engram_connections_v1_DirectCredentials, _engram_connections_v1_DirectCredentials__Output>
        GetConnectionByTagsRequest: MessageTypeDefinition<_engram_connections_v1_GetConnectionByTagsRequest, _engram_connections_v1_GetConnectionByTagsRequest__Output>
        GetConnectionByTagsResponse: MessageTypeDefinition<_engram_connections_v1_GetConnectionByTagsResponse, _engram_connections_v1_GetConnectionByTagsResponse__Output>
        GetConnectionRequest: MessageTypeDefinition<_engram_connections_v1_GetConnectionRequest, _engram_connections_v1_GetConnectionRequest__Output>
        GetConnectionResponse: MessageTypeDefinition<_engram_connections_v1_GetConnectionResponse, _engram_connections_v1_GetConnectionResponse__Output>
        HandleOAuthCallbackRequest: MessageTypeDefinition<_engram_connections_v1_HandleOAuthCallbackRequest, _engram_connections_v1_HandleOAuthCallbackRequest__Output>
        HandleOAuthCallbackResponse: MessageTypeDefinition<_engram_connections_v1_HandleOAuthCallbackResponse, _engram_connections_v1_HandleOAuthCallbackResponse__Output>
        HandleProviderWebhookRequest: MessageTypeDefinition<_engram_connections_v1_HandleProviderWebhookRequest, _engram_connections_v1_HandleProviderWebhookRequest__Output>
        HandleProviderWebhookResponse: MessageTypeDefinition<_engram_connections_v1_HandleProviderWebhookResponse, _engram_connections_v1_HandleProviderWebhookResponse__Output>
        ImportConnectionsRequest: MessageTypeDefinition<_engram_connections_v1_ImportConnectionsRequest, _engram_connections_v1_ImportConnectionsRequest__Output>
        ImportConnectionsResponse: MessageTypeDefinition<_engram_connections_v1_ImportConnectionsResponse, _engram_connections_v1_ImportConnectionsResponse__Output>
        ListConnectionDocumentsRequest: MessageTypeDefinition<_engram_connections_v1_ListConnectionDocumentsRequest, _engram_connections_v1_ListConnectionDocumentsRequest__Output>
        ListConnectionDocumentsResponse: MessageTypeDefinition<_engram_connections_v1_ListConnectionDocumentsResponse, _engram_connections_v1_ListConnectionDocumentsResponse__Output>
        ListConnectionResourcesRequest: MessageTypeDefinition<_engram_connections_v1_ListConnectionResourcesRequest, _engram_connections_v1_ListConnectionResourcesRequest__Output>
        ListConnectionResourcesResponse: MessageTypeDefinition<_engram_connections_v1_ListConnectionResourcesResponse, _engram_connections_v1_ListConnectionResourcesResponse__Output>
        ListConnectionsRequest: MessageTypeDefinition<_engram_connections_v1_ListConnectionsRequest, _engram_connections_v1_ListConnectionsRequest__Output>
        ListConnectionsResponse: MessageTypeDefinition<_engram_connections_v1_ListConnectionsResponse, _engram_connections_v1_ListConnectionsResponse__Output>
        ListSyncRunsRequest: MessageTypeDefinition<_engram_connections_v1_ListSyncRunsRequest, _engram_connections_v1_ListSyncRunsRequest__Output>
        ListSyncRunsResponse: MessageTypeDefinition<_engram_connections_v1_ListSyncRunsResponse, _engram_connections_v1_ListSyncRunsResponse__Output>
        Provider: EnumTypeDefinition
        S3Credentials: MessageTypeDefinition<_engram_connections_v1_S3Credentials, _engram_connections_v1_S3Credentials__Output>
        SyncErrorCode: EnumTypeDefinition
        SyncRun: MessageTypeDefinition<_engram_connections_v1_SyncRun, _engram_connections_v1_SyncRun__Output>
        SyncRunStatus: EnumTypeDefinition
        SyncTrigger: EnumTypeDefinition
        WebCrawlerConfig: MessageTypeDefinition<_engram_connections_v1_WebCrawlerConfig, _engram_connections_v1_WebCrawlerConfig__Output>
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

