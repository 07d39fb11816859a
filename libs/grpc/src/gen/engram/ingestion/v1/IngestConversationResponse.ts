// Original file: protos/engram/ingestion/v1/conversation_service.proto

import type { DocumentStatus as _engram_common_v1_DocumentStatus, DocumentStatus__Output as _engram_common_v1_DocumentStatus__Output } from '../../../engram/common/v1/DocumentStatus';

export interface IngestConversationResponse {
  /**
   * Service id of the conversation's document.
   */
  'id'?: (string);
  /**
   * QUEUED when new content was queued; the current state for an unchanged
   * resend.
   */
  'status'?: (_engram_common_v1_DocumentStatus);
  'conversationId'?: (string);
  'namespace'?: (string);
}

export interface IngestConversationResponse__Output {
  /**
   * Service id of the conversation's document.
   */
  'id': (string);
  /**
   * QUEUED when new content was queued; the current state for an unchanged
   * resend.
   */
  'status': (_engram_common_v1_DocumentStatus__Output);
  'conversationId': (string);
  'namespace': (string);
}
