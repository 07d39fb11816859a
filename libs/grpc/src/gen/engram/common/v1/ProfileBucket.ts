// Original file: protos/engram/common/v1/common.proto


/**
 * A profile bucket definition (OpenAPI: profileBuckets items). Defined
 * org-wide in settings (connections) and added per container tag (ingestion);
 * recall and memories read the effective list.
 */
export interface ProfileBucket {
  /**
   * Stable slug stored on every memory classified into the bucket
   * (lowercase letters, digits, '_' and '-'; 1 to 64 characters).
   */
  'key'?: (string);
  /**
   * What belongs in the bucket; guides the classifier. Empty when not given.
   */
  'description'?: (string);
}

/**
 * A profile bucket definition (OpenAPI: profileBuckets items). Defined
 * org-wide in settings (connections) and added per container tag (ingestion);
 * recall and memories read the effective list.
 */
export interface ProfileBucket__Output {
  /**
   * Stable slug stored on every memory classified into the bucket
   * (lowercase letters, digits, '_' and '-'; 1 to 64 characters).
   */
  'key': (string);
  /**
   * What belongs in the bucket; guides the classifier. Empty when not given.
   */
  'description': (string);
}
