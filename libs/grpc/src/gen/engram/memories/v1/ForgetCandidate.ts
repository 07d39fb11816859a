// Original file: protos/engram/memories/v1/memories_service.proto


/**
 * A memory selected by a forget operation.
 */
export interface ForgetCandidate {
  'id'?: (string);
  'content'?: (string);
  /**
   * Similarity to the forget query; 1 for id-based selection.
   */
  'score'?: (number | string);
}

/**
 * A memory selected by a forget operation.
 */
export interface ForgetCandidate__Output {
  'id': (string);
  'content': (string);
  /**
   * Similarity to the forget query; 1 for id-based selection.
   */
  'score': (number);
}
