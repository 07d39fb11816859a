// Original file: protos/engram/ingestion/v1/conversation_service.proto

import type { MessageRole as _engram_ingestion_v1_MessageRole, MessageRole__Output as _engram_ingestion_v1_MessageRole__Output } from '../../../engram/ingestion/v1/MessageRole';
import type { ContentPartList as _engram_ingestion_v1_ContentPartList, ContentPartList__Output as _engram_ingestion_v1_ContentPartList__Output } from '../../../engram/ingestion/v1/ContentPartList';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value';

export interface ConversationMessage {
  'role'?: (_engram_ingestion_v1_MessageRole);
  'text'?: (string);
  'parts'?: (_engram_ingestion_v1_ContentPartList | null);
  'name'?: (string);
  /**
   * Tool calls exactly as sent (free-form JSON values).
   */
  'toolCalls'?: (_google_protobuf_Value)[];
  'toolCallId'?: (string);
  /**
   * REST content is either a string or an array of parts; the form is kept.
   */
  'content'?: "text"|"parts";
}

export interface ConversationMessage__Output {
  'role': (_engram_ingestion_v1_MessageRole__Output);
  'text'?: (string);
  'parts'?: (_engram_ingestion_v1_ContentPartList__Output | null);
  'name': (string);
  /**
   * Tool calls exactly as sent (free-form JSON values).
   */
  'toolCalls': (_google_protobuf_Value__Output)[];
  'toolCallId': (string);
  /**
   * REST content is either a string or an array of parts; the form is kept.
   */
  'content'?: "text"|"parts";
}
