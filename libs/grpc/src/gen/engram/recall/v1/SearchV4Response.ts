// Original file: protos/engram/recall/v1/recall_service.proto

import type { SearchV4Result as _engram_recall_v1_SearchV4Result, SearchV4Result__Output as _engram_recall_v1_SearchV4Result__Output } from '../../../engram/recall/v1/SearchV4Result';

export interface SearchV4Response {
  'results'?: (_engram_recall_v1_SearchV4Result)[];
  /**
   * Execution time in milliseconds.
   */
  'timingMs'?: (number);
  /**
   * Number of results returned.
   */
  'total'?: (number);
}

export interface SearchV4Response__Output {
  'results': (_engram_recall_v1_SearchV4Result__Output)[];
  /**
   * Execution time in milliseconds.
   */
  'timingMs': (number);
  /**
   * Number of results returned.
   */
  'total': (number);
}
