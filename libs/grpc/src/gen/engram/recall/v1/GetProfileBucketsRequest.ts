// Original file: protos/engram/recall/v1/recall_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface GetProfileBucketsRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'namespace'?: (string);
}

export interface GetProfileBucketsRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'namespace': (string);
}
