// Original file: protos/engram/connections/v1/settings_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';

export interface ResetOrganizationRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  /**
   * Must equal the organisation slug (REST orgSlug); INVALID_ARGUMENT otherwise.
   */
  'confirmation'?: (string);
}

export interface ResetOrganizationRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  /**
   * Must equal the organisation slug (REST orgSlug); INVALID_ARGUMENT otherwise.
   */
  'confirmation': (string);
}
