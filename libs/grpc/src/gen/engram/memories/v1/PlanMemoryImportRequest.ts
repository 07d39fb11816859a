// Original file: protos/engram/memories/v1/memories_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface PlanMemoryImportRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'ids'?: (string)[];
}

export interface PlanMemoryImportRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'ids': (string)[];
}
