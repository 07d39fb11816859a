// Original file: protos/engram/connections/v1/connections_service.proto

import type { Connection as _engram_connections_v1_Connection, Connection__Output as _engram_connections_v1_Connection__Output } from '../../../engram/connections/v1/Connection';

export interface GetConnectionByTagsResponse {
  'connection'?: (_engram_connections_v1_Connection | null);
}

export interface GetConnectionByTagsResponse__Output {
  'connection': (_engram_connections_v1_Connection__Output | null);
}
