// Original file: protos/engram/connections/v1/connections_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface ListSyncRunsRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'connectionId'?: (string);
  /**
   * Most runs answered, 1 to 100.
   */
  'limit'?: (number);
}

export interface ListSyncRunsRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'connectionId': (string);
  /**
   * Most runs answered, 1 to 100.
   */
  'limit': (number);
}
