// Original file: protos/engram/connections/v1/settings_service.proto

import type { Provider as _engram_connections_v1_Provider, Provider__Output as _engram_connections_v1_Provider__Output } from '../../../engram/connections/v1/Provider';

/**
 * A change to a provider's custom OAuth application.
 */
export interface OAuthAppPatch {
  'provider'?: (_engram_connections_v1_Provider);
  'clientId'?: (string);
  /**
   * Write-only.
   */
  'clientSecret'?: (string);
  'customKeyEnabled'?: (boolean);
  /**
   * Fields the caller sent: client_id, client_secret, custom_key_enabled. A
   * listed field left unset means JSON null (clear).
   */
  'updateMask'?: (string)[];
  '_clientId'?: "clientId";
  '_clientSecret'?: "clientSecret";
  '_customKeyEnabled'?: "customKeyEnabled";
}

/**
 * A change to a provider's custom OAuth application.
 */
export interface OAuthAppPatch__Output {
  'provider': (_engram_connections_v1_Provider__Output);
  'clientId'?: (string);
  /**
   * Write-only.
   */
  'clientSecret'?: (string);
  'customKeyEnabled'?: (boolean);
  /**
   * Fields the caller sent: client_id, client_secret, custom_key_enabled. A
   * listed field left unset means JSON null (clear).
   */
  'updateMask': (string)[];
  '_clientId'?: "clientId";
  '_clientSecret'?: "clientSecret";
  '_customKeyEnabled'?: "customKeyEnabled";
}
