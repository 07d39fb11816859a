// Original file: protos/engram/recall/v1/recall_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { PageRequest as _engram_common_v1_PageRequest, PageRequest__Output as _engram_common_v1_PageRequest__Output } from '../../../engram/common/v1/PageRequest';
import type { Filter as _engram_common_v1_Filter, Filter__Output as _engram_common_v1_Filter__Output } from '../../../engram/common/v1/Filter';

export interface ListChunksRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * v5: the path namespace. Legacy document reads: empty (tenant-wide).
   */
  'namespace'?: (string);
  /**
   * Chunks of one document (service or caller-defined id), in position
   * order; every chunk when page is unset.
   */
  'documentId'?: (string);
  'page'?: (_engram_common_v1_PageRequest | null);
  'filter'?: (_engram_common_v1_Filter | null);
}

export interface ListChunksRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * v5: the path namespace. Legacy document reads: empty (tenant-wide).
   */
  'namespace': (string);
  /**
   * Chunks of one document (service or caller-defined id), in position
   * order; every chunk when page is unset.
   */
  'documentId': (string);
  'page': (_engram_common_v1_PageRequest__Output | null);
  'filter': (_engram_common_v1_Filter__Output | null);
}
