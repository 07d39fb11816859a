// Original file: protos/engram/recall/v1/recall_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { SearchMode as _engram_recall_v1_SearchMode, SearchMode__Output as _engram_recall_v1_SearchMode__Output } from '../../../engram/recall/v1/SearchMode';
import type { Filter as _engram_common_v1_Filter, Filter__Output as _engram_common_v1_Filter__Output } from '../../../engram/common/v1/Filter';
import type { SearchInclude as _engram_recall_v1_SearchInclude, SearchInclude__Output as _engram_recall_v1_SearchInclude__Output } from '../../../engram/recall/v1/SearchInclude';

export interface SearchV4Request {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * Search query (at least 1 character).
   */
  'q'?: (string);
  /**
   * REST containerTag.
   */
  'namespace'?: (string);
  /**
   * REST containerTags. With namespace: the union.
   */
  'containerTags'?: (string)[];
  'searchMode'?: (_engram_recall_v1_SearchMode);
  /**
   * Minimum similarity; unset = 0.6.
   */
  'threshold'?: (number | string);
  /**
   * 1 to 100; 0 means 10.
   */
  'limit'?: (number);
  'filter'?: (_engram_common_v1_Filter | null);
  'include'?: (_engram_recall_v1_SearchInclude | null);
  'rerank'?: (boolean);
  /**
   * Rewrite the query before searching (adds latency).
   */
  'rewriteQuery'?: (boolean);
  /**
   * Also synthesise memories from several matching memories.
   */
  'aggregate'?: (boolean);
  /**
   * Source filepath filter: exact, or prefix when it ends with '/'.
   */
  'filepath'?: (string);
  '_threshold'?: "threshold";
}

export interface SearchV4Request__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * Search query (at least 1 character).
   */
  'q': (string);
  /**
   * REST containerTag.
   */
  'namespace': (string);
  /**
   * REST containerTags. With namespace: the union.
   */
  'containerTags': (string)[];
  'searchMode': (_engram_recall_v1_SearchMode__Output);
  /**
   * Minimum similarity; unset = 0.6.
   */
  'threshold'?: (number);
  /**
   * 1 to 100; 0 means 10.
   */
  'limit': (number);
  'filter': (_engram_common_v1_Filter__Output | null);
  'include': (_engram_recall_v1_SearchInclude__Output | null);
  'rerank': (boolean);
  /**
   * Rewrite the query before searching (adds latency).
   */
  'rewriteQuery': (boolean);
  /**
   * Also synthesise memories from several matching memories.
   */
  'aggregate': (boolean);
  /**
   * Source filepath filter: exact, or prefix when it ends with '/'.
   */
  'filepath': (string);
  '_threshold'?: "threshold";
}
