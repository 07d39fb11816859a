// Original file: protos/engram/events/v1/document_events.proto

import type { DocumentRef as _engram_events_v1_DocumentRef, DocumentRef__Output as _engram_events_v1_DocumentRef__Output } from '../../../engram/events/v1/DocumentRef';
import type { DocumentStatus as _engram_common_v1_DocumentStatus, DocumentStatus__Output as _engram_common_v1_DocumentStatus__Output } from '../../../engram/common/v1/DocumentStatus';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

/**
 * The pipeline moved a document to a new state (extracting ... failed).
 */
export interface DocumentStateChanged {
  'document'?: (_engram_events_v1_DocumentRef | null);
  'status'?: (_engram_common_v1_DocumentStatus);
  /**
   * Readable reason when status is failed.
   */
  'reason'?: (string);
  'occurredAt'?: (_google_protobuf_Timestamp | null);
  /**
   * Monotonic within a generation: consumers ignore a lower sequence.
   */
  'sequence'?: (number);
  /**
   * Set with the extracting->chunking transition.
   */
  'title'?: (string);
  'contentType'?: (string);
  /**
   * The document's summary: set with the last state of the pipeline's processing (indexing or done).
   */
  'summary'?: (string);
}

/**
 * The pipeline moved a document to a new state (extracting ... failed).
 */
export interface DocumentStateChanged__Output {
  'document': (_engram_events_v1_DocumentRef__Output | null);
  'status': (_engram_common_v1_DocumentStatus__Output);
  /**
   * Readable reason when status is failed.
   */
  'reason': (string);
  'occurredAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * Monotonic within a generation: consumers ignore a lower sequence.
   */
  'sequence': (number);
  /**
   * Set with the extracting->chunking transition.
   */
  'title': (string);
  'contentType': (string);
  /**
   * The document's summary: set with the last state of the pipeline's processing (indexing or done).
   */
  'summary': (string);
}
