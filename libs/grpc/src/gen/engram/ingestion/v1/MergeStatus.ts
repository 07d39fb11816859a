// Original file: protos/engram/ingestion/v1/container_tag_service.proto

export const MergeStatus = {
  MERGE_STATUS_UNSPECIFIED: 'MERGE_STATUS_UNSPECIFIED',
  MERGE_STATUS_QUEUED: 'MERGE_STATUS_QUEUED',
  MERGE_STATUS_RUNNING: 'MERGE_STATUS_RUNNING',
  MERGE_STATUS_COMPLETED: 'MERGE_STATUS_COMPLETED',
  MERGE_STATUS_FAILED: 'MERGE_STATUS_FAILED',
} as const;

export type MergeStatus =
  | 'MERGE_STATUS_UNSPECIFIED'
  | 0
  | 'MERGE_STATUS_QUEUED'
  | 1
  | 'MERGE_STATUS_RUNNING'
  | 2
  | 'MERGE_STATUS_COMPLETED'
  | 3
  | 'MERGE_STATUS_FAILED'
  | 4

export type MergeStatus__Output = typeof MergeStatus[keyof typeof MergeStatus]
