// Original file: protos/engram/recall/v1/recall_service.proto

import type { BucketMemories as _engram_recall_v1_BucketMemories, BucketMemories__Output as _engram_recall_v1_BucketMemories__Output } from '../../../engram/recall/v1/BucketMemories';

export interface Profile {
  /**
   * Long-lived facts (REST static).
   */
  'staticMemories'?: (string)[];
  /**
   * Recent facts (REST dynamic).
   */
  'dynamicMemories'?: (string)[];
  /**
   * Memories per bucket key.
   */
  'buckets'?: ({[key: string]: _engram_recall_v1_BucketMemories});
}

export interface Profile__Output {
  /**
   * Long-lived facts (REST static).
   */
  'staticMemories': (string)[];
  /**
   * Recent facts (REST dynamic).
   */
  'dynamicMemories': (string)[];
  /**
   * Memories per bucket key.
   */
  'buckets': ({[key: string]: _engram_recall_v1_BucketMemories__Output});
}
