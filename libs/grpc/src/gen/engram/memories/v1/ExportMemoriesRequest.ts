// Original file: protos/engram/memories/v1/memories_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface ExportMemoriesRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * Opaque; empty = from the start.
   */
  'cursor'?: (string);
  /**
   * Byte budget of the records of one answer (at least one record is
   * returned). 0 = the service's default.
   */
  'maxBytes'?: (number);
}

export interface ExportMemoriesRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * Opaque; empty = from the start.
   */
  'cursor': (string);
  /**
   * Byte budget of the records of one answer (at least one record is
   * returned). 0 = the service's default.
   */
  'maxBytes': (number);
}
