// Original file: protos/engram/ingestion/v1/conversation_service.proto

import type { ContentPartType as _engram_ingestion_v1_ContentPartType, ContentPartType__Output as _engram_ingestion_v1_ContentPartType__Output } from '../../../engram/ingestion/v1/ContentPartType';

/**
 * One element of the array form of a message's content.
 */
export interface ContentPart {
  'type'?: (_engram_ingestion_v1_ContentPartType);
  /**
   * For TEXT parts.
   */
  'text'?: (string);
  /**
   * For IMAGE_URL parts (REST imageUrl.url).
   */
  'imageUrl'?: (string);
}

/**
 * One element of the array form of a message's content.
 */
export interface ContentPart__Output {
  'type': (_engram_ingestion_v1_ContentPartType__Output);
  /**
   * For TEXT parts.
   */
  'text': (string);
  /**
   * For IMAGE_URL parts (REST imageUrl.url).
   */
  'imageUrl': (string);
}
