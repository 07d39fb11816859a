// Original file: protos/engram/connections/v1/connections_service.proto

import type { Provider as _engram_connections_v1_Provider, Provider__Output as _engram_connections_v1_Provider__Output } from '../../../engram/connections/v1/Provider';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';
import type { ConnectionStatus as _engram_connections_v1_ConnectionStatus, ConnectionStatus__Output as _engram_connections_v1_ConnectionStatus__Output } from '../../../engram/connections/v1/ConnectionStatus';
import type { SyncRun as _engram_connections_v1_SyncRun, SyncRun__Output as _engram_connections_v1_SyncRun__Output } from '../../../engram/connections/v1/SyncRun';

export interface Connection {
  'id'?: (string);
  'provider'?: (_engram_connections_v1_Provider);
  /**
   * Account identity on the provider.
   */
  'email'?: (string);
  /**
   * Most documents this connection imports; unset = unlimited.
   */
  'documentLimit'?: (number);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  /**
   * Unset = never expires.
   */
  'expiresAt'?: (_google_protobuf_Timestamp | null);
  /**
   * Scope of imported documents (REST containerTag), fixed at creation.
   */
  'namespace'?: (string);
  /**
   * Deprecated legacy containerTags (the namespace first).
   */
  'containerTags'?: (string)[];
  /**
   * Set at creation.
   */
  'metadata'?: (_google_protobuf_Struct | null);
  'status'?: (_engram_connections_v1_ConnectionStatus);
  /**
   * Unset when the connection never synced.
   */
  'lastSyncRun'?: (_engram_connections_v1_SyncRun | null);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
  '_documentLimit'?: "documentLimit";
}

export interface Connection__Output {
  'id': (string);
  'provider': (_engram_connections_v1_Provider__Output);
  /**
   * Account identity on the provider.
   */
  'email': (string);
  /**
   * Most documents this connection imports; unset = unlimited.
   */
  'documentLimit'?: (number);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * Unset = never expires.
   */
  'expiresAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * Scope of imported documents (REST containerTag), fixed at creation.
   */
  'namespace': (string);
  /**
   * Deprecated legacy containerTags (the namespace first).
   */
  'containerTags': (string)[];
  /**
   * Set at creation.
   */
  'metadata': (_google_protobuf_Struct__Output | null);
  'status': (_engram_connections_v1_ConnectionStatus__Output);
  /**
   * Unset when the connection never synced.
   */
  'lastSyncRun': (_engram_connections_v1_SyncRun__Output | null);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
  '_documentLimit'?: "documentLimit";
}
