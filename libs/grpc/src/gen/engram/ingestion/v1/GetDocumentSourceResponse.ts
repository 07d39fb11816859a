// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { DocumentSourceInfo as _engram_ingestion_v1_DocumentSourceInfo, DocumentSourceInfo__Output as _engram_ingestion_v1_DocumentSourceInfo__Output } from '../../../engram/ingestion/v1/DocumentSourceInfo';

export interface GetDocumentSourceResponse {
  'info'?: (_engram_ingestion_v1_DocumentSourceInfo | null);
  'data'?: (Buffer | Uint8Array | string);
  'part'?: "info"|"data";
}

export interface GetDocumentSourceResponse__Output {
  'info'?: (_engram_ingestion_v1_DocumentSourceInfo__Output | null);
  'data'?: (Buffer);
  'part'?: "info"|"data";
}
