// Original file: protos/engram/ingestion/v1/container_tag_service.proto

import type { ContainerTag as _engram_ingestion_v1_ContainerTag, ContainerTag__Output as _engram_ingestion_v1_ContainerTag__Output } from '../../../engram/ingestion/v1/ContainerTag';

export interface GetContainerTagResponse {
  'containerTag'?: (_engram_ingestion_v1_ContainerTag | null);
}

export interface GetContainerTagResponse__Output {
  'containerTag': (_engram_ingestion_v1_ContainerTag__Output | null);
}
