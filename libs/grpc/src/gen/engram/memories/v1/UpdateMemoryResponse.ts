// Original file: protos/engram/memories/v1/memories_service.proto

import type { Memory as _engram_memories_v1_Memory, Memory__Output as _engram_memories_v1_Memory__Output } from '../../../engram/memories/v1/Memory';

export interface UpdateMemoryResponse {
  /**
   * The new version (version, parent_memory_id and root_memory_id set).
   */
  'memory'?: (_engram_memories_v1_Memory | null);
}

export interface UpdateMemoryResponse__Output {
  /**
   * The new version (version, parent_memory_id and root_memory_id set).
   */
  'memory': (_engram_memories_v1_Memory__Output | null);
}
