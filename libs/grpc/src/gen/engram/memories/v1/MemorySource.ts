// Original file: protos/engram/memories/v1/memories_service.proto


/**
 * Provenance: one source document of a memory.
 */
export interface MemorySource {
  'documentId'?: (string);
  /**
   * 0-based positions of the chunks the memory was formed from.
   */
  'chunkPositions'?: (number)[];
  'chunkIds'?: (string)[];
}

/**
 * Provenance: one source document of a memory.
 */
export interface MemorySource__Output {
  'documentId': (string);
  /**
   * 0-based positions of the chunks the memory was formed from.
   */
  'chunkPositions': (number)[];
  'chunkIds': (string)[];
}
