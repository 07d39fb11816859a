// Original file: protos/engram/memories/v1/memories_service.proto

import type { Memory as _engram_memories_v1_Memory, Memory__Output as _engram_memories_v1_Memory__Output } from '../../../engram/memories/v1/Memory';

export interface CreateMemoriesResponse {
  /**
   * Source document recorded for the written memories; unset = null.
   */
  'documentId'?: (string);
  'memories'?: (_engram_memories_v1_Memory)[];
  '_documentId'?: "documentId";
}

export interface CreateMemoriesResponse__Output {
  /**
   * Source document recorded for the written memories; unset = null.
   */
  'documentId'?: (string);
  'memories': (_engram_memories_v1_Memory__Output)[];
  '_documentId'?: "documentId";
}
