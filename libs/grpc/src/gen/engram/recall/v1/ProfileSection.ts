// Original file: protos/engram/recall/v1/recall_service.proto

/**
 * v4/profile include values. An empty list means every section.
 */
export const ProfileSection = {
  PROFILE_SECTION_UNSPECIFIED: 'PROFILE_SECTION_UNSPECIFIED',
  PROFILE_SECTION_STATIC: 'PROFILE_SECTION_STATIC',
  PROFILE_SECTION_DYNAMIC: 'PROFILE_SECTION_DYNAMIC',
  PROFILE_SECTION_BUCKETS: 'PROFILE_SECTION_BUCKETS',
} as const;

/**
 * v4/profile include values. An empty list means every section.
 */
export type ProfileSection =
  | 'PROFILE_SECTION_UNSPECIFIED'
  | 0
  | 'PROFILE_SECTION_STATIC'
  | 1
  | 'PROFILE_SECTION_DYNAMIC'
  | 2
  | 'PROFILE_SECTION_BUCKETS'
  | 3

/**
 * v4/profile include values. An empty list means every section.
 */
export type ProfileSection__Output = typeof ProfileSection[keyof typeof ProfileSection]
