// Original file: protos/engram/connections/v1/connections_service.proto

import type { Provider as _engram_connections_v1_Provider, Provider__Output as _engram_connections_v1_Provider__Output } from '../../../engram/connections/v1/Provider';

export interface DeleteConnectionResponse {
  'id'?: (string);
  'provider'?: (_engram_connections_v1_Provider);
  /**
   * Documents scheduled for deletion.
   */
  'deletedDocuments'?: (number);
}

export interface DeleteConnectionResponse__Output {
  'id': (string);
  'provider': (_engram_connections_v1_Provider__Output);
  /**
   * Documents scheduled for deletion.
   */
  'deletedDocuments': (number);
}
