import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from './engram/common/v1/CallContext';
import type { Chunk as _engram_common_v1_Chunk, Chunk__Output as _engram_common_v1_Chunk__Output } from './engram/common/v1/Chunk';
import type { Filter as _engram_common_v1_Filter, Filter__Output as _engram_common_v1_Filter__Output } from './engram/common/v1/Filter';
import type { PageRequest as _engram_common_v1_PageRequest, PageRequest__Output as _engram_common_v1_PageRequest__Output } from './engram/common/v1/PageRequest';
import type { Pagination as _engram_common_v1_Pagination, Pagination__Output as _engram_common_v1_Pagination__Output } from './engram/common/v1/Pagination';
import type { ProfileBucket as _engram_common_v1_ProfileBucket, ProfileBucket__Output as _engram_common_v1_ProfileBucket__Output } from './engram/common/v1/ProfileBucket';
import type { DocumentDeleted as _engram_events_v1_DocumentDeleted, DocumentDeleted__Output as _engram_events_v1_DocumentDeleted__Output } from './engram/events/v1/DocumentDeleted';
import type { DocumentIndexed as _engram_events_v1_DocumentIndexed, DocumentIndexed__Output as _engram_events_v1_DocumentIndexed__Output } from './engram/events/v1/DocumentIndexed';
import type { DocumentMetadataChanged as _engram_events_v1_DocumentMetadataChanged, DocumentMetadataChanged__Output as _engram_events_v1_DocumentMetadataChanged__Output } from './engram/events/v1/DocumentMetadataChanged';
import type { DocumentQueued as _engram_events_v1_DocumentQueued, DocumentQueued__Output as _engram_events_v1_DocumentQueued__Output } from './engram/events/v1/DocumentQueued';
import type { DocumentRef as _engram_events_v1_DocumentRef, DocumentRef__Output as _engram_events_v1_DocumentRef__Output } from './engram/events/v1/DocumentRef';
import type { DocumentStateChanged as _engram_events_v1_DocumentStateChanged, DocumentStateChanged__Output as _engram_events_v1_DocumentStateChanged__Output } from './engram/events/v1/DocumentStateChanged';
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
    events: {
      v1: {
        DocumentDeleted: MessageTypeDefinition<_engram_events_v1_DocumentDeleted, _engram_events_v1_DocumentDeleted__Output>
        DocumentIndexed: MessageTypeDefinition<_engram_events_v1_DocumentIndexed, _engram_events_v1_DocumentIndexed__Output>
        DocumentMetadataChanged: MessageTypeDefinition<_engram_events_v1_DocumentMetadataChanged, _engram_events_v1_DocumentMetadataChanged__Output>
        DocumentQueued: MessageTypeDefinition<_engram_events_v1_DocumentQueued, _engram_events_v1_DocumentQueued__Output>
        DocumentRef: MessageTypeDefinition<_engram_events_v1_DocumentRef, _engram_events_v1_DocumentRef__Output>
        DocumentStateChanged: MessageTypeDefinition<_engram_events_v1_DocumentStateChanged, _engram_events_v1_DocumentStateChanged__Output>
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

