// Original file: protos/engram/memories/v1/memories_service.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';
import type { TemporalContext as _engram_memories_v1_TemporalContext, TemporalContext__Output as _engram_memories_v1_TemporalContext__Output } from '../../../engram/memories/v1/TemporalContext';
import type { MemoryRelation as _engram_memories_v1_MemoryRelation, MemoryRelation__Output as _engram_memories_v1_MemoryRelation__Output } from '../../../engram/memories/v1/MemoryRelation';
import type { MemorySource as _engram_memories_v1_MemorySource, MemorySource__Output as _engram_memories_v1_MemorySource__Output } from '../../../engram/memories/v1/MemorySource';

export interface Memory {
  'id'?: (string);
  /**
   * The memory text (REST memory; content in requests).
   */
  'content'?: (string);
  /**
   * v5 namespace = legacy containerTag.
   */
  'namespace'?: (string);
  /**
   * Legacy containerTags (the namespace first).
   */
  'containerTags'?: (string)[];
  /**
   * Free key-value metadata; unset = null.
   */
  'metadata'?: (_google_protobuf_Struct | null);
  /**
   * Permanent trait (profile "static" section) rather than a recent fact.
   */
  'isStatic'?: (boolean);
  'isForgotten'?: (boolean);
  /**
   * Automatic forgetting time; unset = no expiry.
   */
  'forgetAfter'?: (_google_protobuf_Timestamp | null);
  /**
   * Reason given for (scheduled or done) forgetting; unset = null.
   */
  'forgetReason'?: (string);
  'temporalContext'?: (_engram_memories_v1_TemporalContext | null);
  /**
   * 1 for the first memory of a chain, +1 per update.
   */
  'version'?: (number);
  'isLatest'?: (boolean);
  /**
   * Previous version; empty for version 1.
   */
  'parentMemoryId'?: (string);
  /**
   * First version of the chain; empty for version 1.
   */
  'rootMemoryId'?: (string);
  /**
   * Relation of this memory to parent_memory_id (UPDATES for versions).
   */
  'relation'?: (_engram_memories_v1_MemoryRelation);
  /**
   * Relations to other memories, keyed by their id (REST memoryRelations).
   */
  'memoryRelations'?: ({[key: string]: _engram_memories_v1_MemoryRelation});
  /**
   * Source documents and chunk positions.
   */
  'sources'?: (_engram_memories_v1_MemorySource)[];
  /**
   * Ids of the source documents (REST documentIds; sourceCount = its size).
   */
  'documentIds'?: (string)[];
  /**
   * Id of the memory's container tag (REST spaceId).
   */
  'spaceId'?: (string);
  /**
   * Owning tenant (REST orgId).
   */
  'tenantId'?: (string);
  /**
   * True when inferred rather than stated; unset = null.
   */
  'isInference'?: (boolean);
  /**
   * Synthesised from several memories (search with aggregate).
   */
  'isAggregated'?: (boolean);
  /**
   * Profile buckets the memory was classified into.
   */
  'bucketKeys'?: (string)[];
  /**
   * Set on every memory forgotten by the same forget-matching call.
   */
  'forgetBatchId'?: (string);
  /**
   * Filepath of the source document, when it had one.
   */
  'filepath'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
  /**
   * When the memory was forgotten (explicitly or by expiry).
   */
  'forgottenAt'?: (_google_protobuf_Timestamp | null);
  '_forgetReason'?: "forgetReason";
  '_isInference'?: "isInference";
}

export interface Memory__Output {
  'id': (string);
  /**
   * The memory text (REST memory; content in requests).
   */
  'content': (string);
  /**
   * v5 namespace = legacy containerTag.
   */
  'namespace': (string);
  /**
   * Legacy containerTags (the namespace first).
   */
  'containerTags': (string)[];
  /**
   * Free key-value metadata; unset = null.
   */
  'metadata': (_google_protobuf_Struct__Output | null);
  /**
   * Permanent trait (profile "static" section) rather than a recent fact.
   */
  'isStatic': (boolean);
  'isForgotten': (boolean);
  /**
   * Automatic forgetting time; unset = no expiry.
   */
  'forgetAfter': (_google_protobuf_Timestamp__Output | null);
  /**
   * Reason given for (scheduled or done) forgetting; unset = null.
   */
  'forgetReason'?: (string);
  'temporalContext': (_engram_memories_v1_TemporalContext__Output | null);
  /**
   * 1 for the first memory of a chain, +1 per update.
   */
  'version': (number);
  'isLatest': (boolean);
  /**
   * Previous version; empty for version 1.
   */
  'parentMemoryId': (string);
  /**
   * First version of the chain; empty for version 1.
   */
  'rootMemoryId': (string);
  /**
   * Relation of this memory to parent_memory_id (UPDATES for versions).
   */
  'relation': (_engram_memories_v1_MemoryRelation__Output);
  /**
   * Relations to other memories, keyed by their id (REST memoryRelations).
   */
  'memoryRelations': ({[key: string]: _engram_memories_v1_MemoryRelation__Output});
  /**
   * Source documents and chunk positions.
   */
  'sources': (_engram_memories_v1_MemorySource__Output)[];
  /**
   * Ids of the source documents (REST documentIds; sourceCount = its size).
   */
  'documentIds': (string)[];
  /**
   * Id of the memory's container tag (REST spaceId).
   */
  'spaceId': (string);
  /**
   * Owning tenant (REST orgId).
   */
  'tenantId': (string);
  /**
   * True when inferred rather than stated; unset = null.
   */
  'isInference'?: (boolean);
  /**
   * Synthesised from several memories (search with aggregate).
   */
  'isAggregated': (boolean);
  /**
   * Profile buckets the memory was classified into.
   */
  'bucketKeys': (string)[];
  /**
   * Set on every memory forgotten by the same forget-matching call.
   */
  'forgetBatchId': (string);
  /**
   * Filepath of the source document, when it had one.
   */
  'filepath': (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * When the memory was forgotten (explicitly or by expiry).
   */
  'forgottenAt': (_google_protobuf_Timestamp__Output | null);
  '_forgetReason'?: "forgetReason";
  '_isInference'?: "isInference";
}
