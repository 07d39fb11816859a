// Original file: protos/engram/connections/v1/settings_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface SuggestProfileBucketsRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * A sample of the organisation's latest memories (the gateway reads them
   * from the memories service: connections does not call memories).
   */
  'sampleMemories'?: (string)[];
}

export interface SuggestProfileBucketsRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * A sample of the organisation's latest memories (the gateway reads them
   * from the memories service: connections does not call memories).
   */
  'sampleMemories': (string)[];
}
