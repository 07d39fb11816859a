// Original file: protos/engram/memories/v1/memories_service.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';
import type { TemporalContext as _engram_memories_v1_TemporalContext, TemporalContext__Output as _engram_memories_v1_TemporalContext__Output } from '../../../engram/memories/v1/TemporalContext';

/**
 * One memory to write directly.
 */
export interface MemoryInput {
  /**
   * 1 to 10000 characters; entity-centric ("John prefers dark mode").
   */
  'content'?: (string);
  'isStatic'?: (boolean);
  /**
   * Values: string, number, boolean or array of strings.
   */
  'metadata'?: (_google_protobuf_Struct | null);
  'forgetAfter'?: (_google_protobuf_Timestamp | null);
  /**
   * Only meaningful with forget_after.
   */
  'forgetReason'?: (string);
  'temporalContext'?: (_engram_memories_v1_TemporalContext | null);
  '_forgetReason'?: "forgetReason";
}

/**
 * One memory to write directly.
 */
export interface MemoryInput__Output {
  /**
   * 1 to 10000 characters; entity-centric ("John prefers dark mode").
   */
  'content': (string);
  'isStatic': (boolean);
  /**
   * Values: string, number, boolean or array of strings.
   */
  'metadata': (_google_protobuf_Struct__Output | null);
  'forgetAfter': (_google_protobuf_Timestamp__Output | null);
  /**
   * Only meaningful with forget_after.
   */
  'forgetReason'?: (string);
  'temporalContext': (_engram_memories_v1_TemporalContext__Output | null);
  '_forgetReason'?: "forgetReason";
}
