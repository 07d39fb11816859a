// Original file: protos/engram/memories/v1/memories_service.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

export interface NamespaceMemoryCount {
  'namespace'?: (string);
  /**
   * Latest, not forgotten memories.
   */
  'memoryCount'?: (number);
  /**
   * Latest memory creation or update in the namespace; unset = none.
   */
  'lastActivityAt'?: (_google_protobuf_Timestamp | null);
}

export interface NamespaceMemoryCount__Output {
  'namespace': (string);
  /**
   * Latest, not forgotten memories.
   */
  'memoryCount': (number);
  /**
   * Latest memory creation or update in the namespace; unset = none.
   */
  'lastActivityAt': (_google_protobuf_Timestamp__Output | null);
}
