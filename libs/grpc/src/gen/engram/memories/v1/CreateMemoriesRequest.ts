// Original file: protos/engram/memories/v1/memories_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { MemoryInput as _engram_memories_v1_MemoryInput, MemoryInput__Output as _engram_memories_v1_MemoryInput__Output } from '../../../engram/memories/v1/MemoryInput';

export interface CreateMemoriesRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * REST containerTag.
   */
  'namespace'?: (string);
  /**
   * 1 to 100 items.
   */
  'memories'?: (_engram_memories_v1_MemoryInput)[];
}

export interface CreateMemoriesRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * REST containerTag.
   */
  'namespace': (string);
  /**
   * 1 to 100 items.
   */
  'memories': (_engram_memories_v1_MemoryInput__Output)[];
}
