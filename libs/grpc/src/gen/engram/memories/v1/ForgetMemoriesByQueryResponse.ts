// Original file: protos/engram/memories/v1/memories_service.proto

import type { ForgetCandidate as _engram_memories_v1_ForgetCandidate, ForgetCandidate__Output as _engram_memories_v1_ForgetCandidate__Output } from '../../../engram/memories/v1/ForgetCandidate';
import type { ForgetError as _engram_memories_v1_ForgetError, ForgetError__Output as _engram_memories_v1_ForgetError__Output } from '../../../engram/memories/v1/ForgetError';

export interface ForgetMemoriesByQueryResponse {
  /**
   * Memories forgotten, or that would be on dry run.
   */
  'count'?: (number);
  'matches'?: (_engram_memories_v1_ForgetCandidate)[];
  'errors'?: (_engram_memories_v1_ForgetError)[];
  'dryRun'?: (boolean);
}

export interface ForgetMemoriesByQueryResponse__Output {
  /**
   * Memories forgotten, or that would be on dry run.
   */
  'count': (number);
  'matches': (_engram_memories_v1_ForgetCandidate__Output)[];
  'errors': (_engram_memories_v1_ForgetError__Output)[];
  'dryRun': (boolean);
}
