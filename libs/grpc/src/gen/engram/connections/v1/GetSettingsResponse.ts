// Original file: protos/engram/connections/v1/settings_service.proto

import type { Settings as _engram_connections_v1_Settings, Settings__Output as _engram_connections_v1_Settings__Output } from '../../../engram/connections/v1/Settings';

export interface GetSettingsResponse {
  'settings'?: (_engram_connections_v1_Settings | null);
}

export interface GetSettingsResponse__Output {
  'settings': (_engram_connections_v1_Settings__Output | null);
}
