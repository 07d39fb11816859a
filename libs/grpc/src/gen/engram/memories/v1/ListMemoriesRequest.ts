// Original file: protos/engram/memories/v1/memories_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { PageRequest as _engram_common_v1_PageRequest, PageRequest__Output as _engram_common_v1_PageRequest__Output } from '../../../engram/common/v1/PageRequest';
import type { Filter as _engram_common_v1_Filter, Filter__Output as _engram_common_v1_Filter__Output } from '../../../engram/common/v1/Filter';

export interface ListMemoriesRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * v5: the path namespace. Legacy: empty, container_tags used instead.
   */
  'namespace'?: (string);
  /**
   * Legacy containerTags (v4 list requires at least one).
   */
  'containerTags'?: (string)[];
  /**
   * Sort: createdAt (default) or updatedAt; order default desc. Limit
   * default 10, at most 1100.
   */
  'page'?: (_engram_common_v1_PageRequest | null);
  'filter'?: (_engram_common_v1_Filter | null);
  /**
   * Fill MemoryEntry.history (set by the gateway for /v4/memories/list).
   */
  'includeHistory'?: (boolean);
  /**
   * Also list forgotten memories; by default only latest, not forgotten ones.
   */
  'includeForgotten'?: (boolean);
}

export interface ListMemoriesRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * v5: the path namespace. Legacy: empty, container_tags used instead.
   */
  'namespace': (string);
  /**
   * Legacy containerTags (v4 list requires at least one).
   */
  'containerTags': (string)[];
  /**
   * Sort: createdAt (default) or updatedAt; order default desc. Limit
   * default 10, at most 1100.
   */
  'page': (_engram_common_v1_PageRequest__Output | null);
  'filter': (_engram_common_v1_Filter__Output | null);
  /**
   * Fill MemoryEntry.history (set by the gateway for /v4/memories/list).
   */
  'includeHistory': (boolean);
  /**
   * Also list forgotten memories; by default only latest, not forgotten ones.
   */
  'includeForgotten': (boolean);
}
