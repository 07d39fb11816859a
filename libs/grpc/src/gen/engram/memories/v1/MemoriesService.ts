// Original file: protos/engram/memories/v1/memories_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BatchGetMemoriesRequest as _engram_memories_v1_BatchGetMemoriesRequest, BatchGetMemoriesRequest__Output as _engram_memories_v1_BatchGetMemoriesRequest__Output } from '../../../engram/memories/v1/BatchGetMemoriesRequest';
import type { BatchGetMemoriesResponse as _engram_memories_v1_BatchGetMemoriesResponse, BatchGetMemoriesResponse__Output as _engram_memories_v1_BatchGetMemoriesResponse__Output } from '../../../engram/memories/v1/BatchGetMemoriesResponse';
import type { CountNamespaceMemoriesRequest as _engram_memories_v1_CountNamespaceMemoriesRequest, CountNamespaceMemoriesRequest__Output as _engram_memories_v1_CountNamespaceMemoriesRequest__Output } from '../../../engram/memories/v1/CountNamespaceMemoriesRequest';
import type { CountNamespaceMemoriesResponse as _engram_memories_v1_CountNamespaceMemoriesResponse, CountNamespaceMemoriesResponse__Output as _engram_memories_v1_CountNamespaceMemoriesResponse__Output } from '../../../engram/memories/v1/CountNamespaceMemoriesResponse';
import type { CreateMemoriesRequest as _engram_memories_v1_CreateMemoriesRequest, CreateMemoriesRequest__Output as _engram_memories_v1_CreateMemoriesRequest__Output } from '../../../engram/memories/v1/CreateMemoriesRequest';
import type { CreateMemoriesResponse as _engram_memories_v1_CreateMemoriesResponse, CreateMemoriesResponse__Output as _engram_memories_v1_CreateMemoriesResponse__Output } from '../../../engram/memories/v1/CreateMemoriesResponse';
import type { ExportMemoriesRequest as _engram_memories_v1_ExportMemoriesRequest, ExportMemoriesRequest__Output as _engram_memories_v1_ExportMemoriesRequest__Output } from '../../../engram/memories/v1/ExportMemoriesRequest';
import type { ExportMemoriesResponse as _engram_memories_v1_ExportMemoriesResponse, ExportMemoriesResponse__Output as _engram_memories_v1_ExportMemoriesResponse__Output } from '../../../engram/memories/v1/ExportMemoriesResponse';
import type { ForgetMatchingMemoriesRequest as _engram_memories_v1_ForgetMatchingMemoriesRequest, ForgetMatchingMemoriesRequest__Output as _engram_memories_v1_ForgetMatchingMemoriesRequest__Output } from '../../../engram/memories/v1/ForgetMatchingMemoriesRequest';
import type { ForgetMatchingMemoriesResponse as _engram_memories_v1_ForgetMatchingMemoriesResponse, ForgetMatchingMemoriesResponse__Output as _engram_memories_v1_ForgetMatchingMemoriesResponse__Output } from '../../../engram/memories/v1/ForgetMatchingMemoriesResponse';
import type { ForgetMemoriesByIdsRequest as _engram_memories_v1_ForgetMemoriesByIdsRequest, ForgetMemoriesByIdsRequest__Output as _engram_memories_v1_ForgetMemoriesByIdsRequest__Output } from '../../../engram/memories/v1/ForgetMemoriesByIdsRequest';
import type { ForgetMemoriesByIdsResponse as _engram_memories_v1_ForgetMemoriesByIdsResponse, ForgetMemoriesByIdsResponse__Output as _engram_memories_v1_ForgetMemoriesByIdsResponse__Output } from '../../../engram/memories/v1/ForgetMemoriesByIdsResponse';
import type { ForgetMemoriesByQueryRequest as _engram_memories_v1_ForgetMemoriesByQueryRequest, ForgetMemoriesByQueryRequest__Output as _engram_memories_v1_ForgetMemoriesByQueryRequest__Output } from '../../../engram/memories/v1/ForgetMemoriesByQueryRequest';
import type { ForgetMemoriesByQueryResponse as _engram_memories_v1_ForgetMemoriesByQueryResponse, ForgetMemoriesByQueryResponse__Output as _engram_memories_v1_ForgetMemoriesByQueryResponse__Output } from '../../../engram/memories/v1/ForgetMemoriesByQueryResponse';
import type { ForgetMemoryRequest as _engram_memories_v1_ForgetMemoryRequest, ForgetMemoryRequest__Output as _engram_memories_v1_ForgetMemoryRequest__Output } from '../../../engram/memories/v1/ForgetMemoryRequest';
import type { ForgetMemoryResponse as _engram_memories_v1_ForgetMemoryResponse, ForgetMemoryResponse__Output as _engram_memories_v1_ForgetMemoryResponse__Output } from '../../../engram/memories/v1/ForgetMemoryResponse';
import type { ForgetNamespaceMemoriesRequest as _engram_memories_v1_ForgetNamespaceMemoriesRequest, ForgetNamespaceMemoriesRequest__Output as _engram_memories_v1_ForgetNamespaceMemoriesRequest__Output } from '../../../engram/memories/v1/ForgetNamespaceMemoriesRequest';
import type { ForgetNamespaceMemoriesResponse as _engram_memories_v1_ForgetNamespaceMemoriesResponse, ForgetNamespaceMemoriesResponse__Output as _engram_memories_v1_ForgetNamespaceMemoriesResponse__Output } from '../../../engram/memories/v1/ForgetNamespaceMemoriesResponse';
import type { ImportMemoriesRequest as _engram_memories_v1_ImportMemoriesRequest, ImportMemoriesRequest__Output as _engram_memories_v1_ImportMemoriesRequest__Output } from '../../../engram/memories/v1/ImportMemoriesRequest';
import type { ImportMemoriesResponse as _engram_memories_v1_ImportMemoriesResponse, ImportMemoriesResponse__Output as _engram_memories_v1_ImportMemoriesResponse__Output } from '../../../engram/memories/v1/ImportMemoriesResponse';
import type { ListDocumentMemoriesRequest as _engram_memories_v1_ListDocumentMemoriesRequest, ListDocumentMemoriesRequest__Output as _engram_memories_v1_ListDocumentMemoriesRequest__Output } from '../../../engram/memories/v1/ListDocumentMemoriesRequest';
import type { ListDocumentMemoriesResponse as _engram_memories_v1_ListDocumentMemoriesResponse, ListDocumentMemoriesResponse__Output as _engram_memories_v1_ListDocumentMemoriesResponse__Output } from '../../../engram/memories/v1/ListDocumentMemoriesResponse';
import type { ListMemoriesRequest as _engram_memories_v1_ListMemoriesRequest, ListMemoriesRequest__Output as _engram_memories_v1_ListMemoriesRequest__Output } from '../../../engram/memories/v1/ListMemoriesRequest';
import type { ListMemoriesResponse as _engram_memories_v1_ListMemoriesResponse, ListMemoriesResponse__Output as _engram_memories_v1_ListMemoriesResponse__Output } from '../../../engram/memories/v1/ListMemoriesResponse';
import type { MoveNamespaceMemoriesRequest as _engram_memories_v1_MoveNamespaceMemoriesRequest, MoveNamespaceMemoriesRequest__Output as _engram_memories_v1_MoveNamespaceMemoriesRequest__Output } from '../../../engram/memories/v1/MoveNamespaceMemoriesRequest';
import type { MoveNamespaceMemoriesResponse as _engram_memories_v1_MoveNamespaceMemoriesResponse, MoveNamespaceMemoriesResponse__Output as _engram_memories_v1_MoveNamespaceMemoriesResponse__Output } from '../../../engram/memories/v1/MoveNamespaceMemoriesResponse';
import type { PlanMemoryImportRequest as _engram_memories_v1_PlanMemoryImportRequest, PlanMemoryImportRequest__Output as _engram_memories_v1_PlanMemoryImportRequest__Output } from '../../../engram/memories/v1/PlanMemoryImportRequest';
import type { PlanMemoryImportResponse as _engram_memories_v1_PlanMemoryImportResponse, PlanMemoryImportResponse__Output as _engram_memories_v1_PlanMemoryImportResponse__Output } from '../../../engram/memories/v1/PlanMemoryImportResponse';
import type { PurgeTenantMemoriesRequest as _engram_memories_v1_PurgeTenantMemoriesRequest, PurgeTenantMemoriesRequest__Output as _engram_memories_v1_PurgeTenantMemoriesRequest__Output } from '../../../engram/memories/v1/PurgeTenantMemoriesRequest';
import type { PurgeTenantMemoriesResponse as _engram_memories_v1_PurgeTenantMemoriesResponse, PurgeTenantMemoriesResponse__Output as _engram_memories_v1_PurgeTenantMemoriesResponse__Output } from '../../../engram/memories/v1/PurgeTenantMemoriesResponse';
import type { UpdateMemoryRequest as _engram_memories_v1_UpdateMemoryRequest, UpdateMemoryRequest__Output as _engram_memories_v1_UpdateMemoryRequest__Output } from '../../../engram/memories/v1/UpdateMemoryRequest';
import type { UpdateMemoryResponse as _engram_memories_v1_UpdateMemoryResponse, UpdateMemoryResponse__Output as _engram_memories_v1_UpdateMemoryResponse__Output } from '../../../engram/memories/v1/UpdateMemoryResponse';

