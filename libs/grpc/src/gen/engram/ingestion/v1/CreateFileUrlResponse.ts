// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

export interface CreateFileUrlResponse {
  /**
   * Opaque signed token the gateway puts in its download URL.
   */
  'token'?: (string);
  'expiresAt'?: (_google_protobuf_Timestamp | null);
  'fileName'?: (string);
  'mimeType'?: (string);
}

export interface CreateFileUrlResponse__Output {
  /**
   * Opaque signed token the gateway puts in its download URL.
   */
  'token': (string);
  'expiresAt': (_google_protobuf_Timestamp__Output | null);
  'fileName': (string);
  'mimeType': (string);
}
