// Original file: protos/engram/common/v1/common.proto

import type { SortOrder as _engram_common_v1_SortOrder, SortOrder__Output as _engram_common_v1_SortOrder__Output } from '../../../engram/common/v1/SortOrder';

/**
 * Page request shared by every list operation.
 */
export interface PageRequest {
  /**
   * 1-based page number; 0 means 1.
   */
  'page'?: (number);
  /**
   * Items per page; 0 means the operation's default.
   */
  'limit'?: (number);
  /**
   * Field to sort by (createdAt, updatedAt, ...); empty means createdAt.
   */
  'sort'?: (string);
  'order'?: (_engram_common_v1_SortOrder);
}

/**
 * Page request shared by every list operation.
 */
export interface PageRequest__Output {
  /**
   * 1-based page number; 0 means 1.
   */
  'page': (number);
  /**
   * Items per page; 0 means the operation's default.
   */
  'limit': (number);
  /**
   * Field to sort by (createdAt, updatedAt, ...); empty means createdAt.
   */
  'sort': (string);
  'order': (_engram_common_v1_SortOrder__Output);
}
