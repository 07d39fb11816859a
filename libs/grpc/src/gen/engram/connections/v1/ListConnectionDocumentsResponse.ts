// Original file: protos/engram/connections/v1/connections_service.proto

import type { Document as _engram_ingestion_v1_Document, Document__Output as _engram_ingestion_v1_Document__Output } from '../../../engram/ingestion/v1/Document';

export interface ListConnectionDocumentsResponse {
  /**
   * id, created_at, updated_at, status, summary, title and content_type
   * (REST type) are filled.
   */
  'documents'?: (_engram_ingestion_v1_Document)[];
}

export interface ListConnectionDocumentsResponse__Output {
  /**
   * id, created_at, updated_at, status, summary, title and content_type
   * (REST type) are filled.
   */
  'documents': (_engram_ingestion_v1_Document__Output)[];
}
