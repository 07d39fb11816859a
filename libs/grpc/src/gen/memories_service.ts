import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from './engram/common/v1/CallContext';
import type { Chunk as _engram_common_v1_Chunk, Chunk__Output as _engram_common_v1_Chunk__Output } from './engram/common/v1/Chunk';
import type { Filter as _engram_common_v1_Filter, Filter__Output as _engram_common_v1_Filter__Output } from './engram/common/v1/Filter';
import type { PageRequest as _engram_common_v1_PageRequest, PageRequest__Output as _engram_common_v1_PageRequest__Output } from './engram/common/v1/PageRequest';
import type { Pagination as _engram_common_v1_Pagination, Pagination__Output as _engram_common_v1_Pagination__Output } from './engram/common/v1/Pagination';
import type { ProfileBucket as _engram_common_v1_ProfileBucket, ProfileBucket__Output as _engram_common_v1_ProfileBucket__Output } from './engram/common/v1/ProfileBucket';
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

