// Original file: protos/engram/connections/v1/connections_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { Provider as _engram_connections_v1_Provider, Provider__Output as _engram_connections_v1_Provider__Output } from '../../../engram/connections/v1/Provider';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';
import type { DirectCredentials as _engram_connections_v1_DirectCredentials, DirectCredentials__Output as _engram_connections_v1_DirectCredentials__Output } from '../../../engram/connections/v1/DirectCredentials';

export interface CreateConnectionRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'provider'?: (_engram_connections_v1_Provider);
  /**
   * Where the user lands after consent (REST redirectUrl).
   */
  'redirectUrl'?: (string);
  /**
   * REST containerTag.
   */
  'namespace'?: (string);
  /**
   * Legacy containerTags; the first is the namespace when namespace is empty.
   */
  'containerTags'?: (string)[];
  /**
   * 1 to 10000; unset = unlimited.
   */
  'documentLimit'?: (number);
  /**
   * Flat (string, number, boolean values); stored on the connection.
   */
  'metadata'?: (_google_protobuf_Struct | null);
  /**
   * Required for credential-based providers; must be unset for OAuth ones.
   */
  'credentials'?: (_engram_connections_v1_DirectCredentials | null);
  '_documentLimit'?: "documentLimit";
}

export interface CreateConnectionRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'provider': (_engram_connections_v1_Provider__Output);
  /**
   * Where the user lands after consent (REST redirectUrl).
   */
  'redirectUrl': (string);
  /**
   * REST containerTag.
   */
  'namespace': (string);
  /**
   * Legacy containerTags; the first is the namespace when namespace is empty.
   */
  'containerTags': (string)[];
  /**
   * 1 to 10000; unset = unlimited.
   */
  'documentLimit'?: (number);
  /**
   * Flat (string, number, boolean values); stored on the connection.
   */
  'metadata': (_google_protobuf_Struct__Output | null);
  /**
   * Required for credential-based providers; must be unset for OAuth ones.
   */
  'credentials': (_engram_connections_v1_DirectCredentials__Output | null);
  '_documentLimit'?: "documentLimit";
}
