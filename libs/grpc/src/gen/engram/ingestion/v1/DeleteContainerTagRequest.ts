// Original file: protos/engram/ingestion/v1/container_tag_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface DeleteContainerTagRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'namespace'?: (string);
}

export interface DeleteContainerTagRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'namespace': (string);
}
