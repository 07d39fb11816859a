// Original file: protos/engram/recall/v1/recall_service.proto

import type { MemoryRelation as _engram_memories_v1_MemoryRelation, MemoryRelation__Output as _engram_memories_v1_MemoryRelation__Output } from '../../../engram/memories/v1/MemoryRelation';
import type { Memory as _engram_memories_v1_Memory, Memory__Output as _engram_memories_v1_Memory__Output } from '../../../engram/memories/v1/Memory';

/**
 * A memory shown next to a search result (its versions or relations).
 */
export interface MemoryContextEntry {
  'relation'?: (_engram_memories_v1_MemoryRelation);
  /**
   * Distance from the result in its version chain (-1 parent, +1 child, ...);
   * unset for related memories.
   */
  'relativeVersion'?: (number);
  'memory'?: (_engram_memories_v1_Memory | null);
  '_relativeVersion'?: "relativeVersion";
}

/**
 * A memory shown next to a search result (its versions or relations).
 */
export interface MemoryContextEntry__Output {
  'relation': (_engram_memories_v1_MemoryRelation__Output);
  /**
   * Distance from the result in its version chain (-1 parent, +1 child, ...);
   * unset for related memories.
   */
  'relativeVersion'?: (number);
  'memory': (_engram_memories_v1_Memory__Output | null);
  '_relativeVersion'?: "relativeVersion";
}
