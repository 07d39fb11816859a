// Original file: protos/engram/connections/v1/settings_service.proto

import type { Settings as _engram_connections_v1_Settings, Settings__Output as _engram_connections_v1_Settings__Output } from '../../../engram/connections/v1/Settings';

export interface UpdateSettingsResponse {
  /**
   * Tenant id (REST orgId).
   */
  'tenantId'?: (string);
  /**
   * REST orgSlug.
   */
  'orgSlug'?: (string);
  /**
   * The values now stored for the fields that were changed (other fields
   * unset; secrets never included).
   */
  'updated'?: (_engram_connections_v1_Settings | null);
  /**
   * Names of the fields that were changed (as in update_mask, plus
   * oauth_apps.<provider>.<field> entries).
   */
  'updatedFields'?: (string)[];
  /**
   * What the stored settings ask for that this deployment cannot do (a
   * filter prompt without a configured model); REST `warnings`, absent when empty.
   */
  'warnings'?: (string)[];
}

export interface UpdateSettingsResponse__Output {
  /**
   * Tenant id (REST orgId).
   */
  'tenantId': (string);
  /**
   * REST orgSlug.
   */
  'orgSlug': (string);
  /**
   * The values now stored for the fields that were changed (other fields
   * unset; secrets never included).
   */
  'updated': (_engram_connections_v1_Settings__Output | null);
  /**
   * Names of the fields that were changed (as in update_mask, plus
   * oauth_apps.<provider>.<field> entries).
   */
  'updatedFields': (string)[];
  /**
   * What the stored settings ask for that this deployment cannot do (a
   * filter prompt without a configured model); REST `warnings`, absent when empty.
   */
  'warnings': (string)[];
}
