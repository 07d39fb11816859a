// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface ImportDocumentsRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * Archive document records (JSON), at most 600.
   */
  'records'?: (string)[];
  /**
   * Archive id -> id to write it under (PlanDocumentImportResponse.new_ids).
   */
  'newIds'?: ({[key: string]: string});
}

export interface ImportDocumentsRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * Archive document records (JSON), at most 600.
   */
  'records': (string)[];
  /**
   * Archive id -> id to write it under (PlanDocumentImportResponse.new_ids).
   */
  'newIds': ({[key: string]: string});
}
