// Original file: protos/engram/ingestion/v1/conversation_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { ConversationMessage as _engram_ingestion_v1_ConversationMessage, ConversationMessage__Output as _engram_ingestion_v1_ConversationMessage__Output } from '../../../engram/ingestion/v1/ConversationMessage';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

export interface IngestConversationRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * 1 to 255 characters; the document's custom id.
   */
  'conversationId'?: (string);
  /**
   * At least one message.
   */
  'messages'?: (_engram_ingestion_v1_ConversationMessage)[];
  /**
   * Legacy containerTags; the first is the document's namespace. Empty means
   * the tenant's default namespace.
   */
  'containerTags'?: (string)[];
  /**
   * Flat metadata (string, number or boolean values).
   */
  'metadata'?: (_google_protobuf_Struct | null);
}

export interface IngestConversationRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * 1 to 255 characters; the document's custom id.
   */
  'conversationId': (string);
  /**
   * At least one message.
   */
  'messages': (_engram_ingestion_v1_ConversationMessage__Output)[];
  /**
   * Legacy containerTags; the first is the document's namespace. Empty means
   * the tenant's default namespace.
   */
  'containerTags': (string)[];
  /**
   * Flat metadata (string, number or boolean values).
   */
  'metadata': (_google_protobuf_Struct__Output | null);
}
