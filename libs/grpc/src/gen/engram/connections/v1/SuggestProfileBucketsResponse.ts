// Original file: protos/engram/connections/v1/settings_service.proto

import type { ProfileBucket as _engram_common_v1_ProfileBucket, ProfileBucket__Output as _engram_common_v1_ProfileBucket__Output } from '../../../engram/common/v1/ProfileBucket';

export interface SuggestProfileBucketsResponse {
  'suggestions'?: (_engram_common_v1_ProfileBucket)[];
}

export interface SuggestProfileBucketsResponse__Output {
  'suggestions': (_engram_common_v1_ProfileBucket__Output)[];
}
