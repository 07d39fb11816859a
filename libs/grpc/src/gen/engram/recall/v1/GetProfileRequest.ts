// Original file: protos/engram/recall/v1/recall_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { Filter as _engram_common_v1_Filter, Filter__Output as _engram_common_v1_Filter__Output } from '../../../engram/common/v1/Filter';
import type { ProfileSection as _engram_recall_v1_ProfileSection, ProfileSection__Output as _engram_recall_v1_ProfileSection__Output } from '../../../engram/recall/v1/ProfileSection';

export interface GetProfileRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * REST containerTag; required.
   */
  'namespace'?: (string);
  /**
   * Optional query: also run a memory search and return its results.
   */
  'q'?: (string);
  'threshold'?: (number | string);
  'filter'?: (_engram_common_v1_Filter | null);
  'include'?: (_engram_recall_v1_ProfileSection)[];
  /**
   * Bucket keys to return; empty = every effective bucket.
   */
  'buckets'?: (string)[];
  '_q'?: "q";
  '_threshold'?: "threshold";
}

export interface GetProfileRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * REST containerTag; required.
   */
  'namespace': (string);
  /**
   * Optional query: also run a memory search and return its results.
   */
  'q'?: (string);
  'threshold'?: (number);
  'filter': (_engram_common_v1_Filter__Output | null);
  'include': (_engram_recall_v1_ProfileSection__Output)[];
  /**
   * Bucket keys to return; empty = every effective bucket.
   */
  'buckets': (string)[];
  '_q'?: "q";
  '_threshold'?: "threshold";
}
