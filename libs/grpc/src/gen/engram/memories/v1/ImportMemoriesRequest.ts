// Original file: protos/engram/memories/v1/memories_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { FormedDocument as _engram_memories_v1_FormedDocument, FormedDocument__Output as _engram_memories_v1_FormedDocument__Output } from '../../../engram/memories/v1/FormedDocument';

export interface ImportMemoriesRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * Archive memory records (JSON), at most 500.
   */
  'records'?: (string)[];
  /**
   * Archive memory id -> new id (PlanMemoryImportResponse.new_ids).
   */
  'memoryIds'?: ({[key: string]: string});
  /**
   * Archive document id -> id of the document in this tenant (new or existing).
   */
  'documentIds'?: ({[key: string]: string});
  /**
   * Document generations to mark as formed (the imported documents).
   */
  'formed'?: (_engram_memories_v1_FormedDocument)[];
}

export interface ImportMemoriesRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * Archive memory records (JSON), at most 500.
   */
  'records': (string)[];
  /**
   * Archive memory id -> new id (PlanMemoryImportResponse.new_ids).
   */
  'memoryIds': ({[key: string]: string});
  /**
   * Archive document id -> id of the document in this tenant (new or existing).
   */
  'documentIds': ({[key: string]: string});
  /**
   * Document generations to mark as formed (the imported documents).
   */
  'formed': (_engram_memories_v1_FormedDocument__Output)[];
}
