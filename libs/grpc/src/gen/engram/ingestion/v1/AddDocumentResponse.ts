// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { DocumentStatus as _engram_common_v1_DocumentStatus, DocumentStatus__Output as _engram_common_v1_DocumentStatus__Output } from '../../../engram/common/v1/DocumentStatus';

export interface AddDocumentResponse {
  'id'?: (string);
  'status'?: (_engram_common_v1_DocumentStatus);
  /**
   * The namespace the document lives in (useful for legacy callers).
   */
  'namespace'?: (string);
  'customId'?: (string);
}

export interface AddDocumentResponse__Output {
  'id': (string);
  'status': (_engram_common_v1_DocumentStatus__Output);
  /**
   * The namespace the document lives in (useful for legacy callers).
   */
  'namespace': (string);
  'customId': (string);
}
