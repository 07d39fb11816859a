// Original file: protos/engram/ingestion/v1/conversation_service.proto

import type { ContentPart as _engram_ingestion_v1_ContentPart, ContentPart__Output as _engram_ingestion_v1_ContentPart__Output } from '../../../engram/ingestion/v1/ContentPart';

export interface ContentPartList {
  'parts'?: (_engram_ingestion_v1_ContentPart)[];
}

export interface ContentPartList__Output {
  'parts': (_engram_ingestion_v1_ContentPart__Output)[];
}
