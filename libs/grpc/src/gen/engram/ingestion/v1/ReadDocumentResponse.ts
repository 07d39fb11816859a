// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { Document as _engram_ingestion_v1_Document, Document__Output as _engram_ingestion_v1_Document__Output } from '../../../engram/ingestion/v1/Document';

export interface ReadDocumentResponse {
  /**
   * First message: the record, content empty.
   */
  'document'?: (_engram_ingestion_v1_Document | null);
  /**
   * Then: the content's UTF-8 bytes in order (none for an empty content).
   */
  'content'?: (Buffer | Uint8Array | string);
  'part'?: "document"|"content";
}

export interface ReadDocumentResponse__Output {
  /**
   * First message: the record, content empty.
   */
  'document'?: (_engram_ingestion_v1_Document__Output | null);
  /**
   * Then: the content's UTF-8 bytes in order (none for an empty content).
   */
  'content'?: (Buffer);
  'part'?: "document"|"content";
}
