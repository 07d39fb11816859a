// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { UploadDocumentFileHeader as _engram_ingestion_v1_UploadDocumentFileHeader, UploadDocumentFileHeader__Output as _engram_ingestion_v1_UploadDocumentFileHeader__Output } from '../../../engram/ingestion/v1/UploadDocumentFileHeader';

export interface UploadDocumentFileRequest {
  'header'?: (_engram_ingestion_v1_UploadDocumentFileHeader | null);
  'data'?: (Buffer | Uint8Array | string);
  'part'?: "header"|"data";
}

export interface UploadDocumentFileRequest__Output {
  'header'?: (_engram_ingestion_v1_UploadDocumentFileHeader__Output | null);
  'data'?: (Buffer);
  'part'?: "header"|"data";
}
