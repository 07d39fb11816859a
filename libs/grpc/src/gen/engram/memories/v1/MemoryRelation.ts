// Original file: protos/engram/memories/v1/memories_service.proto

/**
 * How a memory relates to another one (OpenAPI memoryRelations / context).
 */
export const MemoryRelation = {
  MEMORY_RELATION_UNSPECIFIED: 'MEMORY_RELATION_UNSPECIFIED',
  /**
   * A newer version that supersedes the other memory.
   */
  MEMORY_RELATION_UPDATES: 'MEMORY_RELATION_UPDATES',
  /**
   * Adds detail to the other memory without replacing it.
   */
  MEMORY_RELATION_EXTENDS: 'MEMORY_RELATION_EXTENDS',
  /**
   * Inferred from the other memory.
   */
  MEMORY_RELATION_DERIVES: 'MEMORY_RELATION_DERIVES',
} as const;

/**
 * How a memory relates to another one (OpenAPI memoryRelations / context).
 */
export type MemoryRelation =
  | 'MEMORY_RELATION_UNSPECIFIED'
  | 0
  /**
   * A newer version that supersedes the other memory.
   */
  | 'MEMORY_RELATION_UPDATES'
  | 1
  /**
   * Adds detail to the other memory without replacing it.
   */
  | 'MEMORY_RELATION_EXTENDS'
  | 2
  /**
   * Inferred from the other memory.
   */
  | 'MEMORY_RELATION_DERIVES'
  | 3

/**
 * How a memory relates to another one (OpenAPI memoryRelations / context).
 */
export type MemoryRelation__Output = typeof MemoryRelation[keyof typeof MemoryRelation]
