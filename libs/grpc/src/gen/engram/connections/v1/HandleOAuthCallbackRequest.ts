// Original file: protos/engram/connections/v1/connections_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { Provider as _engram_connections_v1_Provider, Provider__Output as _engram_connections_v1_Provider__Output } from '../../../engram/connections/v1/Provider';

export interface HandleOAuthCallbackRequest {
  /**
   * Tenant is unknown at the callback; the service resolves it from state.
   */
  'context'?: (_engram_common_v1_CallContext | null);
  'provider'?: (_engram_connections_v1_Provider);
  'code'?: (string);
  /**
   * Opaque value issued with the authLink; binds the callback to a connection.
   */
  'state'?: (string);
  /**
   * Provider-reported failure (consent denied, ...).
   */
  'error'?: (string);
  'errorDescription'?: (string);
}

export interface HandleOAuthCallbackRequest__Output {
  /**
   * Tenant is unknown at the callback; the service resolves it from state.
   */
  'context': (_engram_common_v1_CallContext__Output | null);
  'provider': (_engram_connections_v1_Provider__Output);
  'code': (string);
  /**
   * Opaque value issued with the authLink; binds the callback to a connection.
   */
  'state': (string);
  /**
   * Provider-reported failure (consent denied, ...).
   */
  'error': (string);
  'errorDescription': (string);
}
