// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { Document as _engram_ingestion_v1_Document, Document__Output as _engram_ingestion_v1_Document__Output } from '../../../engram/ingestion/v1/Document';
import type { SourceKind as _engram_ingestion_v1_SourceKind, SourceKind__Output as _engram_ingestion_v1_SourceKind__Output } from '../../../engram/ingestion/v1/SourceKind';
import type { Long } from '@grpc/proto-loader';

export interface DocumentSourceInfo {
  'document'?: (_engram_ingestion_v1_Document | null);
  'sourceKind'?: (_engram_ingestion_v1_SourceKind);
  /**
   * For text and conversation sources: the text itself (no data parts
   * follow), unless text_in_data.
   */
  'text'?: (string);
  /**
   * For URL sources: the URL to fetch.
   */
  'url'?: (string);
  'mimeType'?: (string);
  'fileName'?: (string);
  'sizeBytes'?: (number | string | Long);
  /**
   * False when the generation asked for is no longer current.
   */
  'current'?: (boolean);
  /**
   * The client's fileType hint for file sources (pdf, docx, image, ...).
   */
  'fileType'?: (string);
  /**
   * A text source larger than one part (1 MiB): `text` is empty and the
   * text's UTF-8 bytes follow as data parts, so no message nears the limit.
   */
  'textInData'?: (boolean);
}

export interface DocumentSourceInfo__Output {
  'document': (_engram_ingestion_v1_Document__Output | null);
  'sourceKind': (_engram_ingestion_v1_SourceKind__Output);
  /**
   * For text and conversation sources: the text itself (no data parts
   * follow), unless text_in_data.
   */
  'text': (string);
  /**
   * For URL sources: the URL to fetch.
   */
  'url': (string);
  'mimeType': (string);
  'fileName': (string);
  'sizeBytes': (number);
  /**
   * False when the generation asked for is no longer current.
   */
  'current': (boolean);
  /**
   * The client's fileType hint for file sources (pdf, docx, image, ...).
   */
  'fileType': (string);
  /**
   * A text source larger than one part (1 MiB): `text` is empty and the
   * text's UTF-8 bytes follow as data parts, so no message nears the limit.
   */
  'textInData': (boolean);
}
