import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from './engram/common/v1/CallContext';
import type { Chunk as _engram_common_v1_Chunk, Chunk__Output as _engram_common_v1_Chunk__Output } from './engram/common/v1/Chunk';
import type { Filter as _engram_common_v1_Filter, Filter__Output as _engram_common_v1_Filter__Output } from './engram/common/v1/Filter';
import type { PageRequest as _engram_common_v1_PageRequest, PageRequest__Output as _engram_common_v1_PageRequest__Output } from './engram/common/v1/PageRequest';
import type { Pagination as _engram_common_v1_Pagination, Pagination__Output as _engram_common_v1_Pagination__Output } from './engram/common/v1/Pagination';
import type { ProfileBucket as _engram_common_v1_ProfileBucket, ProfileBucket__Output as _engram_common_v1_ProfileBucket__Output } from './engram/common/v1/ProfileBucket';
import type { ContainerTag as _engram_ingestion_v1_ContainerTag, ContainerTag__Output as _engram_ingestion_v1_ContainerTag__Output } from './engram/ingestion/v1/ContainerTag';
import type { ContainerTagMerge as _engram_ingestion_v1_ContainerTagMerge, ContainerTagMerge__Output as _engram_ingestion_v1_ContainerTagMerge__Output } from './engram/ingestion/v1/ContainerTagMerge';
import type { ContainerTagServiceClient as _engram_ingestion_v1_ContainerTagServiceClient, ContainerTagServiceDefinition as _engram_ingestion_v1_ContainerTagServiceDefinition } from './engram/ingestion/v1/ContainerTagService';
import type { DeleteContainerTagRequest as _engram_ingestion_v1_DeleteContainerTagRequest, DeleteContainerTagRequest__Output as _engram_ingestion_v1_DeleteContainerTagRequest__Output } from './engram/ingestion/v1/DeleteContainerTagRequest';
import type { DeleteContainerTagResponse as _engram_ingestion_v1_DeleteContainerTagResponse, DeleteContainerTagResponse__Output as _engram_ingestion_v1_DeleteContainerTagResponse__Output } from './engram/ingestion/v1/DeleteContainerTagResponse';
import type { FilesystemPathList as _engram_ingestion_v1_FilesystemPathList, FilesystemPathList__Output as _engram_ingestion_v1_FilesystemPathList__Output } from './engram/ingestion/v1/FilesystemPathList';
import type { GetContainerTagMergeRequest as _engram_ingestion_v1_GetContainerTagMergeRequest, GetContainerTagMergeRequest__Output as _engram_ingestion_v1_GetContainerTagMergeRequest__Output } from './engram/ingestion/v1/GetContainerTagMergeRequest';
import type { GetContainerTagMergeResponse as _engram_ingestion_v1_GetContainerTagMergeResponse, GetContainerTagMergeResponse__Output as _engram_ingestion_v1_GetContainerTagMergeResponse__Output } from './engram/ingestion/v1/GetContainerTagMergeResponse';
import type { GetContainerTagRequest as _engram_ingestion_v1_GetContainerTagRequest, GetContainerTagRequest__Output as _engram_ingestion_v1_GetContainerTagRequest__Output } from './engram/ingestion/v1/GetContainerTagRequest';
import type { GetContainerTagResponse as _engram_ingestion_v1_GetContainerTagResponse, GetContainerTagResponse__Output as _engram_ingestion_v1_GetContainerTagResponse__Output } from './engram/ingestion/v1/GetContainerTagResponse';
import type { ListContainerTagsRequest as _engram_ingestion_v1_ListContainerTagsRequest, ListContainerTagsRequest__Output as _engram_ingestion_v1_ListContainerTagsRequest__Output } from './engram/ingestion/v1/ListContainerTagsRequest';
import type { ListContainerTagsResponse as _engram_ingestion_v1_ListContainerTagsResponse, ListContainerTagsResponse__Output as _engram_ingestion_v1_ListContainerTagsResponse__Output } from './engram/ingestion/v1/ListContainerTagsResponse';
import type { MergeContainerTagsRequest as _engram_ingestion_v1_MergeContainerTagsRequest, MergeContainerTagsRequest__Output as _engram_ingestion_v1_MergeContainerTagsRequest__Output } from './engram/ingestion/v1/MergeContainerTagsRequest';
import type { MergeContainerTagsResponse as _engram_ingestion_v1_MergeContainerTagsResponse, MergeContainerTagsResponse__Output as _engram_ingestion_v1_MergeContainerTagsResponse__Output } from './engram/ingestion/v1/MergeContainerTagsResponse';
import type { ResetTenantContentRequest as _engram_ingestion_v1_ResetTenantContentRequest, ResetTenantContentRequest__Output as _engram_ingestion_v1_ResetTenantContentRequest__Output } from './engram/ingestion/v1/ResetTenantContentRequest';
import type { ResetTenantContentResponse as _engram_ingestion_v1_ResetTenantContentResponse, ResetTenantContentResponse__Output as _engram_ingestion_v1_ResetTenantContentResponse__Output } from './engram/ingestion/v1/ResetTenantContentResponse';
import type { UpdateContainerTagRequest as _engram_ingestion_v1_UpdateContainerTagRequest, UpdateContainerTagRequest__Output as _engram_ingestion_v1_UpdateContainerTagRequest__Output } from './engram/ingestion/v1/UpdateContainerTagRequest';
import type { UpdateContainerTagResponse as _engram_ingestion_v1_UpdateContainerTagResponse, UpdateContainerTagResponse__Output as _engram_ingestion_v1_UpdateContainerTagResponse__Output } from './engram/ingestion/v1/UpdateContainerTagResponse';
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
        ContainerTag: MessageTypeDefinition<_engram_ingestion_v1_ContainerTag, _engram_ingestion_v1_ContainerTag__Output>
        ContainerTagMerge: MessageTypeDefinition<_engram_ingestion_v1_ContainerTagMerge, _engram_ingestion_v1_ContainerTagMerge__Output>
        /**
         * Container tags (= v5 namespaces) as managed objects: their settings,
         * aggregate counts, deletion and merging. Owned by ingestion because a tag's
         * lifetime is the lifetime of the documents in it. Serves /v3/container-tags/*.
         */
        ContainerTagService: SubtypeConstructor<typeof grpc.Client, _engram_ingestion_v1_ContainerTagServiceClient> & { service: _engram_ingestion_v1_ContainerTagServiceDefinition }
        ContainerTagVisibility: EnumTypeDefinition
        DeleteContainerTagRequest: MessageTypeDefinition<_engram_ingestion_v1_DeleteContainerTagRequest, _engram_ingestion_v1_DeleteContainerTagRequest__Output>
        DeleteContainerTagResponse: MessageTypeDefinition<_engram_ingestion_v1_DeleteContainerTagResponse, _engram_ingestion_v1_DeleteContainerTagResponse__Output>
        FilesystemPathList: MessageTypeDefinition<_engram_ingestion_v1_FilesystemPathList, _engram_ingestion_v1_FilesystemPathList__Output>
        GetContainerTagMergeRequest: MessageTypeDefinition<_engram_ingestion_v1_GetContainerTagMergeRequest, _engram_ingestion_v1_GetContainerTagMergeRequest__Output>
        GetContainerTagMergeResponse: MessageTypeDefinition<_engram_ingestion_v1_GetContainerTagMergeResponse, _engram_ingestion_v1_GetContainerTagMergeResponse__Output>
        GetContainerTagRequest: MessageTypeDefinition<_engram_ingestion_v1_GetContainerTagRequest, _engram_ingestion_v1_GetContainerTagRequest__Output>
        GetContainerTagResponse: MessageTypeDefinition<_engram_ingestion_v1_GetContainerTagResponse, _engram_ingestion_v1_GetContainerTagResponse__Output>
        ListContainerTagsRequest: MessageTypeDefinition<_engram_ingestion_v1_ListContainerTagsRequest, _engram_ingestion_v1_ListContainerTagsRequest__Output>
        ListContainerTagsResponse: MessageTypeDefinition<_engram_ingestion_v1_ListContainerTagsResponse, _engram_ingestion_v1_ListContainerTagsResponse__Output>
        MergeContainerTagsRequest: MessageTypeDefinition<_engram_ingestion_v1_MergeContainerTagsRequest, _engram_ingestion_v1_MergeContainerTagsRequest__Output>
        MergeContainerTagsResponse: MessageTypeDefinition<_engram_ingestion_v1_MergeContainerTagsResponse, _engram_ingestion_v1_MergeContainerTagsResponse__Output>
        MergeRole: EnumTypeDefinition
        MergeStatus: EnumTypeDefinition
        ResetTenantContentRequest: MessageTypeDefinition<_engram_ingestion_v1_ResetTenantContentRequest, _engram_ingestion_v1_ResetTenantContentRequest__Output>
        ResetTenantContentResponse: MessageTypeDefinition<_engram_ingestion_v1_ResetTenantContentResponse, _engram_ingestion_v1_ResetTenantContentResponse__Output>
        UpdateContainerTagRequest: MessageTypeDefinition<_engram_ingestion_v1_UpdateContainerTagRequest, _engram_ingestion_v1_UpdateContainerTagRequest__Output>
        UpdateContainerTagResponse: MessageTypeDefinition<_engram_ingestion_v1_UpdateContainerTagResponse, _engram_ingestion_v1_UpdateContainerTagResponse__Output>
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

