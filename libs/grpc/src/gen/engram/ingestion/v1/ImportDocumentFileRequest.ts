// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { ImportDocumentFileHeader as _engram_ingestion_v1_ImportDocumentFileHeader, ImportDocumentFileHeader__Output as _engram_ingestion_v1_ImportDocumentFileHeader__Output } from '../../../engram/ingestion/v1/ImportDocumentFileHeader';

export interface ImportDocumentFileRequest {
  'header'?: (_engram_ingestion_v1_ImportDocumentFileHeader | null);
  'data'?: (Buffer | Uint8Array | string);
  'part'?: "header"|"data";
}

export interface ImportDocumentFileRequest__Output {
  'header'?: (_engram_ingestion_v1_ImportDocumentFileHeader__Output | null);
  'data'?: (Buffer);
  'part'?: "header"|"data";
}
