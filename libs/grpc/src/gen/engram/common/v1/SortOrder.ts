// Original file: protos/engram/common/v1/common.proto

export const SortOrder = {
  SORT_ORDER_UNSPECIFIED: 'SORT_ORDER_UNSPECIFIED',
  SORT_ORDER_ASC: 'SORT_ORDER_ASC',
  SORT_ORDER_DESC: 'SORT_ORDER_DESC',
} as const;

export type SortOrder =
  | 'SORT_ORDER_UNSPECIFIED'
  | 0
  | 'SORT_ORDER_ASC'
  | 1
  | 'SORT_ORDER_DESC'
  | 2

export type SortOrder__Output = typeof SortOrder[keyof typeof SortOrder]
