// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { ImportedDocument as _engram_ingestion_v1_ImportedDocument, ImportedDocument__Output as _engram_ingestion_v1_ImportedDocument__Output } from '../../../engram/ingestion/v1/ImportedDocument';

export interface ImportDocumentsResponse {
  'results'?: (_engram_ingestion_v1_ImportedDocument)[];
}

export interface ImportDocumentsResponse__Output {
  'results': (_engram_ingestion_v1_ImportedDocument__Output)[];
}
