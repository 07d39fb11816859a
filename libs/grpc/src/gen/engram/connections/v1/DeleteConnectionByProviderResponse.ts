// Original file: protos/engram/connections/v1/connections_service.proto

import type { Provider as _engram_connections_v1_Provider, Provider__Output as _engram_connections_v1_Provider__Output } from '../../../engram/connections/v1/Provider';

export interface DeleteConnectionByProviderResponse {
  /**
   * The deleted connection.
   */
  'id'?: (string);
  'provider'?: (_engram_connections_v1_Provider);
  'deletedDocuments'?: (number);
}

export interface DeleteConnectionByProviderResponse__Output {
  /**
   * The deleted connection.
   */
  'id': (string);
  'provider': (_engram_connections_v1_Provider__Output);
  'deletedDocuments': (number);
}
