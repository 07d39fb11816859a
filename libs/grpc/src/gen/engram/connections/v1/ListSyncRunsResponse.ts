// Original file: protos/engram/connections/v1/connections_service.proto

import type { SyncRun as _engram_connections_v1_SyncRun, SyncRun__Output as _engram_connections_v1_SyncRun__Output } from '../../../engram/connections/v1/SyncRun';

export interface ListSyncRunsResponse {
  /**
   * Newest first (by start time).
   */
  'runs'?: (_engram_connections_v1_SyncRun)[];
}

export interface ListSyncRunsResponse__Output {
  /**
   * Newest first (by start time).
   */
  'runs': (_engram_connections_v1_SyncRun__Output)[];
}