/**
 * Owns memories: long-term facts formed from documents (on DocumentIndexed)
 * or written directly, with their version chains, relations, provenance and
 * forgetting. Memories are never hard-deleted by the public API: forgetting
 * marks them is_forgotten. Serves /v4/memories*, the v5 forget endpoints and
 * the memories side of v5 reads.
 */
export interface MemoriesServiceClient extends grpc.Client {
  /**
   * Internal (recall): read memories by id to hydrate search results and
   * their version/relation context.
   */
  BatchGetMemories(argument: _engram_memories_v1_BatchGetMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_BatchGetMemoriesResponse__Output>): grpc.ClientUnaryCall;
  BatchGetMemories(argument: _engram_memories_v1_BatchGetMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_BatchGetMemoriesResponse__Output>): grpc.ClientUnaryCall;
  BatchGetMemories(argument: _engram_memories_v1_BatchGetMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_BatchGetMemoriesResponse__Output>): grpc.ClientUnaryCall;
  BatchGetMemories(argument: _engram_memories_v1_BatchGetMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_BatchGetMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Internal (recall): read memories by id to hydrate search results and
   * their version/relation context.
   */
  batchGetMemories(argument: _engram_memories_v1_BatchGetMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_BatchGetMemoriesResponse__Output>): grpc.ClientUnaryCall;
  batchGetMemories(argument: _engram_memories_v1_BatchGetMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_BatchGetMemoriesResponse__Output>): grpc.ClientUnaryCall;
  batchGetMemories(argument: _engram_memories_v1_BatchGetMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_BatchGetMemoriesResponse__Output>): grpc.ClientUnaryCall;
  batchGetMemories(argument: _engram_memories_v1_BatchGetMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_BatchGetMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Internal (ContainerTagService.ListContainerTags, GET /v3/container-tags/list):
   * per-namespace counts of latest, not forgotten memories.
   */
  CountNamespaceMemories(argument: _engram_memories_v1_CountNamespaceMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_CountNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  CountNamespaceMemories(argument: _engram_memories_v1_CountNamespaceMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_CountNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  CountNamespaceMemories(argument: _engram_memories_v1_CountNamespaceMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_CountNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  CountNamespaceMemories(argument: _engram_memories_v1_CountNamespaceMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_CountNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Internal (ContainerTagService.ListContainerTags, GET /v3/container-tags/list):
   * per-namespace counts of latest, not forgotten memories.
   */
  countNamespaceMemories(argument: _engram_memories_v1_CountNamespaceMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_CountNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  countNamespaceMemories(argument: _engram_memories_v1_CountNamespaceMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_CountNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  countNamespaceMemories(argument: _engram_memories_v1_CountNamespaceMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_CountNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  countNamespaceMemories(argument: _engram_memories_v1_CountNamespaceMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_CountNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v4/memories: write 1 to 100 memories directly, skipping the
   * document pipeline.
   */
  CreateMemories(argument: _engram_memories_v1_CreateMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_CreateMemoriesResponse__Output>): grpc.ClientUnaryCall;
  CreateMemories(argument: _engram_memories_v1_CreateMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_CreateMemoriesResponse__Output>): grpc.ClientUnaryCall;
  CreateMemories(argument: _engram_memories_v1_CreateMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_CreateMemoriesResponse__Output>): grpc.ClientUnaryCall;
  CreateMemories(argument: _engram_memories_v1_CreateMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_CreateMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v4/memories: write 1 to 100 memories directly, skipping the
   * document pipeline.
   */
  createMemories(argument: _engram_memories_v1_CreateMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_CreateMemoriesResponse__Output>): grpc.ClientUnaryCall;
  createMemories(argument: _engram_memories_v1_CreateMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_CreateMemoriesResponse__Output>): grpc.ClientUnaryCall;
  createMemories(argument: _engram_memories_v1_CreateMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_CreateMemoriesResponse__Output>): grpc.ClientUnaryCall;
  createMemories(argument: _engram_memories_v1_CreateMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_CreateMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/export: one page of the tenant's memories, every version,
   * forgotten or not, as archive records (docs/export-format.md), at most
   * max_bytes of records.
   */
  ExportMemories(argument: _engram_memories_v1_ExportMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ExportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ExportMemories(argument: _engram_memories_v1_ExportMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ExportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ExportMemories(argument: _engram_memories_v1_ExportMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ExportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ExportMemories(argument: _engram_memories_v1_ExportMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ExportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/export: one page of the tenant's memories, every version,
   * forgotten or not, as archive records (docs/export-format.md), at most
   * max_bytes of records.
   */
  exportMemories(argument: _engram_memories_v1_ExportMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ExportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  exportMemories(argument: _engram_memories_v1_ExportMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ExportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  exportMemories(argument: _engram_memories_v1_ExportMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ExportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  exportMemories(argument: _engram_memories_v1_ExportMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ExportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v4/memories/forget-matching: forget by natural-language match or
   * by an id list, with dry-run preview.
   */
  ForgetMatchingMemories(argument: _engram_memories_v1_ForgetMatchingMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMatchingMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ForgetMatchingMemories(argument: _engram_memories_v1_ForgetMatchingMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ForgetMatchingMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ForgetMatchingMemories(argument: _engram_memories_v1_ForgetMatchingMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMatchingMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ForgetMatchingMemories(argument: _engram_memories_v1_ForgetMatchingMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ForgetMatchingMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v4/memories/forget-matching: forget by natural-language match or
   * by an id list, with dry-run preview.
   */
  forgetMatchingMemories(argument: _engram_memories_v1_ForgetMatchingMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMatchingMemoriesResponse__Output>): grpc.ClientUnaryCall;
  forgetMatchingMemories(argument: _engram_memories_v1_ForgetMatchingMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ForgetMatchingMemoriesResponse__Output>): grpc.ClientUnaryCall;
  forgetMatchingMemories(argument: _engram_memories_v1_ForgetMatchingMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMatchingMemoriesResponse__Output>): grpc.ClientUnaryCall;
  forgetMatchingMemories(argument: _engram_memories_v1_ForgetMatchingMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ForgetMatchingMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * DELETE /ns/{namespace}/memories: forget exact ids.
   */
  ForgetMemoriesByIds(argument: _engram_memories_v1_ForgetMemoriesByIdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByIdsResponse__Output>): grpc.ClientUnaryCall;
  ForgetMemoriesByIds(argument: _engram_memories_v1_ForgetMemoriesByIdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByIdsResponse__Output>): grpc.ClientUnaryCall;
  ForgetMemoriesByIds(argument: _engram_memories_v1_ForgetMemoriesByIdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByIdsResponse__Output>): grpc.ClientUnaryCall;
  ForgetMemoriesByIds(argument: _engram_memories_v1_ForgetMemoriesByIdsRequest, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByIdsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DELETE /ns/{namespace}/memories: forget exact ids.
   */
  forgetMemoriesByIds(argument: _engram_memories_v1_ForgetMemoriesByIdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByIdsResponse__Output>): grpc.ClientUnaryCall;
  forgetMemoriesByIds(argument: _engram_memories_v1_ForgetMemoriesByIdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByIdsResponse__Output>): grpc.ClientUnaryCall;
  forgetMemoriesByIds(argument: _engram_memories_v1_ForgetMemoriesByIdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByIdsResponse__Output>): grpc.ClientUnaryCall;
  forgetMemoriesByIds(argument: _engram_memories_v1_ForgetMemoriesByIdsRequest, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByIdsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * DELETE /ns/{namespace}/memories/semantic: forget by query, dryRun previews.
   */
  ForgetMemoriesByQuery(argument: _engram_memories_v1_ForgetMemoriesByQueryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByQueryResponse__Output>): grpc.ClientUnaryCall;
  ForgetMemoriesByQuery(argument: _engram_memories_v1_ForgetMemoriesByQueryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByQueryResponse__Output>): grpc.ClientUnaryCall;
  ForgetMemoriesByQuery(argument: _engram_memories_v1_ForgetMemoriesByQueryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByQueryResponse__Output>): grpc.ClientUnaryCall;
  ForgetMemoriesByQuery(argument: _engram_memories_v1_ForgetMemoriesByQueryRequest, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByQueryResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DELETE /ns/{namespace}/memories/semantic: forget by query, dryRun previews.
   */
  forgetMemoriesByQuery(argument: _engram_memories_v1_ForgetMemoriesByQueryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByQueryResponse__Output>): grpc.ClientUnaryCall;
  forgetMemoriesByQuery(argument: _engram_memories_v1_ForgetMemoriesByQueryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByQueryResponse__Output>): grpc.ClientUnaryCall;
  forgetMemoriesByQuery(argument: _engram_memories_v1_ForgetMemoriesByQueryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByQueryResponse__Output>): grpc.ClientUnaryCall;
  forgetMemoriesByQuery(argument: _engram_memories_v1_ForgetMemoriesByQueryRequest, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoriesByQueryResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * DELETE /v4/memories: forget one memory (by id or exact content).
   * NOT_FOUND when there is no such memory; ALREADY_EXISTS (HTTP 409) when it
   * is already forgotten.
   */
  ForgetMemory(argument: _engram_memories_v1_ForgetMemoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoryResponse__Output>): grpc.ClientUnaryCall;
  ForgetMemory(argument: _engram_memories_v1_ForgetMemoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoryResponse__Output>): grpc.ClientUnaryCall;
  ForgetMemory(argument: _engram_memories_v1_ForgetMemoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoryResponse__Output>): grpc.ClientUnaryCall;
  ForgetMemory(argument: _engram_memories_v1_ForgetMemoryRequest, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoryResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DELETE /v4/memories: forget one memory (by id or exact content).
   * NOT_FOUND when there is no such memory; ALREADY_EXISTS (HTTP 409) when it
   * is already forgotten.
   */
  forgetMemory(argument: _engram_memories_v1_ForgetMemoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoryResponse__Output>): grpc.ClientUnaryCall;
  forgetMemory(argument: _engram_memories_v1_ForgetMemoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoryResponse__Output>): grpc.ClientUnaryCall;
  forgetMemory(argument: _engram_memories_v1_ForgetMemoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoryResponse__Output>): grpc.ClientUnaryCall;
  forgetMemory(argument: _engram_memories_v1_ForgetMemoryRequest, callback: grpc.requestCallback<_engram_memories_v1_ForgetMemoryResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Internal (ContainerTagService.DeleteContainerTag,
   * DELETE /v3/container-tags/{containerTag}): forget every memory of a namespace.
   */
  ForgetNamespaceMemories(argument: _engram_memories_v1_ForgetNamespaceMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ForgetNamespaceMemories(argument: _engram_memories_v1_ForgetNamespaceMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ForgetNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ForgetNamespaceMemories(argument: _engram_memories_v1_ForgetNamespaceMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ForgetNamespaceMemories(argument: _engram_memories_v1_ForgetNamespaceMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ForgetNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Internal (ContainerTagService.DeleteContainerTag,
   * DELETE /v3/container-tags/{containerTag}): forget every memory of a namespace.
   */
  forgetNamespaceMemories(argument: _engram_memories_v1_ForgetNamespaceMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  forgetNamespaceMemories(argument: _engram_memories_v1_ForgetNamespaceMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ForgetNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  forgetNamespaceMemories(argument: _engram_memories_v1_ForgetNamespaceMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ForgetNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  forgetNamespaceMemories(argument: _engram_memories_v1_ForgetNamespaceMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ForgetNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/import: writes archive memory records (ids, versions, relations
   * and provenance remapped) and marks the imported documents' generations as
   * formed, so re-indexing them forms no memory twice.
   */
  ImportMemories(argument: _engram_memories_v1_ImportMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ImportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ImportMemories(argument: _engram_memories_v1_ImportMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ImportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ImportMemories(argument: _engram_memories_v1_ImportMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ImportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ImportMemories(argument: _engram_memories_v1_ImportMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ImportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/import: writes archive memory records (ids, versions, relations
   * and provenance remapped) and marks the imported documents' generations as
   * formed, so re-indexing them forms no memory twice.
   */
  importMemories(argument: _engram_memories_v1_ImportMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ImportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  importMemories(argument: _engram_memories_v1_ImportMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ImportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  importMemories(argument: _engram_memories_v1_ImportMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ImportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  importMemories(argument: _engram_memories_v1_ImportMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ImportMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Internal: the memories formed from one document
   * (GET /ns/{namespace}/document/{id}?include=memories).
   */
  ListDocumentMemories(argument: _engram_memories_v1_ListDocumentMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ListDocumentMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ListDocumentMemories(argument: _engram_memories_v1_ListDocumentMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ListDocumentMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ListDocumentMemories(argument: _engram_memories_v1_ListDocumentMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ListDocumentMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ListDocumentMemories(argument: _engram_memories_v1_ListDocumentMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ListDocumentMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Internal: the memories formed from one document
   * (GET /ns/{namespace}/document/{id}?include=memories).
   */
  listDocumentMemories(argument: _engram_memories_v1_ListDocumentMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ListDocumentMemoriesResponse__Output>): grpc.ClientUnaryCall;
  listDocumentMemories(argument: _engram_memories_v1_ListDocumentMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ListDocumentMemoriesResponse__Output>): grpc.ClientUnaryCall;
  listDocumentMemories(argument: _engram_memories_v1_ListDocumentMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ListDocumentMemoriesResponse__Output>): grpc.ClientUnaryCall;
  listDocumentMemories(argument: _engram_memories_v1_ListDocumentMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ListDocumentMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v4/memories/list (with history), POST /ns/{namespace}/list/memories.
   */
  ListMemories(argument: _engram_memories_v1_ListMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ListMemories(argument: _engram_memories_v1_ListMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ListMemories(argument: _engram_memories_v1_ListMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ListMemories(argument: _engram_memories_v1_ListMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v4/memories/list (with history), POST /ns/{namespace}/list/memories.
   */
  listMemories(argument: _engram_memories_v1_ListMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  listMemories(argument: _engram_memories_v1_ListMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  listMemories(argument: _engram_memories_v1_ListMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  listMemories(argument: _engram_memories_v1_ListMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Internal (ContainerTagService merge job, POST /v3/container-tags/merge):
   * move every memory of the source namespaces into the target.
   */
  MoveNamespaceMemories(argument: _engram_memories_v1_MoveNamespaceMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_MoveNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  MoveNamespaceMemories(argument: _engram_memories_v1_MoveNamespaceMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_MoveNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  MoveNamespaceMemories(argument: _engram_memories_v1_MoveNamespaceMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_MoveNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  MoveNamespaceMemories(argument: _engram_memories_v1_MoveNamespaceMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_MoveNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Internal (ContainerTagService merge job, POST /v3/container-tags/merge):
   * move every memory of the source namespaces into the target.
   */
  moveNamespaceMemories(argument: _engram_memories_v1_MoveNamespaceMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_MoveNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  moveNamespaceMemories(argument: _engram_memories_v1_MoveNamespaceMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_MoveNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  moveNamespaceMemories(argument: _engram_memories_v1_MoveNamespaceMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_MoveNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  moveNamespaceMemories(argument: _engram_memories_v1_MoveNamespaceMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_MoveNamespaceMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/import: archive memory ids taken on this instance get new ones.
   */
  PlanMemoryImport(argument: _engram_memories_v1_PlanMemoryImportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_PlanMemoryImportResponse__Output>): grpc.ClientUnaryCall;
  PlanMemoryImport(argument: _engram_memories_v1_PlanMemoryImportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_PlanMemoryImportResponse__Output>): grpc.ClientUnaryCall;
  PlanMemoryImport(argument: _engram_memories_v1_PlanMemoryImportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_PlanMemoryImportResponse__Output>): grpc.ClientUnaryCall;
  PlanMemoryImport(argument: _engram_memories_v1_PlanMemoryImportRequest, callback: grpc.requestCallback<_engram_memories_v1_PlanMemoryImportResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/import: archive memory ids taken on this instance get new ones.
   */
  planMemoryImport(argument: _engram_memories_v1_PlanMemoryImportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_PlanMemoryImportResponse__Output>): grpc.ClientUnaryCall;
  planMemoryImport(argument: _engram_memories_v1_PlanMemoryImportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_PlanMemoryImportResponse__Output>): grpc.ClientUnaryCall;
  planMemoryImport(argument: _engram_memories_v1_PlanMemoryImportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_PlanMemoryImportResponse__Output>): grpc.ClientUnaryCall;
  planMemoryImport(argument: _engram_memories_v1_PlanMemoryImportRequest, callback: grpc.requestCallback<_engram_memories_v1_PlanMemoryImportResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Internal (SettingsService.ResetOrganization, POST /v3/settings/reset):
   * permanently remove every memory row of the tenant.
   */
  PurgeTenantMemories(argument: _engram_memories_v1_PurgeTenantMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_PurgeTenantMemoriesResponse__Output>): grpc.ClientUnaryCall;
  PurgeTenantMemories(argument: _engram_memories_v1_PurgeTenantMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_PurgeTenantMemoriesResponse__Output>): grpc.ClientUnaryCall;
  PurgeTenantMemories(argument: _engram_memories_v1_PurgeTenantMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_PurgeTenantMemoriesResponse__Output>): grpc.ClientUnaryCall;
  PurgeTenantMemories(argument: _engram_memories_v1_PurgeTenantMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_PurgeTenantMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Internal (SettingsService.ResetOrganization, POST /v3/settings/reset):
   * permanently remove every memory row of the tenant.
   */
  purgeTenantMemories(argument: _engram_memories_v1_PurgeTenantMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_PurgeTenantMemoriesResponse__Output>): grpc.ClientUnaryCall;
  purgeTenantMemories(argument: _engram_memories_v1_PurgeTenantMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_PurgeTenantMemoriesResponse__Output>): grpc.ClientUnaryCall;
  purgeTenantMemories(argument: _engram_memories_v1_PurgeTenantMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_PurgeTenantMemoriesResponse__Output>): grpc.ClientUnaryCall;
  purgeTenantMemories(argument: _engram_memories_v1_PurgeTenantMemoriesRequest, callback: grpc.requestCallback<_engram_memories_v1_PurgeTenantMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * PATCH /v4/memories: creates a new version; the old one keeps
   * is_latest = false.
   */
  UpdateMemory(argument: _engram_memories_v1_UpdateMemoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  UpdateMemory(argument: _engram_memories_v1_UpdateMemoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  UpdateMemory(argument: _engram_memories_v1_UpdateMemoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  UpdateMemory(argument: _engram_memories_v1_UpdateMemoryRequest, callback: grpc.requestCallback<_engram_memories_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  /**
   * PATCH /v4/memories: creates a new version; the old one keeps
   * is_latest = false.
   */
  updateMemory(argument: _engram_memories_v1_UpdateMemoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  updateMemory(argument: _engram_memories_v1_UpdateMemoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_memories_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  updateMemory(argument: _engram_memories_v1_UpdateMemoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_memories_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  updateMemory(argument: _engram_memories_v1_UpdateMemoryRequest, callback: grpc.requestCallback<_engram_memories_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Owns memories: long-term facts formed from documents (on DocumentIndexed)
 * or written directly, with their version chains, relations, provenance and
 * forgetting. Memories are never hard-deleted by the public API: forgetting
 * marks them is_forgotten. Serves /v4/memories*, the v5 forget endpoints and
 * the memories side of v5 reads.
 */
export interface MemoriesServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Internal (recall): read memories by id to hydrate search results and
   * their version/relation context.
   */
  BatchGetMemories: grpc.handleUnaryCall<_engram_memories_v1_BatchGetMemoriesRequest__Output, _engram_memories_v1_BatchGetMemoriesResponse>;
  
  /**
   * Internal (ContainerTagService.ListContainerTags, GET /v3/container-tags/list):
   * per-namespace counts of latest, not forgotten memories.
   */
  CountNamespaceMemories: grpc.handleUnaryCall<_engram_memories_v1_CountNamespaceMemoriesRequest__Output, _engram_memories_v1_CountNamespaceMemoriesResponse>;
  
  /**
   * POST /v4/memories: write 1 to 100 memories directly, skipping the
   * document pipeline.
   */
  CreateMemories: grpc.handleUnaryCall<_engram_memories_v1_CreateMemoriesRequest__Output, _engram_memories_v1_CreateMemoriesResponse>;
  
  /**
   * GET /v3/export: one page of the tenant's memories, every version,
   * forgotten or not, as archive records (docs/export-format.md), at most
   * max_bytes of records.
   */
  ExportMemories: grpc.handleUnaryCall<_engram_memories_v1_ExportMemoriesRequest__Output, _engram_memories_v1_ExportMemoriesResponse>;
  
  /**
   * POST /v4/memories/forget-matching: forget by natural-language match or
   * by an id list, with dry-run preview.
   */
  ForgetMatchingMemories: grpc.handleUnaryCall<_engram_memories_v1_ForgetMatchingMemoriesRequest__Output, _engram_memories_v1_ForgetMatchingMemoriesResponse>;
  
  /**
   * DELETE /ns/{namespace}/memories: forget exact ids.
   */
  ForgetMemoriesByIds: grpc.handleUnaryCall<_engram_memories_v1_ForgetMemoriesByIdsRequest__Output, _engram_memories_v1_ForgetMemoriesByIdsResponse>;
  
  /**
   * DELETE /ns/{namespace}/memories/semantic: forget by query, dryRun previews.
   */
  ForgetMemoriesByQuery: grpc.handleUnaryCall<_engram_memories_v1_ForgetMemoriesByQueryRequest__Output, _engram_memories_v1_ForgetMemoriesByQueryResponse>;
  
  /**
   * DELETE /v4/memories: forget one memory (by id or exact content).
   * NOT_FOUND when there is no such memory; ALREADY_EXISTS (HTTP 409) when it
   * is already forgotten.
   */
  ForgetMemory: grpc.handleUnaryCall<_engram_memories_v1_ForgetMemoryRequest__Output, _engram_memories_v1_ForgetMemoryResponse>;
  
  /**
   * Internal (ContainerTagService.DeleteContainerTag,
   * DELETE /v3/container-tags/{containerTag}): forget every memory of a namespace.
   */
  ForgetNamespaceMemories: grpc.handleUnaryCall<_engram_memories_v1_ForgetNamespaceMemoriesRequest__Output, _engram_memories_v1_ForgetNamespaceMemoriesResponse>;
  
  /**
   * POST /v3/import: writes archive memory records (ids, versions, relations
   * and provenance remapped) and marks the imported documents' generations as
   * formed, so re-indexing them forms no memory twice.
   */
  ImportMemories: grpc.handleUnaryCall<_engram_memories_v1_ImportMemoriesRequest__Output, _engram_memories_v1_ImportMemoriesResponse>;
  
  /**
   * Internal: the memories formed from one document
   * (GET /ns/{namespace}/document/{id}?include=memories).
   */
  ListDocumentMemories: grpc.handleUnaryCall<_engram_memories_v1_ListDocumentMemoriesRequest__Output, _engram_memories_v1_ListDocumentMemoriesResponse>;
  
  /**
   * POST /v4/memories/list (with history), POST /ns/{namespace}/list/memories.
   */
  ListMemories: grpc.handleUnaryCall<_engram_memories_v1_ListMemoriesRequest__Output, _engram_memories_v1_ListMemoriesResponse>;
  
  /**
   * Internal (ContainerTagService merge job, POST /v3/container-tags/merge):
   * move every memory of the source namespaces into the target.
   */
  MoveNamespaceMemories: grpc.handleUnaryCall<_engram_memories_v1_MoveNamespaceMemoriesRequest__Output, _engram_memories_v1_MoveNamespaceMemoriesResponse>;
  
  /**
   * POST /v3/import: archive memory ids taken on this instance get new ones.
   */
  PlanMemoryImport: grpc.handleUnaryCall<_engram_memories_v1_PlanMemoryImportRequest__Output, _engram_memories_v1_PlanMemoryImportResponse>;
  
  /**
   * Internal (SettingsService.ResetOrganization, POST /v3/settings/reset):
   * permanently remove every memory row of the tenant.
   */
  PurgeTenantMemories: grpc.handleUnaryCall<_engram_memories_v1_PurgeTenantMemoriesRequest__Output, _engram_memories_v1_PurgeTenantMemoriesResponse>;
  
  /**
   * PATCH /v4/memories: creates a new version; the old one keeps
   * is_latest = false.
   */
  UpdateMemory: grpc.handleUnaryCall<_engram_memories_v1_UpdateMemoryRequest__Output, _engram_memories_v1_UpdateMemoryResponse>;
  
}

export interface MemoriesServiceDefinition extends grpc.ServiceDefinition {
  BatchGetMemories: MethodDefinition<_engram_memories_v1_BatchGetMemoriesRequest, _engram_memories_v1_BatchGetMemoriesResponse, _engram_memories_v1_BatchGetMemoriesRequest__Output, _engram_memories_v1_BatchGetMemoriesResponse__Output>
  CountNamespaceMemories: MethodDefinition<_engram_memories_v1_CountNamespaceMemoriesRequest, _engram_memories_v1_CountNamespaceMemoriesResponse, _engram_memories_v1_CountNamespaceMemoriesRequest__Output, _engram_memories_v1_CountNamespaceMemoriesResponse__Output>
  CreateMemories: MethodDefinition<_engram_memories_v1_CreateMemoriesRequest, _engram_memories_v1_CreateMemoriesResponse, _engram_memories_v1_CreateMemoriesRequest__Output, _engram_memories_v1_CreateMemoriesResponse__Output>
  ExportMemories: MethodDefinition<_engram_memories_v1_ExportMemoriesRequest, _engram_memories_v1_ExportMemoriesResponse, _engram_memories_v1_ExportMemoriesRequest__Output, _engram_memories_v1_ExportMemoriesResponse__Output>
  ForgetMatchingMemories: MethodDefinition<_engram_memories_v1_ForgetMatchingMemoriesRequest, _engram_memories_v1_ForgetMatchingMemoriesResponse, _engram_memories_v1_ForgetMatchingMemoriesRequest__Output, _engram_memories_v1_ForgetMatchingMemoriesResponse__Output>
  ForgetMemoriesByIds: MethodDefinition<_engram_memories_v1_ForgetMemoriesByIdsRequest, _engram_memories_v1_ForgetMemoriesByIdsResponse, _engram_memories_v1_ForgetMemoriesByIdsRequest__Output, _engram_memories_v1_ForgetMemoriesByIdsResponse__Output>
  ForgetMemoriesByQuery: MethodDefinition<_engram_memories_v1_ForgetMemoriesByQueryRequest, _engram_memories_v1_ForgetMemoriesByQueryResponse, _engram_memories_v1_ForgetMemoriesByQueryRequest__Output, _engram_memories_v1_ForgetMemoriesByQueryResponse__Output>
  ForgetMemory: MethodDefinition<_engram_memories_v1_ForgetMemoryRequest, _engram_memories_v1_ForgetMemoryResponse, _engram_memories_v1_ForgetMemoryRequest__Output, _engram_memories_v1_ForgetMemoryResponse__Output>
  ForgetNamespaceMemories: MethodDefinition<_engram_memories_v1_ForgetNamespaceMemoriesRequest, _engram_memories_v1_ForgetNamespaceMemoriesResponse, _engram_memories_v1_ForgetNamespaceMemoriesRequest__Output, _engram_memories_v1_ForgetNamespaceMemoriesResponse__Output>
  ImportMemories: MethodDefinition<_engram_memories_v1_ImportMemoriesRequest, _engram_memories_v1_ImportMemoriesResponse, _engram_memories_v1_ImportMemoriesRequest__Output, _engram_memories_v1_ImportMemoriesResponse__Output>
  ListDocumentMemories: MethodDefinition<_engram_memories_v1_ListDocumentMemoriesRequest, _engram_memories_v1_ListDocumentMemoriesResponse, _engram_memories_v1_ListDocumentMemoriesRequest__Output, _engram_memories_v1_ListDocumentMemoriesResponse__Output>
  ListMemories: MethodDefinition<_engram_memories_v1_ListMemoriesRequest, _engram_memories_v1_ListMemoriesResponse, _engram_memories_v1_ListMemoriesRequest__Output, _engram_memories_v1_ListMemoriesResponse__Output>
  MoveNamespaceMemories: MethodDefinition<_engram_memories_v1_MoveNamespaceMemoriesRequest, _engram_memories_v1_MoveNamespaceMemoriesResponse, _engram_memories_v1_MoveNamespaceMemoriesRequest__Output, _engram_memories_v1_MoveNamespaceMemoriesResponse__Output>
  PlanMemoryImport: MethodDefinition<_engram_memories_v1_PlanMemoryImportRequest, _engram_memories_v1_PlanMemoryImportResponse, _engram_memories_v1_PlanMemoryImportRequest__Output, _engram_memories_v1_PlanMemoryImportResponse__Output>
  PurgeTenantMemories: MethodDefinition<_engram_memories_v1_PurgeTenantMemoriesRequest, _engram_memories_v1_PurgeTenantMemoriesResponse, _engram_memories_v1_PurgeTenantMemoriesRequest__Output, _engram_memories_v1_PurgeTenantMemoriesResponse__Output>
  UpdateMemory: MethodDefinition<_engram_memories_v1_UpdateMemoryRequest, _engram_memories_v1_UpdateMemoryResponse, _engram_memories_v1_UpdateMemoryRequest__Output, _engram_memories_v1_UpdateMemoryResponse__Output>
}
