// Original file: protos/engram/events/v1/document_events.proto

import type { DocumentRef as _engram_events_v1_DocumentRef, DocumentRef__Output as _engram_events_v1_DocumentRef__Output } from '../../../engram/events/v1/DocumentRef';
import type { TaskType as _engram_common_v1_TaskType, TaskType__Output as _engram_common_v1_TaskType__Output } from '../../../engram/common/v1/TaskType';
import type { Dreaming as _engram_common_v1_Dreaming, Dreaming__Output as _engram_common_v1_Dreaming__Output } from '../../../engram/common/v1/Dreaming';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

/**
 * The pipeline finished indexing a document; memory formation starts here.
 */
export interface DocumentIndexed {
  'document'?: (_engram_events_v1_DocumentRef | null);
  'taskType'?: (_engram_common_v1_TaskType);
  'dreaming'?: (_engram_common_v1_Dreaming);
  'chunkCount'?: (number);
  'occurredAt'?: (_google_protobuf_Timestamp | null);
  'title'?: (string);
  'contentType'?: (string);
  'customId'?: (string);
}

/**
 * The pipeline finished indexing a document; memory formation starts here.
 */
export interface DocumentIndexed__Output {
  'document': (_engram_events_v1_DocumentRef__Output | null);
  'taskType': (_engram_common_v1_TaskType__Output);
  'dreaming': (_engram_common_v1_Dreaming__Output);
  'chunkCount': (number);
  'occurredAt': (_google_protobuf_Timestamp__Output | null);
  'title': (string);
  'contentType': (string);
  'customId': (string);
}
