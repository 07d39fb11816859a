// Original file: protos/engram/recall/v1/recall_service.proto

import type { Memory as _engram_memories_v1_Memory, Memory__Output as _engram_memories_v1_Memory__Output } from '../../../engram/memories/v1/Memory';
import type { Chunk as _engram_common_v1_Chunk, Chunk__Output as _engram_common_v1_Chunk__Output } from '../../../engram/common/v1/Chunk';
import type { MemoryContext as _engram_recall_v1_MemoryContext, MemoryContext__Output as _engram_recall_v1_MemoryContext__Output } from '../../../engram/recall/v1/MemoryContext';
import type { Document as _engram_ingestion_v1_Document, Document__Output as _engram_ingestion_v1_Document__Output } from '../../../engram/ingestion/v1/Document';
import type { ScoredChunk as _engram_recall_v1_ScoredChunk, ScoredChunk__Output as _engram_recall_v1_ScoredChunk__Output } from '../../../engram/recall/v1/ScoredChunk';

export interface SearchV4Result {
  'memory'?: (_engram_memories_v1_Memory | null);
  'chunk'?: (_engram_common_v1_Chunk | null);
  /**
   * Similarity to the query, 0 to 1.
   */
  'similarity'?: (number | string);
  /**
   * Memory results with include.relatedMemories.
   */
  'context'?: (_engram_recall_v1_MemoryContext | null);
  /**
   * Source documents of a memory result (fields per include.documents /
   * include.summaries; id and timestamps always).
   */
  'documents'?: (_engram_ingestion_v1_Document)[];
  /**
   * Deprecated include.chunks format: matching chunks of the sources.
   */
  'chunks'?: (_engram_recall_v1_ScoredChunk)[];
  /**
   * A memory result (REST memory) or a chunk result (REST chunk; hybrid and
   * documents modes). A memory result carries the fields the REST result
   * shows: id, content, namespace, metadata, version, updated_at, filepath,
   * is_aggregated (the full record is MemoriesService.GetMemory's).
   */
  'item'?: "memory"|"chunk";
}

export interface SearchV4Result__Output {
  'memory'?: (_engram_memories_v1_Memory__Output | null);
  'chunk'?: (_engram_common_v1_Chunk__Output | null);
  /**
   * Similarity to the query, 0 to 1.
   */
  'similarity': (number);
  /**
   * Memory results with include.relatedMemories.
   */
  'context': (_engram_recall_v1_MemoryContext__Output | null);
  /**
   * Source documents of a memory result (fields per include.documents /
   * include.summaries; id and timestamps always).
   */
  'documents': (_engram_ingestion_v1_Document__Output)[];
  /**
   * Deprecated include.chunks format: matching chunks of the sources.
   */
  'chunks': (_engram_recall_v1_ScoredChunk__Output)[];
  /**
   * A memory result (REST memory) or a chunk result (REST chunk; hybrid and
   * documents modes). A memory result carries the fields the REST result
   * shows: id, content, namespace, metadata, version, updated_at, filepath,
   * is_aggregated (the full record is MemoriesService.GetMemory's).
   */
  'item'?: "memory"|"chunk";
}
