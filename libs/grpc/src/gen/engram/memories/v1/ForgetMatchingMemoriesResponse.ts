// Original file: protos/engram/memories/v1/memories_service.proto

import type { ForgetCandidate as _engram_memories_v1_ForgetCandidate, ForgetCandidate__Output as _engram_memories_v1_ForgetCandidate__Output } from '../../../engram/memories/v1/ForgetCandidate';

export interface ForgetMatchingMemoriesResponse {
  'dryRun'?: (boolean);
  /**
   * Memories selected (dry run) or forgotten.
   */
  'count'?: (number);
  /**
   * Tag put on every memory forgotten by this call; unset on dry run.
   */
  'forgetBatchId'?: (string);
  /**
   * One-line account of what was selected or done.
   */
  'summary'?: (string);
  /**
   * Dry run only: what would be forgotten.
   */
  'candidates'?: (_engram_memories_v1_ForgetCandidate)[];
  /**
   * Real run only: what was forgotten.
   */
  'forgotten'?: (_engram_memories_v1_ForgetCandidate)[];
  '_forgetBatchId'?: "forgetBatchId";
}

export interface ForgetMatchingMemoriesResponse__Output {
  'dryRun': (boolean);
  /**
   * Memories selected (dry run) or forgotten.
   */
  'count': (number);
  /**
   * Tag put on every memory forgotten by this call; unset on dry run.
   */
  'forgetBatchId'?: (string);
  /**
   * One-line account of what was selected or done.
   */
  'summary': (string);
  /**
   * Dry run only: what would be forgotten.
   */
  'candidates': (_engram_memories_v1_ForgetCandidate__Output)[];
  /**
   * Real run only: what was forgotten.
   */
  'forgotten': (_engram_memories_v1_ForgetCandidate__Output)[];
  '_forgetBatchId'?: "forgetBatchId";
}
