// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { Document as _engram_ingestion_v1_Document, Document__Output as _engram_ingestion_v1_Document__Output } from '../../../engram/ingestion/v1/Document';

export interface GetDocumentResponse {
  'document'?: (_engram_ingestion_v1_Document | null);
}

export interface GetDocumentResponse__Output {
  'document': (_engram_ingestion_v1_Document__Output | null);
}
