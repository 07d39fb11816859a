// Original file: protos/engram/ingestion/v1/container_tag_service.proto

/**
 * OpenAPI visibility of a space.
 */
export const ContainerTagVisibility = {
  CONTAINER_TAG_VISIBILITY_UNSPECIFIED: 'CONTAINER_TAG_VISIBILITY_UNSPECIFIED',
  CONTAINER_TAG_VISIBILITY_PUBLIC: 'CONTAINER_TAG_VISIBILITY_PUBLIC',
  CONTAINER_TAG_VISIBILITY_PRIVATE: 'CONTAINER_TAG_VISIBILITY_PRIVATE',
  CONTAINER_TAG_VISIBILITY_UNLISTED: 'CONTAINER_TAG_VISIBILITY_UNLISTED',
} as const;

/**
 * OpenAPI visibility of a space.
 */
export type ContainerTagVisibility =
  | 'CONTAINER_TAG_VISIBILITY_UNSPECIFIED'
  | 0
  | 'CONTAINER_TAG_VISIBILITY_PUBLIC'
  | 1
  | 'CONTAINER_TAG_VISIBILITY_PRIVATE'
  | 2
  | 'CONTAINER_TAG_VISIBILITY_UNLISTED'
  | 3

/**
 * OpenAPI visibility of a space.
 */
export type ContainerTagVisibility__Output = typeof ContainerTagVisibility[keyof typeof ContainerTagVisibility]
