// Original file: protos/engram/recall/v1/recall_service.proto

import type { MemoryContextEntry as _engram_recall_v1_MemoryContextEntry, MemoryContextEntry__Output as _engram_recall_v1_MemoryContextEntry__Output } from '../../../engram/recall/v1/MemoryContextEntry';

export interface MemoryContext {
  'parents'?: (_engram_recall_v1_MemoryContextEntry)[];
  'children'?: (_engram_recall_v1_MemoryContextEntry)[];
  /**
   * EXTENDS / DERIVES relations.
   */
  'related'?: (_engram_recall_v1_MemoryContextEntry)[];
}

export interface MemoryContext__Output {
  'parents': (_engram_recall_v1_MemoryContextEntry__Output)[];
  'children': (_engram_recall_v1_MemoryContextEntry__Output)[];
  /**
   * EXTENDS / DERIVES relations.
   */
  'related': (_engram_recall_v1_MemoryContextEntry__Output)[];
}
