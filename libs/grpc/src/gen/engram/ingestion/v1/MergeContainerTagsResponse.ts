// Original file: protos/engram/ingestion/v1/container_tag_service.proto

import type { MergeStatus as _engram_ingestion_v1_MergeStatus, MergeStatus__Output as _engram_ingestion_v1_MergeStatus__Output } from '../../../engram/ingestion/v1/MergeStatus';

export interface MergeContainerTagsResponse {
  'success'?: (boolean);
  /**
   * Always QUEUED when accepted.
   */
  'status'?: (_engram_ingestion_v1_MergeStatus);
  'mergeId'?: (string);
  'targetNamespace'?: (string);
  /**
   * The tags that will be folded into the target and then deleted.
   */
  'sourceNamespaces'?: (string)[];
}

export interface MergeContainerTagsResponse__Output {
  'success': (boolean);
  /**
   * Always QUEUED when accepted.
   */
  'status': (_engram_ingestion_v1_MergeStatus__Output);
  'mergeId': (string);
  'targetNamespace': (string);
  /**
   * The tags that will be folded into the target and then deleted.
   */
  'sourceNamespaces': (string)[];
}
