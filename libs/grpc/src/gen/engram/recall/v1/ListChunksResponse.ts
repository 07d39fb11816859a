// Original file: protos/engram/recall/v1/recall_service.proto

import type { ChunkEntry as _engram_recall_v1_ChunkEntry, ChunkEntry__Output as _engram_recall_v1_ChunkEntry__Output } from '../../../engram/recall/v1/ChunkEntry';
import type { Pagination as _engram_common_v1_Pagination, Pagination__Output as _engram_common_v1_Pagination__Output } from '../../../engram/common/v1/Pagination';

export interface ListChunksResponse {
  'chunks'?: (_engram_recall_v1_ChunkEntry)[];
  'pagination'?: (_engram_common_v1_Pagination | null);
  /**
   * Total chunks matching (of the document, when document_id was given).
   */
  'total'?: (number);
  /**
   * Service id of the document, when document_id was given.
   */
  'documentId'?: (string);
}

export interface ListChunksResponse__Output {
  'chunks': (_engram_recall_v1_ChunkEntry__Output)[];
  'pagination': (_engram_common_v1_Pagination__Output | null);
  /**
   * Total chunks matching (of the document, when document_id was given).
   */
  'total': (number);
  /**
   * Service id of the document, when document_id was given.
   */
  'documentId': (string);
}
