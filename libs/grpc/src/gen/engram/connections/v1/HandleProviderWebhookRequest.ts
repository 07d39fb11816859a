// Original file: protos/engram/connections/v1/connections_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { Provider as _engram_connections_v1_Provider, Provider__Output as _engram_connections_v1_Provider__Output } from '../../../engram/connections/v1/Provider';

export interface HandleProviderWebhookRequest {
  /**
   * Tenant is unknown at intake; the service resolves it from the payload.
   */
  'context'?: (_engram_common_v1_CallContext | null);
  'provider'?: (_engram_connections_v1_Provider);
  /**
   * HTTP headers, names lower-cased (signatures, channel tokens, ...).
   */
  'headers'?: ({[key: string]: string});
  /**
   * Query parameters (some providers send validation tokens there).
   */
  'query'?: ({[key: string]: string});
  /**
   * Raw request body, unparsed, for signature verification.
   */
  'body'?: (Buffer | Uint8Array | string);
}

export interface HandleProviderWebhookRequest__Output {
  /**
   * Tenant is unknown at intake; the service resolves it from the payload.
   */
  'context': (_engram_common_v1_CallContext__Output | null);
  'provider': (_engram_connections_v1_Provider__Output);
  /**
   * HTTP headers, names lower-cased (signatures, channel tokens, ...).
   */
  'headers': ({[key: string]: string});
  /**
   * Query parameters (some providers send validation tokens there).
   */
  'query': ({[key: string]: string});
  /**
   * Raw request body, unparsed, for signature verification.
   */
  'body': (Buffer);
}
