// Original file: protos/engram/common/v1/common.proto

/**
 * taskType (spec, Documents v5 rule 1). UNSPECIFIED means the default: memory.
 */
export const TaskType = {
  TASK_TYPE_UNSPECIFIED: 'TASK_TYPE_UNSPECIFIED',
  TASK_TYPE_MEMORY: 'TASK_TYPE_MEMORY',
  TASK_TYPE_SUPERRAG: 'TASK_TYPE_SUPERRAG',
} as const;

/**
 * taskType (spec, Documents v5 rule 1). UNSPECIFIED means the default: memory.
 */
export type TaskType =
  | 'TASK_TYPE_UNSPECIFIED'
  | 0
  | 'TASK_TYPE_MEMORY'
  | 1
  | 'TASK_TYPE_SUPERRAG'
  | 2

/**
 * taskType (spec, Documents v5 rule 1). UNSPECIFIED means the default: memory.
 */
export type TaskType__Output = typeof TaskType[keyof typeof TaskType]
