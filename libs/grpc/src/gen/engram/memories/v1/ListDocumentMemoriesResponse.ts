// Original file: protos/engram/memories/v1/memories_service.proto

import type { Memory as _engram_memories_v1_Memory, Memory__Output as _engram_memories_v1_Memory__Output } from '../../../engram/memories/v1/Memory';

export interface ListDocumentMemoriesResponse {
  'memories'?: (_engram_memories_v1_Memory)[];
}

export interface ListDocumentMemoriesResponse__Output {
  'memories': (_engram_memories_v1_Memory__Output)[];
}
