// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface GetDocumentRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * Empty for legacy reads, which resolve the id across the tenant.
   */
  'namespace'?: (string);
  /**
   * Service id or caller-defined id.
   */
  'id'?: (string);
  /**
   * GetDocument only: the record without its content (callers that never read it).
   */
  'omitContent'?: (boolean);
}

export interface GetDocumentRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * Empty for legacy reads, which resolve the id across the tenant.
   */
  'namespace': (string);
  /**
   * Service id or caller-defined id.
   */
  'id': (string);
  /**
   * GetDocument only: the record without its content (callers that never read it).
   */
  'omitContent': (boolean);
}
