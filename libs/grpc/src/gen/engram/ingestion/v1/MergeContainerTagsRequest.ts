// Original file: protos/engram/ingestion/v1/container_tag_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface MergeContainerTagsRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * Tags to merge (REST containerTags; exactly 2 per OpenAPI).
   */
  'containerTags'?: (string)[];
  /**
   * Tag that receives the documents and memories (REST targetContainerTag).
   */
  'targetNamespace'?: (string);
  /**
   * Internal (the gateway): memory rows the memories service already moved
   * into the target (MoveNamespaceMemories runs first), kept on the job.
   */
  'movedMemoriesCount'?: (number);
}

export interface MergeContainerTagsRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * Tags to merge (REST containerTags; exactly 2 per OpenAPI).
   */
  'containerTags': (string)[];
  /**
   * Tag that receives the documents and memories (REST targetContainerTag).
   */
  'targetNamespace': (string);
  /**
   * Internal (the gateway): memory rows the memories service already moved
   * into the target (MoveNamespaceMemories runs first), kept on the job.
   */
  'movedMemoriesCount': (number);
}
