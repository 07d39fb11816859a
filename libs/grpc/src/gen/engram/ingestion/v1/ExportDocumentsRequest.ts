// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface ExportDocumentsRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * Opaque; empty = from the start.
   */
  'cursor'?: (string);
  /**
   * Byte budget of the records of one answer (at least one record is
   * returned even when it alone is larger). 0 = the service's default.
   */
  'maxBytes'?: (number);
}

export interface ExportDocumentsRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * Opaque; empty = from the start.
   */
  'cursor': (string);
  /**
   * Byte budget of the records of one answer (at least one record is
   * returned even when it alone is larger). 0 = the service's default.
   */
  'maxBytes': (number);
}
