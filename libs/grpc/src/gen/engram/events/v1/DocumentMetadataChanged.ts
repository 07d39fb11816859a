// Original file: protos/engram/events/v1/document_events.proto

import type { DocumentRef as _engram_events_v1_DocumentRef, DocumentRef__Output as _engram_events_v1_DocumentRef__Output } from '../../../engram/events/v1/DocumentRef';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

/**
 * Fields of an already processed document changed without new content
 * (metadata or filepath via a repeated add or PATCH): indexes refresh their copies so
 * filters see the new values. Not sent for documents still being processed
 * (the pipeline reads the current fields when it indexes).
 */
export interface DocumentMetadataChanged {
  'document'?: (_engram_events_v1_DocumentRef | null);
  'metadata'?: (_google_protobuf_Struct | null);
  'customId'?: (string);
  'occurredAt'?: (_google_protobuf_Timestamp | null);
  /**
   * The document's filepath ("" = none), copied onto its chunks for the
   * filepath filter. Absent in events of earlier releases: the copies keep
   * their filepath then.
   */
  'filepath'?: (string);
  '_filepath'?: "filepath";
}

/**
 * Fields of an already processed document changed without new content
 * (metadata or filepath via a repeated add or PATCH): indexes refresh their copies so
 * filters see the new values. Not sent for documents still being processed
 * (the pipeline reads the current fields when it indexes).
 */
export interface DocumentMetadataChanged__Output {
  'document': (_engram_events_v1_DocumentRef__Output | null);
  'metadata': (_google_protobuf_Struct__Output | null);
  'customId': (string);
  'occurredAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * The document's filepath ("" = none), copied onto its chunks for the
   * filepath filter. Absent in events of earlier releases: the copies keep
   * their filepath then.
   */
  'filepath'?: (string);
  '_filepath'?: "filepath";
}
