// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface ImportDocumentFileHeader {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * The archive document record (JSON) with its file.
   */
  'record'?: (string);
  'newIds'?: ({[key: string]: string});
}

export interface ImportDocumentFileHeader__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * The archive document record (JSON) with its file.
   */
  'record': (string);
  'newIds': ({[key: string]: string});
}
