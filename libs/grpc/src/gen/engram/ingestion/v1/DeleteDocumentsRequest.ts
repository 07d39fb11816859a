// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface DeleteDocumentsRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * v5: the namespace from the path; legacy: empty (tenant-wide ids).
   */
  'namespace'?: (string);
  /**
   * Service ids or caller-defined ids.
   */
  'ids'?: (string)[];
  /**
   * Legacy bulk delete by container tags.
   */
  'containerTags'?: (string)[];
  /**
   * Every document a connection imported (connection deletion with deleteDocuments).
   */
  'connectionId'?: (string);
  /**
   * With container_tags: only the documents at this path (exact, or a prefix when it ends with '/').
   */
  'filepath'?: (string);
}

export interface DeleteDocumentsRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * v5: the namespace from the path; legacy: empty (tenant-wide ids).
   */
  'namespace': (string);
  /**
   * Service ids or caller-defined ids.
   */
  'ids': (string)[];
  /**
   * Legacy bulk delete by container tags.
   */
  'containerTags': (string)[];
  /**
   * Every document a connection imported (connection deletion with deleteDocuments).
   */
  'connectionId': (string);
  /**
   * With container_tags: only the documents at this path (exact, or a prefix when it ends with '/').
   */
  'filepath': (string);
}
