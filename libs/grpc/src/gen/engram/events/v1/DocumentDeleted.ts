// Original file: protos/engram/events/v1/document_events.proto

import type { DocumentRef as _engram_events_v1_DocumentRef, DocumentRef__Output as _engram_events_v1_DocumentRef__Output } from '../../../engram/events/v1/DocumentRef';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

/**
 * A document was deleted; its chunks, vectors and memory provenance go too.
 * With withdrawn set, the record stays (its latest content failed to process,
 * status failed) and only what was derived from earlier content goes: a
 * failed document serves nothing from its previous generations.
 */
export interface DocumentDeleted {
  'document'?: (_engram_events_v1_DocumentRef | null);
  'occurredAt'?: (_google_protobuf_Timestamp | null);
  'customId'?: (string);
  'withdrawn'?: (boolean);
}

/**
 * A document was deleted; its chunks, vectors and memory provenance go too.
 * With withdrawn set, the record stays (its latest content failed to process,
 * status failed) and only what was derived from earlier content goes: a
 * failed document serves nothing from its previous generations.
 */
export interface DocumentDeleted__Output {
  'document': (_engram_events_v1_DocumentRef__Output | null);
  'occurredAt': (_google_protobuf_Timestamp__Output | null);
  'customId': (string);
  'withdrawn': (boolean);
}
