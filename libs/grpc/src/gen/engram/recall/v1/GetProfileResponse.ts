// Original file: protos/engram/recall/v1/recall_service.proto

import type { Profile as _engram_recall_v1_Profile, Profile__Output as _engram_recall_v1_Profile__Output } from '../../../engram/recall/v1/Profile';
import type { ProfileSearchResults as _engram_recall_v1_ProfileSearchResults, ProfileSearchResults__Output as _engram_recall_v1_ProfileSearchResults__Output } from '../../../engram/recall/v1/ProfileSearchResults';

export interface GetProfileResponse {
  /**
   * Only the sections asked for are filled.
   */
  'profile'?: (_engram_recall_v1_Profile | null);
  /**
   * Set only when q was given.
   */
  'searchResults'?: (_engram_recall_v1_ProfileSearchResults | null);
}

export interface GetProfileResponse__Output {
  /**
   * Only the sections asked for are filled.
   */
  'profile': (_engram_recall_v1_Profile__Output | null);
  /**
   * Set only when q was given.
   */
  'searchResults': (_engram_recall_v1_ProfileSearchResults__Output | null);
}
