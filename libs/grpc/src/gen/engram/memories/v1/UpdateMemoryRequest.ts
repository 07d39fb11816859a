// Original file: protos/engram/memories/v1/memories_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';
import type { TemporalContext as _engram_memories_v1_TemporalContext, TemporalContext__Output as _engram_memories_v1_TemporalContext__Output } from '../../../engram/memories/v1/TemporalContext';

export interface UpdateMemoryRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * REST containerTag; required.
   */
  'namespace'?: (string);
  'id'?: (string);
  'content'?: (string);
  /**
   * Content of the new version (at least 1 character).
   */
  'newContent'?: (string);
  'metadata'?: (_google_protobuf_Struct | null);
  'forgetAfter'?: (_google_protobuf_Timestamp | null);
  'forgetReason'?: (string);
  'temporalContext'?: (_engram_memories_v1_TemporalContext | null);
  /**
   * Optional fields the caller sent: metadata, forget_after, forget_reason,
   * temporal_context. A listed field left unset means JSON null (clear;
   * clearing forget_after also clears forget_reason); an unlisted field is
   * inherited from the previous version.
   */
  'updateMask'?: (string)[];
  /**
   * The memory to update: by id, or by its exact content.
   */
  'selector'?: "id"|"content";
  '_forgetReason'?: "forgetReason";
}

export interface UpdateMemoryRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * REST containerTag; required.
   */
  'namespace': (string);
  'id'?: (string);
  'content'?: (string);
  /**
   * Content of the new version (at least 1 character).
   */
  'newContent': (string);
  'metadata': (_google_protobuf_Struct__Output | null);
  'forgetAfter': (_google_protobuf_Timestamp__Output | null);
  'forgetReason'?: (string);
  'temporalContext': (_engram_memories_v1_TemporalContext__Output | null);
  /**
   * Optional fields the caller sent: metadata, forget_after, forget_reason,
   * temporal_context. A listed field left unset means JSON null (clear;
   * clearing forget_after also clears forget_reason); an unlisted field is
   * inherited from the previous version.
   */
  'updateMask': (string)[];
  /**
   * The memory to update: by id, or by its exact content.
   */
  'selector'?: "id"|"content";
  '_forgetReason'?: "forgetReason";
}
