// Original file: protos/engram/connections/v1/connections_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { Provider as _engram_connections_v1_Provider, Provider__Output as _engram_connections_v1_Provider__Output } from '../../../engram/connections/v1/Provider';

export interface ListConnectionDocumentsRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'provider'?: (_engram_connections_v1_Provider);
  /**
   * Empty = every connection of the provider.
   */
  'containerTags'?: (string)[];
}

export interface ListConnectionDocumentsRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'provider': (_engram_connections_v1_Provider__Output);
  /**
   * Empty = every connection of the provider.
   */
  'containerTags': (string)[];
}
