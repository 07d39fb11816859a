// Original file: protos/engram/memories/v1/memories_service.proto

import type { NamespaceMemoryCount as _engram_memories_v1_NamespaceMemoryCount, NamespaceMemoryCount__Output as _engram_memories_v1_NamespaceMemoryCount__Output } from '../../../engram/memories/v1/NamespaceMemoryCount';

export interface CountNamespaceMemoriesResponse {
  'counts'?: (_engram_memories_v1_NamespaceMemoryCount)[];
}

export interface CountNamespaceMemoriesResponse__Output {
  'counts': (_engram_memories_v1_NamespaceMemoryCount__Output)[];
}
