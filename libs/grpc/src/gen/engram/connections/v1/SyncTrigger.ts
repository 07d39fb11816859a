// Original file: protos/engram/connections/v1/connections_service.proto

/**
 * What started a sync run (spec, Events: sync triggers).
 */
export const SyncTrigger = {
  SYNC_TRIGGER_UNSPECIFIED: 'SYNC_TRIGGER_UNSPECIFIED',
  /**
   * First sync after authorization or configure.
   */
  SYNC_TRIGGER_INITIAL: 'SYNC_TRIGGER_INITIAL',
  SYNC_TRIGGER_WEBHOOK: 'SYNC_TRIGGER_WEBHOOK',
  SYNC_TRIGGER_SCHEDULED: 'SYNC_TRIGGER_SCHEDULED',
  SYNC_TRIGGER_MANUAL: 'SYNC_TRIGGER_MANUAL',
} as const;

/**
 * What started a sync run (spec, Events: sync triggers).
 */
export type SyncTrigger =
  | 'SYNC_TRIGGER_UNSPECIFIED'
  | 0
  /**
   * First sync after authorization or configure.
   */
  | 'SYNC_TRIGGER_INITIAL'
  | 1
  | 'SYNC_TRIGGER_WEBHOOK'
  | 2
  | 'SYNC_TRIGGER_SCHEDULED'
  | 3
  | 'SYNC_TRIGGER_MANUAL'
  | 4

/**
 * What started a sync run (spec, Events: sync triggers).
 */
export type SyncTrigger__Output = typeof SyncTrigger[keyof typeof SyncTrigger]
