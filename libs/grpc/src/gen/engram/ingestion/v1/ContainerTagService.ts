// Original file: protos/engram/ingestion/v1/container_tag_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { DeleteContainerTagRequest as _engram_ingestion_v1_DeleteContainerTagRequest, DeleteContainerTagRequest__Output as _engram_ingestion_v1_DeleteContainerTagRequest__Output } from '../../../engram/ingestion/v1/DeleteContainerTagRequest';
import type { DeleteContainerTagResponse as _engram_ingestion_v1_DeleteContainerTagResponse, DeleteContainerTagResponse__Output as _engram_ingestion_v1_DeleteContainerTagResponse__Output } from '../../../engram/ingestion/v1/DeleteContainerTagResponse';
import type { GetContainerTagMergeRequest as _engram_ingestion_v1_GetContainerTagMergeRequest, GetContainerTagMergeRequest__Output as _engram_ingestion_v1_GetContainerTagMergeRequest__Output } from '../../../engram/ingestion/v1/GetContainerTagMergeRequest';
import type { GetContainerTagMergeResponse as _engram_ingestion_v1_GetContainerTagMergeResponse, GetContainerTagMergeResponse__Output as _engram_ingestion_v1_GetContainerTagMergeResponse__Output } from '../../../engram/ingestion/v1/GetContainerTagMergeResponse';
import type { GetContainerTagRequest as _engram_ingestion_v1_GetContainerTagRequest, GetContainerTagRequest__Output as _engram_ingestion_v1_GetContainerTagRequest__Output } from '../../../engram/ingestion/v1/GetContainerTagRequest';
import type { GetContainerTagResponse as _engram_ingestion_v1_GetContainerTagResponse, GetContainerTagResponse__Output as _engram_ingestion_v1_GetContainerTagResponse__Output } from '../../../engram/ingestion/v1/GetContainerTagResponse';
import type { ListContainerTagsRequest as _engram_ingestion_v1_ListContainerTagsRequest, ListContainerTagsRequest__Output as _engram_ingestion_v1_ListContainerTagsRequest__Output } from '../../../engram/ingestion/v1/ListContainerTagsRequest';
import type { ListContainerTagsResponse as _engram_ingestion_v1_ListContainerTagsResponse, ListContainerTagsResponse__Output as _engram_ingestion_v1_ListContainerTagsResponse__Output } from '../../../engram/ingestion/v1/ListContainerTagsResponse';
import type { MergeContainerTagsRequest as _engram_ingestion_v1_MergeContainerTagsRequest, MergeContainerTagsRequest__Output as _engram_ingestion_v1_MergeContainerTagsRequest__Output } from '../../../engram/ingestion/v1/MergeContainerTagsRequest';
import type { MergeContainerTagsResponse as _engram_ingestion_v1_MergeContainerTagsResponse, MergeContainerTagsResponse__Output as _engram_ingestion_v1_MergeContainerTagsResponse__Output } from '../../../engram/ingestion/v1/MergeContainerTagsResponse';
import type { ResetTenantContentRequest as _engram_ingestion_v1_ResetTenantContentRequest, ResetTenantContentRequest__Output as _engram_ingestion_v1_ResetTenantContentRequest__Output } from '../../../engram/ingestion/v1/ResetTenantContentRequest';
import type { ResetTenantContentResponse as _engram_ingestion_v1_ResetTenantContentResponse, ResetTenantContentResponse__Output as _engram_ingestion_v1_ResetTenantContentResponse__Output } from '../../../engram/ingestion/v1/ResetTenantContentResponse';
import type { UpdateContainerTagRequest as _engram_ingestion_v1_UpdateContainerTagRequest, UpdateContainerTagRequest__Output as _engram_ingestion_v1_UpdateContainerTagRequest__Output } from '../../../engram/ingestion/v1/UpdateContainerTagRequest';
import type { UpdateContainerTagResponse as _engram_ingestion_v1_UpdateContainerTagResponse, UpdateContainerTagResponse__Output as _engram_ingestion_v1_UpdateContainerTagResponse__Output } from '../../../engram/ingestion/v1/UpdateContainerTagResponse';

/**
 * Container tags (= v5 namespaces) as managed objects: their settings,
 * aggregate counts, deletion and merging. Owned by ingestion because a tag's
 * lifetime is the lifetime of the documents in it. Serves /v3/container-tags/*.
 */
