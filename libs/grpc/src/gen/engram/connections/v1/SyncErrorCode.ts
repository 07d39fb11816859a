// Original file: protos/engram/connections/v1/connections_service.proto

/**
 * OpenAPI lastSyncRun.errorCode.
 */
export const SyncErrorCode = {
  SYNC_ERROR_CODE_UNSPECIFIED: 'SYNC_ERROR_CODE_UNSPECIFIED',
  SYNC_ERROR_CODE_AUTH_EXPIRED: 'SYNC_ERROR_CODE_AUTH_EXPIRED',
  SYNC_ERROR_CODE_RATE_LIMITED: 'SYNC_ERROR_CODE_RATE_LIMITED',
  SYNC_ERROR_CODE_PLAN_REQUIRED: 'SYNC_ERROR_CODE_PLAN_REQUIRED',
  SYNC_ERROR_CODE_PROVIDER_UNAVAILABLE: 'SYNC_ERROR_CODE_PROVIDER_UNAVAILABLE',
  SYNC_ERROR_CODE_INTERNAL: 'SYNC_ERROR_CODE_INTERNAL',
} as const;

/**
 * OpenAPI lastSyncRun.errorCode.
 */
export type SyncErrorCode =
  | 'SYNC_ERROR_CODE_UNSPECIFIED'
  | 0
  | 'SYNC_ERROR_CODE_AUTH_EXPIRED'
  | 1
  | 'SYNC_ERROR_CODE_RATE_LIMITED'
  | 2
  | 'SYNC_ERROR_CODE_PLAN_REQUIRED'
  | 3
  | 'SYNC_ERROR_CODE_PROVIDER_UNAVAILABLE'
  | 4
  | 'SYNC_ERROR_CODE_INTERNAL'
  | 5

/**
 * OpenAPI lastSyncRun.errorCode.
 */
export type SyncErrorCode__Output = typeof SyncErrorCode[keyof typeof SyncErrorCode]
