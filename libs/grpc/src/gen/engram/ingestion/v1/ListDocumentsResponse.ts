// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { Document as _engram_ingestion_v1_Document, Document__Output as _engram_ingestion_v1_Document__Output } from '../../../engram/ingestion/v1/Document';
import type { Pagination as _engram_common_v1_Pagination, Pagination__Output as _engram_common_v1_Pagination__Output } from '../../../engram/common/v1/Pagination';

export interface ListDocumentsResponse {
  'documents'?: (_engram_ingestion_v1_Document)[];
  'pagination'?: (_engram_common_v1_Pagination | null);
}

export interface ListDocumentsResponse__Output {
  'documents': (_engram_ingestion_v1_Document__Output)[];
  'pagination': (_engram_common_v1_Pagination__Output | null);
}
