// Original file: protos/engram/memories/v1/memories_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface ForgetMemoryRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * REST containerTag; required.
   */
  'namespace'?: (string);
  'id'?: (string);
  /**
   * Exact content of the memory, when the id is not known.
   */
  'content'?: (string);
  /**
   * Stored as forget_reason.
   */
  'reason'?: (string);
  'selector'?: "id"|"content";
}

export interface ForgetMemoryRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * REST containerTag; required.
   */
  'namespace': (string);
  'id'?: (string);
  /**
   * Exact content of the memory, when the id is not known.
   */
  'content'?: (string);
  /**
   * Stored as forget_reason.
   */
  'reason': (string);
  'selector'?: "id"|"content";
}
