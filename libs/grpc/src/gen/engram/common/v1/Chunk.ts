// Original file: protos/engram/common/v1/common.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

/**
 * One chunk of an indexed document (the read side owned by pipeline-worker,
 * served by recall).
 */
export interface Chunk {
  'id'?: (string);
  'documentId'?: (string);
  /**
   * 0-based position of the chunk inside its document.
   */
  'position'?: (number);
  'content'?: (string);
  /**
   * Character offsets of the chunk: inside the document's content for text
   * documents (the chunk's text is that span normalised), inside the
   * extracted text for file and URL documents.
   */
  'startOffset'?: (number);
  'endOffset'?: (number);
  'tokenCount'?: (number);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'metadata'?: (_google_protobuf_Struct | null);
  'namespace'?: (string);
}

/**
 * One chunk of an indexed document (the read side owned by pipeline-worker,
 * served by recall).
 */
export interface Chunk__Output {
  'id': (string);
  'documentId': (string);
  /**
   * 0-based position of the chunk inside its document.
   */
  'position': (number);
  'content': (string);
  /**
   * Character offsets of the chunk: inside the document's content for text
   * documents (the chunk's text is that span normalised), inside the
   * extracted text for file and URL documents.
   */
  'startOffset': (number);
  'endOffset': (number);
  'tokenCount': (number);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'metadata': (_google_protobuf_Struct__Output | null);
  'namespace': (string);
}
