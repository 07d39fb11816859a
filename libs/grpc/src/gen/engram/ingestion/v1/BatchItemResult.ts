// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { DocumentStatus as _engram_common_v1_DocumentStatus, DocumentStatus__Output as _engram_common_v1_DocumentStatus__Output } from '../../../engram/common/v1/DocumentStatus';

export interface BatchItemResult {
  /**
   * Service id of an accepted item.
   */
  'id'?: (string);
  'url'?: (string);
  /**
   * A processing state; ERROR_STATUS set when the item failed.
   */
  'status'?: (_engram_common_v1_DocumentStatus);
  'error'?: (boolean);
  'errorMessage'?: (string);
  /**
   * Index of the item in the request.
   */
  'index'?: (number);
  /**
   * The item's caller-defined id, when it had one.
   */
  'customId'?: (string);
}

export interface BatchItemResult__Output {
  /**
   * Service id of an accepted item.
   */
  'id': (string);
  'url': (string);
  /**
   * A processing state; ERROR_STATUS set when the item failed.
   */
  'status': (_engram_common_v1_DocumentStatus__Output);
  'error': (boolean);
  'errorMessage': (string);
  /**
   * Index of the item in the request.
   */
  'index': (number);
  /**
   * The item's caller-defined id, when it had one.
   */
  'customId': (string);
}
