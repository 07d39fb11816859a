// Original file: protos/engram/memories/v1/memories_service.proto

import type { MemoryEntry as _engram_memories_v1_MemoryEntry, MemoryEntry__Output as _engram_memories_v1_MemoryEntry__Output } from '../../../engram/memories/v1/MemoryEntry';
import type { Pagination as _engram_common_v1_Pagination, Pagination__Output as _engram_common_v1_Pagination__Output } from '../../../engram/common/v1/Pagination';

export interface ListMemoriesResponse {
  'entries'?: (_engram_memories_v1_MemoryEntry)[];
  'pagination'?: (_engram_common_v1_Pagination | null);
}

export interface ListMemoriesResponse__Output {
  'entries': (_engram_memories_v1_MemoryEntry__Output)[];
  'pagination': (_engram_common_v1_Pagination__Output | null);
}
