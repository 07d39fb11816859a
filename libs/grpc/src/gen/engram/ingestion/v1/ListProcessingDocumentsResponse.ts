// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { Document as _engram_ingestion_v1_Document, Document__Output as _engram_ingestion_v1_Document__Output } from '../../../engram/ingestion/v1/Document';

export interface ListProcessingDocumentsResponse {
  'documents'?: (_engram_ingestion_v1_Document)[];
  'totalCount'?: (number);
}

export interface ListProcessingDocumentsResponse__Output {
  'documents': (_engram_ingestion_v1_Document__Output)[];
  'totalCount': (number);
}
