// Original file: protos/engram/recall/v1/recall_service.proto

import type { Chunk as _engram_common_v1_Chunk, Chunk__Output as _engram_common_v1_Chunk__Output } from '../../../engram/common/v1/Chunk';
import type { ChunkType as _engram_recall_v1_ChunkType, ChunkType__Output as _engram_recall_v1_ChunkType__Output } from '../../../engram/recall/v1/ChunkType';

/**
 * A listed chunk with its kind.
 */
export interface ChunkEntry {
  'chunk'?: (_engram_common_v1_Chunk | null);
  'type'?: (_engram_recall_v1_ChunkType);
}

/**
 * A listed chunk with its kind.
 */
export interface ChunkEntry__Output {
  'chunk': (_engram_common_v1_Chunk__Output | null);
  'type': (_engram_recall_v1_ChunkType__Output);
}
