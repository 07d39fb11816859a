// Original file: protos/engram/recall/v1/recall_service.proto

import type { Chunk as _engram_common_v1_Chunk, Chunk__Output as _engram_common_v1_Chunk__Output } from '../../../engram/common/v1/Chunk';
import type { ChunkType as _engram_recall_v1_ChunkType, ChunkType__Output as _engram_recall_v1_ChunkType__Output } from '../../../engram/recall/v1/ChunkType';

/**
 * A chunk with its match score.
 */
export interface ScoredChunk {
  'chunk'?: (_engram_common_v1_Chunk | null);
  'score'?: (number | string);
  /**
   * v3/search: whether the chunk itself matched (false for context chunks
   * added around a match).
   */
  'isRelevant'?: (boolean);
  'type'?: (_engram_recall_v1_ChunkType);
}

/**
 * A chunk with its match score.
 */
export interface ScoredChunk__Output {
  'chunk': (_engram_common_v1_Chunk__Output | null);
  'score': (number);
  /**
   * v3/search: whether the chunk itself matched (false for context chunks
   * added around a match).
   */
  'isRelevant': (boolean);
  'type': (_engram_recall_v1_ChunkType__Output);
}
