// Original file: protos/engram/recall/v1/recall_service.proto

import type { Document as _engram_ingestion_v1_Document, Document__Output as _engram_ingestion_v1_Document__Output } from '../../../engram/ingestion/v1/Document';
import type { ScoredChunk as _engram_recall_v1_ScoredChunk, ScoredChunk__Output as _engram_recall_v1_ScoredChunk__Output } from '../../../engram/recall/v1/ScoredChunk';

/**
 * One matching document with its matching chunks.
 */
export interface SearchV3Result {
  /**
   * id, title, content_type, metadata, created_at, updated_at always;
   * summary with include_summary; content with include_full_docs.
   */
  'document'?: (_engram_ingestion_v1_Document | null);
  'score'?: (number | string);
  'chunks'?: (_engram_recall_v1_ScoredChunk)[];
}

/**
 * One matching document with its matching chunks.
 */
export interface SearchV3Result__Output {
  /**
   * id, title, content_type, metadata, created_at, updated_at always;
   * summary with include_summary; content with include_full_docs.
   */
  'document': (_engram_ingestion_v1_Document__Output | null);
  'score': (number);
  'chunks': (_engram_recall_v1_ScoredChunk__Output)[];
}
