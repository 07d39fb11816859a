// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { DeleteError as _engram_ingestion_v1_DeleteError, DeleteError__Output as _engram_ingestion_v1_DeleteError__Output } from '../../../engram/ingestion/v1/DeleteError';

export interface DeleteDocumentsResponse {
  'count'?: (number);
  'errors'?: (_engram_ingestion_v1_DeleteError)[];
  /**
   * Service ids that were deleted.
   */
  'deletedIds'?: (string)[];
  'containerTags'?: (string)[];
}

export interface DeleteDocumentsResponse__Output {
  'count': (number);
  'errors': (_engram_ingestion_v1_DeleteError__Output)[];
  /**
   * Service ids that were deleted.
   */
  'deletedIds': (string)[];
  'containerTags': (string)[];
}
