// Original file: protos/engram/recall/v1/recall_service.proto

/**
 * searchMode. UNSPECIFIED means the default: memories.
 */
export const SearchMode = {
  SEARCH_MODE_UNSPECIFIED: 'SEARCH_MODE_UNSPECIFIED',
  SEARCH_MODE_MEMORIES: 'SEARCH_MODE_MEMORIES',
  SEARCH_MODE_HYBRID: 'SEARCH_MODE_HYBRID',
  SEARCH_MODE_DOCUMENTS: 'SEARCH_MODE_DOCUMENTS',
} as const;

/**
 * searchMode. UNSPECIFIED means the default: memories.
 */
export type SearchMode =
  | 'SEARCH_MODE_UNSPECIFIED'
  | 0
  | 'SEARCH_MODE_MEMORIES'
  | 1
  | 'SEARCH_MODE_HYBRID'
  | 2
  | 'SEARCH_MODE_DOCUMENTS'
  | 3

/**
 * searchMode. UNSPECIFIED means the default: memories.
 */
export type SearchMode__Output = typeof SearchMode[keyof typeof SearchMode]
