// Original file: protos/engram/ingestion/v1/container_tag_service.proto

import type { ContainerTagMerge as _engram_ingestion_v1_ContainerTagMerge, ContainerTagMerge__Output as _engram_ingestion_v1_ContainerTagMerge__Output } from '../../../engram/ingestion/v1/ContainerTagMerge';

export interface GetContainerTagMergeResponse {
  'merge'?: (_engram_ingestion_v1_ContainerTagMerge | null);
}

export interface GetContainerTagMergeResponse__Output {
  'merge': (_engram_ingestion_v1_ContainerTagMerge__Output | null);
}
