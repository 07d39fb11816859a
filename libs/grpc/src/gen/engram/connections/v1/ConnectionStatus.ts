// Original file: protos/engram/connections/v1/connections_service.proto

/**
 * Lifecycle of a connection.
 */
export const ConnectionStatus = {
  CONNECTION_STATUS_UNSPECIFIED: 'CONNECTION_STATUS_UNSPECIFIED',
  /**
   * Created; waiting for the user to complete the OAuth consent.
   */
  CONNECTION_STATUS_PENDING_AUTHORIZATION: 'CONNECTION_STATUS_PENDING_AUTHORIZATION',
  /**
   * Authorized; syncing.
   */
  CONNECTION_STATUS_ACTIVE: 'CONNECTION_STATUS_ACTIVE',
  /**
   * Provider authorization expired or was revoked; needs re-authorization.
   */
  CONNECTION_STATUS_AUTH_EXPIRED: 'CONNECTION_STATUS_AUTH_EXPIRED',
  /**
   * The connection reached expires_at.
   */
  CONNECTION_STATUS_EXPIRED: 'CONNECTION_STATUS_EXPIRED',
  /**
   * Being deleted (documents are removed asynchronously).
   */
  CONNECTION_STATUS_DELETING: 'CONNECTION_STATUS_DELETING',
} as const;

/**
 * Lifecycle of a connection.
 */
export type ConnectionStatus =
  | 'CONNECTION_STATUS_UNSPECIFIED'
  | 0
  /**
   * Created; waiting for the user to complete the OAuth consent.
   */
  | 'CONNECTION_STATUS_PENDING_AUTHORIZATION'
  | 1
  /**
   * Authorized; syncing.
   */
  | 'CONNECTION_STATUS_ACTIVE'
  | 2
  /**
   * Provider authorization expired or was revoked; needs re-authorization.
   */
  | 'CONNECTION_STATUS_AUTH_EXPIRED'
  | 3
  /**
   * The connection reached expires_at.
   */
  | 'CONNECTION_STATUS_EXPIRED'
  | 4
  /**
   * Being deleted (documents are removed asynchronously).
   */
  | 'CONNECTION_STATUS_DELETING'
  | 5

/**
 * Lifecycle of a connection.
 */
export type ConnectionStatus__Output = typeof ConnectionStatus[keyof typeof ConnectionStatus]
