// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { FileInfo as _engram_ingestion_v1_FileInfo, FileInfo__Output as _engram_ingestion_v1_FileInfo__Output } from '../../../engram/ingestion/v1/FileInfo';

export interface ReadDocumentFileResponse {
  'info'?: (_engram_ingestion_v1_FileInfo | null);
  'data'?: (Buffer | Uint8Array | string);
  'part'?: "info"|"data";
}

export interface ReadDocumentFileResponse__Output {
  'info'?: (_engram_ingestion_v1_FileInfo__Output | null);
  'data'?: (Buffer);
  'part'?: "info"|"data";
}
