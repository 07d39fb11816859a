// Original file: protos/engram/connections/v1/connections_service.proto

import type { Connection as _engram_connections_v1_Connection, Connection__Output as _engram_connections_v1_Connection__Output } from '../../../engram/connections/v1/Connection';

export interface GetConnectionResponse {
  'connection'?: (_engram_connections_v1_Connection | null);
}

export interface GetConnectionResponse__Output {
  'connection': (_engram_connections_v1_Connection__Output | null);
}
