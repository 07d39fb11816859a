// Original file: protos/engram/memories/v1/memories_service.proto

import type { ForgetCandidate as _engram_memories_v1_ForgetCandidate, ForgetCandidate__Output as _engram_memories_v1_ForgetCandidate__Output } from '../../../engram/memories/v1/ForgetCandidate';
import type { ForgetError as _engram_memories_v1_ForgetError, ForgetError__Output as _engram_memories_v1_ForgetError__Output } from '../../../engram/memories/v1/ForgetError';

export interface ForgetMemoriesByIdsResponse {
  /**
   * Memories forgotten.
   */
  'count'?: (number);
  /**
   * The memories that were found in the namespace and forgotten.
   */
  'matches'?: (_engram_memories_v1_ForgetCandidate)[];
  /**
   * Ids not found in the namespace or already forgotten.
   */
  'errors'?: (_engram_memories_v1_ForgetError)[];
}

export interface ForgetMemoriesByIdsResponse__Output {
  /**
   * Memories forgotten.
   */
  'count': (number);
  /**
   * The memories that were found in the namespace and forgotten.
   */
  'matches': (_engram_memories_v1_ForgetCandidate__Output)[];
  /**
   * Ids not found in the namespace or already forgotten.
   */
  'errors': (_engram_memories_v1_ForgetError__Output)[];
}
