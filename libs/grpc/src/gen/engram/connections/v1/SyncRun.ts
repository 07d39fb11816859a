// Original file: protos/engram/connections/v1/connections_service.proto

import type { SyncRunStatus as _engram_connections_v1_SyncRunStatus, SyncRunStatus__Output as _engram_connections_v1_SyncRunStatus__Output } from '../../../engram/connections/v1/SyncRunStatus';
import type { SyncTrigger as _engram_connections_v1_SyncTrigger, SyncTrigger__Output as _engram_connections_v1_SyncTrigger__Output } from '../../../engram/connections/v1/SyncTrigger';
import type { SyncErrorCode as _engram_connections_v1_SyncErrorCode, SyncErrorCode__Output as _engram_connections_v1_SyncErrorCode__Output } from '../../../engram/connections/v1/SyncErrorCode';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

export interface SyncRun {
  'id'?: (string);
  'status'?: (_engram_connections_v1_SyncRunStatus);
  'trigger'?: (_engram_connections_v1_SyncTrigger);
  'errorCode'?: (_engram_connections_v1_SyncErrorCode);
  /**
   * Readable error; unset = null.
   */
  'error'?: (string);
  'startedAt'?: (_google_protobuf_Timestamp | null);
  'completedAt'?: (_google_protobuf_Timestamp | null);
  'documentsImported'?: (number);
  '_error'?: "error";
}

export interface SyncRun__Output {
  'id': (string);
  'status': (_engram_connections_v1_SyncRunStatus__Output);
  'trigger': (_engram_connections_v1_SyncTrigger__Output);
  'errorCode': (_engram_connections_v1_SyncErrorCode__Output);
  /**
   * Readable error; unset = null.
   */
  'error'?: (string);
  'startedAt': (_google_protobuf_Timestamp__Output | null);
  'completedAt': (_google_protobuf_Timestamp__Output | null);
  'documentsImported': (number);
  '_error'?: "error";
}
