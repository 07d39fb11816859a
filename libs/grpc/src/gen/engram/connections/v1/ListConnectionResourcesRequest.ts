// Original file: protos/engram/connections/v1/connections_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface ListConnectionResourcesRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'connectionId'?: (string);
  /**
   * 1-based; 0 = 1.
   */
  'page'?: (number);
  /**
   * 0 = 30.
   */
  'perPage'?: (number);
  /**
   * List the children of this resource (folders); empty = top level.
   */
  'parentId'?: (string);
}

export interface ListConnectionResourcesRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'connectionId': (string);
  /**
   * 1-based; 0 = 1.
   */
  'page': (number);
  /**
   * 0 = 30.
   */
  'perPage': (number);
  /**
   * List the children of this resource (folders); empty = top level.
   */
  'parentId': (string);
}
