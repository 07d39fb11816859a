// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { DocumentInput as _engram_ingestion_v1_DocumentInput, DocumentInput__Output as _engram_ingestion_v1_DocumentInput__Output } from '../../../engram/ingestion/v1/DocumentInput';
import type { TaskType as _engram_common_v1_TaskType, TaskType__Output as _engram_common_v1_TaskType__Output } from '../../../engram/common/v1/TaskType';
import type { Dreaming as _engram_common_v1_Dreaming, Dreaming__Output as _engram_common_v1_Dreaming__Output } from '../../../engram/common/v1/Dreaming';

export interface UpdateDocumentRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'namespace'?: (string);
  'id'?: (string);
  /**
   * Only the fields present in update_mask are changed.
   */
  'document'?: (_engram_ingestion_v1_DocumentInput | null);
  'updateMask'?: (string)[];
  'taskType'?: (_engram_common_v1_TaskType);
  'dreaming'?: (_engram_common_v1_Dreaming);
  'containerTags'?: (string)[];
}

export interface UpdateDocumentRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'namespace': (string);
  'id': (string);
  /**
   * Only the fields present in update_mask are changed.
   */
  'document': (_engram_ingestion_v1_DocumentInput__Output | null);
  'updateMask': (string)[];
  'taskType': (_engram_common_v1_TaskType__Output);
  'dreaming': (_engram_common_v1_Dreaming__Output);
  'containerTags': (string)[];
}
