// Original file: protos/engram/connections/v1/connections_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface ListConnectionsRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * Empty = every connection of the tenant.
   */
  'containerTags'?: (string)[];
}

export interface ListConnectionsRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * Empty = every connection of the tenant.
   */
  'containerTags': (string)[];
}
