// Original file: protos/engram/memories/v1/memories_service.proto

import type { Memory as _engram_memories_v1_Memory, Memory__Output as _engram_memories_v1_Memory__Output } from '../../../engram/memories/v1/Memory';

export interface BatchGetMemoriesResponse {
  /**
   * Found memories, in request order; unknown ids are skipped.
   */
  'memories'?: (_engram_memories_v1_Memory)[];
}

export interface BatchGetMemoriesResponse__Output {
  /**
   * Found memories, in request order; unknown ids are skipped.
   */
  'memories': (_engram_memories_v1_Memory__Output)[];
}
