// Original file: protos/engram/memories/v1/memories_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface ForgetMatchingMemoriesRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * REST containerTag; required.
   */
  'namespace'?: (string);
  /**
   * Instruction or topic (1 to 2000 characters). Give query or ids.
   */
  'query'?: (string);
  /**
   * 1 to 500 exact ids; ids outside the namespace are ignored.
   */
  'ids'?: (string)[];
  'dryRun'?: (boolean);
  /**
   * Minimum similarity; unset = 0.5.
   */
  'threshold'?: (number | string);
  /**
   * Most memories this call may forget; unset = 100, at most 500.
   */
  'maxForget'?: (number);
  /**
   * Stored as forget_reason on each forgotten memory.
   */
  'reason'?: (string);
  '_threshold'?: "threshold";
  '_maxForget'?: "maxForget";
}

export interface ForgetMatchingMemoriesRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * REST containerTag; required.
   */
  'namespace': (string);
  /**
   * Instruction or topic (1 to 2000 characters). Give query or ids.
   */
  'query': (string);
  /**
   * 1 to 500 exact ids; ids outside the namespace are ignored.
   */
  'ids': (string)[];
  'dryRun': (boolean);
  /**
   * Minimum similarity; unset = 0.5.
   */
  'threshold'?: (number);
  /**
   * Most memories this call may forget; unset = 100, at most 500.
   */
  'maxForget'?: (number);
  /**
   * Stored as forget_reason on each forgotten memory.
   */
  'reason': (string);
  '_threshold'?: "threshold";
  '_maxForget'?: "maxForget";
}
