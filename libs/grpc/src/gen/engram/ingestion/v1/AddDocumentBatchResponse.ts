// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { BatchItemResult as _engram_ingestion_v1_BatchItemResult, BatchItemResult__Output as _engram_ingestion_v1_BatchItemResult__Output } from '../../../engram/ingestion/v1/BatchItemResult';

export interface AddDocumentBatchResponse {
  'count'?: (number);
  'failed'?: (number);
  /**
   * Accepted items first in request order, then failed items.
   */
  'results'?: (_engram_ingestion_v1_BatchItemResult)[];
}

export interface AddDocumentBatchResponse__Output {
  'count': (number);
  'failed': (number);
  /**
   * Accepted items first in request order, then failed items.
   */
  'results': (_engram_ingestion_v1_BatchItemResult__Output)[];
}
