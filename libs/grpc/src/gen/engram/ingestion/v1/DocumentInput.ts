// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

export interface DocumentInput {
  'content'?: (string);
  'customId'?: (string);
  'supportingContext'?: (string);
  'metadata'?: (_google_protobuf_Struct | null);
  'group'?: (_google_protobuf_Struct | null);
  'date'?: (string);
  'filepath'?: (string);
  /**
   * Batch items only (legacy per-item containerTag): overrides the request's namespace.
   */
  'namespace'?: (string);
  /**
   * Internal (connections): the connection a connector import belongs to. The
   * gateway never sets it; empty = a document added directly.
   */
  'connectionId'?: (string);
}

export interface DocumentInput__Output {
  'content': (string);
  'customId': (string);
  'supportingContext': (string);
  'metadata': (_google_protobuf_Struct__Output | null);
  'group': (_google_protobuf_Struct__Output | null);
  'date': (string);
  'filepath': (string);
  /**
   * Batch items only (legacy per-item containerTag): overrides the request's namespace.
   */
  'namespace': (string);
  /**
   * Internal (connections): the connection a connector import belongs to. The
   * gateway never sets it; empty = a document added directly.
   */
  'connectionId': (string);
}
