// Original file: protos/engram/connections/v1/connections_service.proto

export const SyncRunStatus = {
  SYNC_RUN_STATUS_UNSPECIFIED: 'SYNC_RUN_STATUS_UNSPECIFIED',
  SYNC_RUN_STATUS_QUEUED: 'SYNC_RUN_STATUS_QUEUED',
  SYNC_RUN_STATUS_RUNNING: 'SYNC_RUN_STATUS_RUNNING',
  SYNC_RUN_STATUS_SUCCEEDED: 'SYNC_RUN_STATUS_SUCCEEDED',
  SYNC_RUN_STATUS_FAILED: 'SYNC_RUN_STATUS_FAILED',
  /**
   * Finished, but some items could not be imported (the error says how many and why).
   */
  SYNC_RUN_STATUS_PARTIAL: 'SYNC_RUN_STATUS_PARTIAL',
} as const;

export type SyncRunStatus =
  | 'SYNC_RUN_STATUS_UNSPECIFIED'
  | 0
  | 'SYNC_RUN_STATUS_QUEUED'
  | 1
  | 'SYNC_RUN_STATUS_RUNNING'
  | 2
  | 'SYNC_RUN_STATUS_SUCCEEDED'
  | 3
  | 'SYNC_RUN_STATUS_FAILED'
  | 4
  /**
   * Finished, but some items could not be imported (the error says how many and why).
   */
  | 'SYNC_RUN_STATUS_PARTIAL'
  | 5

export type SyncRunStatus__Output = typeof SyncRunStatus[keyof typeof SyncRunStatus]
