// Original file: protos/engram/ingestion/v1/container_tag_service.proto

/**
 * Role of a tag in a merge that has not finished yet.
 */
export const MergeRole = {
  MERGE_ROLE_UNSPECIFIED: 'MERGE_ROLE_UNSPECIFIED',
  MERGE_ROLE_SOURCE: 'MERGE_ROLE_SOURCE',
  MERGE_ROLE_TARGET: 'MERGE_ROLE_TARGET',
} as const;

/**
 * Role of a tag in a merge that has not finished yet.
 */
export type MergeRole =
  | 'MERGE_ROLE_UNSPECIFIED'
  | 0
  | 'MERGE_ROLE_SOURCE'
  | 1
  | 'MERGE_ROLE_TARGET'
  | 2

/**
 * Role of a tag in a merge that has not finished yet.
 */
export type MergeRole__Output = typeof MergeRole[keyof typeof MergeRole]
