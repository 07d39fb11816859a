// Original file: protos/engram/connections/v1/settings_service.proto

import type { Provider as _engram_connections_v1_Provider, Provider__Output as _engram_connections_v1_Provider__Output } from '../../../engram/connections/v1/Provider';

/**
 * A provider's custom OAuth application, as returned.
 */
export interface OAuthApp {
  'provider'?: (_engram_connections_v1_Provider);
  /**
   * Unset = null.
   */
  'clientId'?: (string);
  /**
   * True when a client secret is stored (the secret itself is never returned).
   */
  'clientSecretSet'?: (boolean);
  /**
   * Use this app instead of Engram's own; unset = null.
   */
  'customKeyEnabled'?: (boolean);
  '_clientId'?: "clientId";
  '_customKeyEnabled'?: "customKeyEnabled";
}

/**
 * A provider's custom OAuth application, as returned.
 */
export interface OAuthApp__Output {
  'provider': (_engram_connections_v1_Provider__Output);
  /**
   * Unset = null.
   */
  'clientId'?: (string);
  /**
   * True when a client secret is stored (the secret itself is never returned).
   */
  'clientSecretSet': (boolean);
  /**
   * Use this app instead of Engram's own; unset = null.
   */
  'customKeyEnabled'?: (boolean);
  '_clientId'?: "clientId";
  '_customKeyEnabled'?: "customKeyEnabled";
}
