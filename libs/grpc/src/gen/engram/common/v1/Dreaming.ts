// Original file: protos/engram/common/v1/common.proto

/**
 * dreaming (spec, Documents v5 rule 2). UNSPECIFIED means the default: dynamic.
 */
export const Dreaming = {
  DREAMING_UNSPECIFIED: 'DREAMING_UNSPECIFIED',
  DREAMING_DYNAMIC: 'DREAMING_DYNAMIC',
  DREAMING_INSTANT: 'DREAMING_INSTANT',
} as const;

/**
 * dreaming (spec, Documents v5 rule 2). UNSPECIFIED means the default: dynamic.
 */
export type Dreaming =
  | 'DREAMING_UNSPECIFIED'
  | 0
  | 'DREAMING_DYNAMIC'
  | 1
  | 'DREAMING_INSTANT'
  | 2

/**
 * dreaming (spec, Documents v5 rule 2). UNSPECIFIED means the default: dynamic.
 */
export type Dreaming__Output = typeof Dreaming[keyof typeof Dreaming]
