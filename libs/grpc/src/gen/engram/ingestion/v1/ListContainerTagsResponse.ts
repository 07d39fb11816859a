// Original file: protos/engram/ingestion/v1/container_tag_service.proto

import type { ContainerTag as _engram_ingestion_v1_ContainerTag, ContainerTag__Output as _engram_ingestion_v1_ContainerTag__Output } from '../../../engram/ingestion/v1/ContainerTag';

export interface ListContainerTagsResponse {
  /**
   * Every tag of the tenant, with counts (REST: a flat array).
   */
  'containerTags'?: (_engram_ingestion_v1_ContainerTag)[];
}

export interface ListContainerTagsResponse__Output {
  /**
   * Every tag of the tenant, with counts (REST: a flat array).
   */
  'containerTags': (_engram_ingestion_v1_ContainerTag__Output)[];
}
