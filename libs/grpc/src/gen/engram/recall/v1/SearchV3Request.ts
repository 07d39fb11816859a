// Original file: protos/engram/recall/v1/recall_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { Filter as _engram_common_v1_Filter, Filter__Output as _engram_common_v1_Filter__Output } from '../../../engram/common/v1/Filter';

export interface SearchV3Request {
  'context'?: (_engram_common_v1_CallContext | null);
  'q'?: (string);
  /**
   * REST containerTag.
   */
  'namespace'?: (string);
  'containerTags'?: (string)[];
  /**
   * Chunk selection sensitivity 0 to 1; unset = 0.
   */
  'chunkThreshold'?: (number | string);
  /**
   * Deprecated and ignored; accepted for compatibility.
   */
  'documentThreshold'?: (number | string);
  /**
   * Search inside one document (service or caller-defined id).
   */
  'docId'?: (string);
  /**
   * Unset = true: no neighbouring context chunks.
   */
  'onlyMatchingChunks'?: (boolean);
  /**
   * Put the full document content in results.
   */
  'includeFullDocs'?: (boolean);
  'includeSummary'?: (boolean);
  'rerank'?: (boolean);
  'rewriteQuery'?: (boolean);
  'filter'?: (_engram_common_v1_Filter | null);
  /**
   * 1 to 100; 0 means 10.
   */
  'limit'?: (number);
  /**
   * Deprecated and ignored.
   */
  'categoriesFilter'?: (string)[];
  /**
   * Source filepath filter: exact, or prefix when it ends with '/'.
   */
  'filepath'?: (string);
  '_chunkThreshold'?: "chunkThreshold";
  '_documentThreshold'?: "documentThreshold";
  '_onlyMatchingChunks'?: "onlyMatchingChunks";
}

export interface SearchV3Request__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'q': (string);
  /**
   * REST containerTag.
   */
  'namespace': (string);
  'containerTags': (string)[];
  /**
   * Chunk selection sensitivity 0 to 1; unset = 0.
   */
  'chunkThreshold'?: (number);
  /**
   * Deprecated and ignored; accepted for compatibility.
   */
  'documentThreshold'?: (number);
  /**
   * Search inside one document (service or caller-defined id).
   */
  'docId': (string);
  /**
   * Unset = true: no neighbouring context chunks.
   */
  'onlyMatchingChunks'?: (boolean);
  /**
   * Put the full document content in results.
   */
  'includeFullDocs': (boolean);
  'includeSummary': (boolean);
  'rerank': (boolean);
  'rewriteQuery': (boolean);
  'filter': (_engram_common_v1_Filter__Output | null);
  /**
   * 1 to 100; 0 means 10.
   */
  'limit': (number);
  /**
   * Deprecated and ignored.
   */
  'categoriesFilter': (string)[];
  /**
   * Source filepath filter: exact, or prefix when it ends with '/'.
   */
  'filepath': (string);
  '_chunkThreshold'?: "chunkThreshold";
  '_documentThreshold'?: "documentThreshold";
  '_onlyMatchingChunks'?: "onlyMatchingChunks";
}
