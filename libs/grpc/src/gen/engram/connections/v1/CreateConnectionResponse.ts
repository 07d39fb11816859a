// Original file: protos/engram/connections/v1/connections_service.proto

import type { ConnectionStatus as _engram_connections_v1_ConnectionStatus, ConnectionStatus__Output as _engram_connections_v1_ConnectionStatus__Output } from '../../../engram/connections/v1/ConnectionStatus';

export interface CreateConnectionResponse {
  /**
   * Connection id.
   */
  'id'?: (string);
  /**
   * Provider consent address. For direct connections: the redirect_url
   * (there is nothing to authorize).
   */
  'authLink'?: (string);
  /**
   * Human-readable link lifetime ("1 hour"); empty for direct connections.
   */
  'expiresIn'?: (string);
  /**
   * The redirect_url given.
   */
  'redirectsTo'?: (string);
  'status'?: (_engram_connections_v1_ConnectionStatus);
}

export interface CreateConnectionResponse__Output {
  /**
   * Connection id.
   */
  'id': (string);
  /**
   * Provider consent address. For direct connections: the redirect_url
   * (there is nothing to authorize).
   */
  'authLink': (string);
  /**
   * Human-readable link lifetime ("1 hour"); empty for direct connections.
   */
  'expiresIn': (string);
  /**
   * The redirect_url given.
   */
  'redirectsTo': (string);
  'status': (_engram_connections_v1_ConnectionStatus__Output);
}
