// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { PageRequest as _engram_common_v1_PageRequest, PageRequest__Output as _engram_common_v1_PageRequest__Output } from '../../../engram/common/v1/PageRequest';
import type { Filter as _engram_common_v1_Filter, Filter__Output as _engram_common_v1_Filter__Output } from '../../../engram/common/v1/Filter';
import type { DocumentStatus as _engram_common_v1_DocumentStatus, DocumentStatus__Output as _engram_common_v1_DocumentStatus__Output } from '../../../engram/common/v1/DocumentStatus';
import type { Long } from '@grpc/proto-loader';

export interface ListDocumentsRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * Empty plus container_tags empty = every namespace of the tenant (legacy).
   */
  'namespace'?: (string);
  'containerTags'?: (string)[];
  'page'?: (_engram_common_v1_PageRequest | null);
  'filter'?: (_engram_common_v1_Filter | null);
  'includeContent'?: (boolean);
  /**
   * Exact path, or a prefix when it ends with '/'.
   */
  'filepath'?: (string);
  /**
   * Only the documents a connection imported.
   */
  'connectionId'?: (string);
  /**
   * Only documents in one of these states (empty = any state).
   */
  'statuses'?: (_engram_common_v1_DocumentStatus)[];
  /**
   * With include_content: the most content bytes (UTF-8) the answer may carry,
   * when the caller wants less than the service's cap; 0 = the service's cap
   * (INGESTION_LIST_MAX_CONTENT_BYTES). Never raises the cap.
   */
  'maxContentBytes'?: (number | string | Long);
}

export interface ListDocumentsRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * Empty plus container_tags empty = every namespace of the tenant (legacy).
   */
  'namespace': (string);
  'containerTags': (string)[];
  'page': (_engram_common_v1_PageRequest__Output | null);
  'filter': (_engram_common_v1_Filter__Output | null);
  'includeContent': (boolean);
  /**
   * Exact path, or a prefix when it ends with '/'.
   */
  'filepath': (string);
  /**
   * Only the documents a connection imported.
   */
  'connectionId': (string);
  /**
   * Only documents in one of these states (empty = any state).
   */
  'statuses': (_engram_common_v1_DocumentStatus__Output)[];
  /**
   * With include_content: the most content bytes (UTF-8) the answer may carry,
   * when the caller wants less than the service's cap; 0 = the service's cap
   * (INGESTION_LIST_MAX_CONTENT_BYTES). Never raises the cap.
   */
  'maxContentBytes': (number);
}
