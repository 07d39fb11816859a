// Original file: protos/engram/recall/v1/recall_service.proto


/**
 * v4/search include flags (all default false).
 */
export interface SearchInclude {
  /**
   * Attach source documents (title, type, metadata) to memory results.
   */
  'documents'?: (boolean);
  /**
   * Attach document summaries.
   */
  'summaries'?: (boolean);
  /**
   * Fill SearchV4Result.context (versions and extends/derives relations).
   */
  'relatedMemories'?: (boolean);
  /**
   * Also match memories that were forgotten or have expired.
   */
  'forgottenMemories'?: (boolean);
  /**
   * Deprecated: switches to hybrid and embeds chunks in memory results
   * instead of returning chunk results (old response format).
   */
  'chunks'?: (boolean);
}

/**
 * v4/search include flags (all default false).
 */
export interface SearchInclude__Output {
  /**
   * Attach source documents (title, type, metadata) to memory results.
   */
  'documents': (boolean);
  /**
   * Attach document summaries.
   */
  'summaries': (boolean);
  /**
   * Fill SearchV4Result.context (versions and extends/derives relations).
   */
  'relatedMemories': (boolean);
  /**
   * Also match memories that were forgotten or have expired.
   */
  'forgottenMemories': (boolean);
  /**
   * Deprecated: switches to hybrid and embeds chunks in memory results
   * instead of returning chunk results (old response format).
   */
  'chunks': (boolean);
}
