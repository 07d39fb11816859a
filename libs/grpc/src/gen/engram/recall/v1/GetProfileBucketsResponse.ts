// Original file: protos/engram/recall/v1/recall_service.proto

import type { ProfileBucket as _engram_common_v1_ProfileBucket, ProfileBucket__Output as _engram_common_v1_ProfileBucket__Output } from '../../../engram/common/v1/ProfileBucket';

export interface GetProfileBucketsResponse {
  'buckets'?: (_engram_common_v1_ProfileBucket)[];
}

export interface GetProfileBucketsResponse__Output {
  'buckets': (_engram_common_v1_ProfileBucket__Output)[];
}
