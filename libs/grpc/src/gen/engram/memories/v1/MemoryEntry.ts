// Original file: protos/engram/memories/v1/memories_service.proto

import type { Memory as _engram_memories_v1_Memory, Memory__Output as _engram_memories_v1_Memory__Output } from '../../../engram/memories/v1/Memory';

/**
 * A latest memory with its earlier versions.
 */
export interface MemoryEntry {
  'memory'?: (_engram_memories_v1_Memory | null);
  /**
   * Earlier versions of the chain, oldest first (empty unless asked for).
   */
  'history'?: (_engram_memories_v1_Memory)[];
}

/**
 * A latest memory with its earlier versions.
 */
export interface MemoryEntry__Output {
  'memory': (_engram_memories_v1_Memory__Output | null);
  /**
   * Earlier versions of the chain, oldest first (empty unless asked for).
   */
  'history': (_engram_memories_v1_Memory__Output)[];
}