export interface ContainerTagServiceClient extends grpc.Client {
  /**
   * DELETE /v3/container-tags/{containerTag}: deletes the tag's documents and
   * forgets its memories (through MemoriesService.ForgetNamespaceMemories).
   */
  DeleteContainerTag(argument: _engram_ingestion_v1_DeleteContainerTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteContainerTagResponse__Output>): grpc.ClientUnaryCall;
  DeleteContainerTag(argument: _engram_ingestion_v1_DeleteContainerTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteContainerTagResponse__Output>): grpc.ClientUnaryCall;
  DeleteContainerTag(argument: _engram_ingestion_v1_DeleteContainerTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteContainerTagResponse__Output>): grpc.ClientUnaryCall;
  DeleteContainerTag(argument: _engram_ingestion_v1_DeleteContainerTagRequest, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteContainerTagResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DELETE /v3/container-tags/{containerTag}: deletes the tag's documents and
   * forgets its memories (through MemoriesService.ForgetNamespaceMemories).
   */
  deleteContainerTag(argument: _engram_ingestion_v1_DeleteContainerTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteContainerTagResponse__Output>): grpc.ClientUnaryCall;
  deleteContainerTag(argument: _engram_ingestion_v1_DeleteContainerTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteContainerTagResponse__Output>): grpc.ClientUnaryCall;
  deleteContainerTag(argument: _engram_ingestion_v1_DeleteContainerTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteContainerTagResponse__Output>): grpc.ClientUnaryCall;
  deleteContainerTag(argument: _engram_ingestion_v1_DeleteContainerTagRequest, callback: grpc.requestCallback<_engram_ingestion_v1_DeleteContainerTagResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/container-tags/{containerTag}.
   */
  GetContainerTag(argument: _engram_ingestion_v1_GetContainerTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagResponse__Output>): grpc.ClientUnaryCall;
  GetContainerTag(argument: _engram_ingestion_v1_GetContainerTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagResponse__Output>): grpc.ClientUnaryCall;
  GetContainerTag(argument: _engram_ingestion_v1_GetContainerTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagResponse__Output>): grpc.ClientUnaryCall;
  GetContainerTag(argument: _engram_ingestion_v1_GetContainerTagRequest, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/container-tags/{containerTag}.
   */
  getContainerTag(argument: _engram_ingestion_v1_GetContainerTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagResponse__Output>): grpc.ClientUnaryCall;
  getContainerTag(argument: _engram_ingestion_v1_GetContainerTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagResponse__Output>): grpc.ClientUnaryCall;
  getContainerTag(argument: _engram_ingestion_v1_GetContainerTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagResponse__Output>): grpc.ClientUnaryCall;
  getContainerTag(argument: _engram_ingestion_v1_GetContainerTagRequest, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/container-tags/merge/{mergeId}.
   */
  GetContainerTagMerge(argument: _engram_ingestion_v1_GetContainerTagMergeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagMergeResponse__Output>): grpc.ClientUnaryCall;
  GetContainerTagMerge(argument: _engram_ingestion_v1_GetContainerTagMergeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagMergeResponse__Output>): grpc.ClientUnaryCall;
  GetContainerTagMerge(argument: _engram_ingestion_v1_GetContainerTagMergeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagMergeResponse__Output>): grpc.ClientUnaryCall;
  GetContainerTagMerge(argument: _engram_ingestion_v1_GetContainerTagMergeRequest, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagMergeResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/container-tags/merge/{mergeId}.
   */
  getContainerTagMerge(argument: _engram_ingestion_v1_GetContainerTagMergeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagMergeResponse__Output>): grpc.ClientUnaryCall;
  getContainerTagMerge(argument: _engram_ingestion_v1_GetContainerTagMergeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagMergeResponse__Output>): grpc.ClientUnaryCall;
  getContainerTagMerge(argument: _engram_ingestion_v1_GetContainerTagMergeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagMergeResponse__Output>): grpc.ClientUnaryCall;
  getContainerTagMerge(argument: _engram_ingestion_v1_GetContainerTagMergeRequest, callback: grpc.requestCallback<_engram_ingestion_v1_GetContainerTagMergeResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/container-tags/list.
   */
  ListContainerTags(argument: _engram_ingestion_v1_ListContainerTagsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  ListContainerTags(argument: _engram_ingestion_v1_ListContainerTagsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ListContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  ListContainerTags(argument: _engram_ingestion_v1_ListContainerTagsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  ListContainerTags(argument: _engram_ingestion_v1_ListContainerTagsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ListContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/container-tags/list.
   */
  listContainerTags(argument: _engram_ingestion_v1_ListContainerTagsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  listContainerTags(argument: _engram_ingestion_v1_ListContainerTagsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ListContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  listContainerTags(argument: _engram_ingestion_v1_ListContainerTagsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ListContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  listContainerTags(argument: _engram_ingestion_v1_ListContainerTagsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ListContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/container-tags/merge: queues an asynchronous merge job (HTTP 202)
   * that moves the source tags' documents into the target (the gateway moved
   * their memories first) and then removes the source tags' settings.
   */
  MergeContainerTags(argument: _engram_ingestion_v1_MergeContainerTagsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_MergeContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  MergeContainerTags(argument: _engram_ingestion_v1_MergeContainerTagsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_MergeContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  MergeContainerTags(argument: _engram_ingestion_v1_MergeContainerTagsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_MergeContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  MergeContainerTags(argument: _engram_ingestion_v1_MergeContainerTagsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_MergeContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/container-tags/merge: queues an asynchronous merge job (HTTP 202)
   * that moves the source tags' documents into the target (the gateway moved
   * their memories first) and then removes the source tags' settings.
   */
  mergeContainerTags(argument: _engram_ingestion_v1_MergeContainerTagsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_MergeContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  mergeContainerTags(argument: _engram_ingestion_v1_MergeContainerTagsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_MergeContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  mergeContainerTags(argument: _engram_ingestion_v1_MergeContainerTagsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_MergeContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  mergeContainerTags(argument: _engram_ingestion_v1_MergeContainerTagsRequest, callback: grpc.requestCallback<_engram_ingestion_v1_MergeContainerTagsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Internal (SettingsService.ResetOrganization, POST /v3/settings/reset):
   * deletes every document and every container tag of the tenant except the
   * default one, whose context is cleared.
   */
  ResetTenantContent(argument: _engram_ingestion_v1_ResetTenantContentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ResetTenantContentResponse__Output>): grpc.ClientUnaryCall;
  ResetTenantContent(argument: _engram_ingestion_v1_ResetTenantContentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ResetTenantContentResponse__Output>): grpc.ClientUnaryCall;
  ResetTenantContent(argument: _engram_ingestion_v1_ResetTenantContentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ResetTenantContentResponse__Output>): grpc.ClientUnaryCall;
  ResetTenantContent(argument: _engram_ingestion_v1_ResetTenantContentRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ResetTenantContentResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Internal (SettingsService.ResetOrganization, POST /v3/settings/reset):
   * deletes every document and every container tag of the tenant except the
   * default one, whose context is cleared.
   */
  resetTenantContent(argument: _engram_ingestion_v1_ResetTenantContentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ResetTenantContentResponse__Output>): grpc.ClientUnaryCall;
  resetTenantContent(argument: _engram_ingestion_v1_ResetTenantContentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_ResetTenantContentResponse__Output>): grpc.ClientUnaryCall;
  resetTenantContent(argument: _engram_ingestion_v1_ResetTenantContentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_ResetTenantContentResponse__Output>): grpc.ClientUnaryCall;
  resetTenantContent(argument: _engram_ingestion_v1_ResetTenantContentRequest, callback: grpc.requestCallback<_engram_ingestion_v1_ResetTenantContentResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * PATCH /v3/container-tags/{containerTag}.
   */
  UpdateContainerTag(argument: _engram_ingestion_v1_UpdateContainerTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_UpdateContainerTagResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainerTag(argument: _engram_ingestion_v1_UpdateContainerTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_UpdateContainerTagResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainerTag(argument: _engram_ingestion_v1_UpdateContainerTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_UpdateContainerTagResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainerTag(argument: _engram_ingestion_v1_UpdateContainerTagRequest, callback: grpc.requestCallback<_engram_ingestion_v1_UpdateContainerTagResponse__Output>): grpc.ClientUnaryCall;
  /**
   * PATCH /v3/container-tags/{containerTag}.
   */
  updateContainerTag(argument: _engram_ingestion_v1_UpdateContainerTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_UpdateContainerTagResponse__Output>): grpc.ClientUnaryCall;
  updateContainerTag(argument: _engram_ingestion_v1_UpdateContainerTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_UpdateContainerTagResponse__Output>): grpc.ClientUnaryCall;
  updateContainerTag(argument: _engram_ingestion_v1_UpdateContainerTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_UpdateContainerTagResponse__Output>): grpc.ClientUnaryCall;
  updateContainerTag(argument: _engram_ingestion_v1_UpdateContainerTagRequest, callback: grpc.requestCallback<_engram_ingestion_v1_UpdateContainerTagResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Container tags (= v5 namespaces) as managed objects: their settings,
 * aggregate counts, deletion and merging. Owned by ingestion because a tag's
 * lifetime is the lifetime of the documents in it. Serves /v3/container-tags/*.
 */
export interface ContainerTagServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * DELETE /v3/container-tags/{containerTag}: deletes the tag's documents and
   * forgets its memories (through MemoriesService.ForgetNamespaceMemories).
   */
  DeleteContainerTag: grpc.handleUnaryCall<_engram_ingestion_v1_DeleteContainerTagRequest__Output, _engram_ingestion_v1_DeleteContainerTagResponse>;
  
  /**
   * GET /v3/container-tags/{containerTag}.
   */
  GetContainerTag: grpc.handleUnaryCall<_engram_ingestion_v1_GetContainerTagRequest__Output, _engram_ingestion_v1_GetContainerTagResponse>;
  
  /**
   * GET /v3/container-tags/merge/{mergeId}.
   */
  GetContainerTagMerge: grpc.handleUnaryCall<_engram_ingestion_v1_GetContainerTagMergeRequest__Output, _engram_ingestion_v1_GetContainerTagMergeResponse>;
  
  /**
   * GET /v3/container-tags/list.
   */
  ListContainerTags: grpc.handleUnaryCall<_engram_ingestion_v1_ListContainerTagsRequest__Output, _engram_ingestion_v1_ListContainerTagsResponse>;
  
  /**
   * POST /v3/container-tags/merge: queues an asynchronous merge job (HTTP 202)
   * that moves the source tags' documents into the target (the gateway moved
   * their memories first) and then removes the source tags' settings.
   */
  MergeContainerTags: grpc.handleUnaryCall<_engram_ingestion_v1_MergeContainerTagsRequest__Output, _engram_ingestion_v1_MergeContainerTagsResponse>;
  
  /**
   * Internal (SettingsService.ResetOrganization, POST /v3/settings/reset):
   * deletes every document and every container tag of the tenant except the
   * default one, whose context is cleared.
   */
  ResetTenantContent: grpc.handleUnaryCall<_engram_ingestion_v1_ResetTenantContentRequest__Output, _engram_ingestion_v1_ResetTenantContentResponse>;
  
  /**
   * PATCH /v3/container-tags/{containerTag}.
   */
  UpdateContainerTag: grpc.handleUnaryCall<_engram_ingestion_v1_UpdateContainerTagRequest__Output, _engram_ingestion_v1_UpdateContainerTagResponse>;
  
}

export interface ContainerTagServiceDefinition extends grpc.ServiceDefinition {
  DeleteContainerTag: MethodDefinition<_engram_ingestion_v1_DeleteContainerTagRequest, _engram_ingestion_v1_DeleteContainerTagResponse, _engram_ingestion_v1_DeleteContainerTagRequest__Output, _engram_ingestion_v1_DeleteContainerTagResponse__Output>
  GetContainerTag: MethodDefinition<_engram_ingestion_v1_GetContainerTagRequest, _engram_ingestion_v1_GetContainerTagResponse, _engram_ingestion_v1_GetContainerTagRequest__Output, _engram_ingestion_v1_GetContainerTagResponse__Output>
  GetContainerTagMerge: MethodDefinition<_engram_ingestion_v1_GetContainerTagMergeRequest, _engram_ingestion_v1_GetContainerTagMergeResponse, _engram_ingestion_v1_GetContainerTagMergeRequest__Output, _engram_ingestion_v1_GetContainerTagMergeResponse__Output>
  ListContainerTags: MethodDefinition<_engram_ingestion_v1_ListContainerTagsRequest, _engram_ingestion_v1_ListContainerTagsResponse, _engram_ingestion_v1_ListContainerTagsRequest__Output, _engram_ingestion_v1_ListContainerTagsResponse__Output>
  MergeContainerTags: MethodDefinition<_engram_ingestion_v1_MergeContainerTagsRequest, _engram_ingestion_v1_MergeContainerTagsResponse, _engram_ingestion_v1_MergeContainerTagsRequest__Output, _engram_ingestion_v1_MergeContainerTagsResponse__Output>
  ResetTenantContent: MethodDefinition<_engram_ingestion_v1_ResetTenantContentRequest, _engram_ingestion_v1_ResetTenantContentResponse, _engram_ingestion_v1_ResetTenantContentRequest__Output, _engram_ingestion_v1_ResetTenantContentResponse__Output>
  UpdateContainerTag: MethodDefinition<_engram_ingestion_v1_UpdateContainerTagRequest, _engram_ingestion_v1_UpdateContainerTagResponse, _engram_ingestion_v1_UpdateContainerTagRequest__Output, _engram_ingestion_v1_UpdateContainerTagResponse__Output>
}
