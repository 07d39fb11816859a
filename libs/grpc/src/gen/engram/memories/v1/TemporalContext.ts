// Original file: protos/engram/memories/v1/memories_service.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

/**
 * Structured dates of a memory (REST temporalContext).
 */
export interface TemporalContext {
  /**
   * When the source was authored; unset = null.
   */
  'documentDate'?: (_google_protobuf_Timestamp | null);
  /**
   * Dates of the events the memory refers to, as given (ISO 8601).
   */
  'eventDates'?: (string)[];
}

/**
 * Structured dates of a memory (REST temporalContext).
 */
export interface TemporalContext__Output {
  /**
   * When the source was authored; unset = null.
   */
  'documentDate': (_google_protobuf_Timestamp__Output | null);
  /**
   * Dates of the events the memory refers to, as given (ISO 8601).
   */
  'eventDates': (string)[];
}
