// Original file: protos/engram/connections/v1/settings_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value';
import type { ProfileBucket as _engram_common_v1_ProfileBucket, ProfileBucket__Output as _engram_common_v1_ProfileBucket__Output } from '../../../engram/common/v1/ProfileBucket';
import type { OAuthAppPatch as _engram_connections_v1_OAuthAppPatch, OAuthAppPatch__Output as _engram_connections_v1_OAuthAppPatch__Output } from '../../../engram/connections/v1/OAuthAppPatch';

export interface UpdateSettingsRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'excludeItems'?: (_google_protobuf_Value | null);
  'includeItems'?: (_google_protobuf_Value | null);
  'filterPrompt'?: (string);
  'shouldLlmFilter'?: (boolean);
  'chunkSize'?: (number);
  /**
   * Replaces the org bucket list.
   */
  'profileBuckets'?: (_engram_common_v1_ProfileBucket)[];
  'workspacePrompt'?: (string);
  /**
   * One entry per provider changed (REST <provider>ClientId, ...ClientSecret,
   * ...CustomKeyEnabled).
   */
  'oauthApps'?: (_engram_connections_v1_OAuthAppPatch)[];
  /**
   * Top-level fields the caller sent: exclude_items, include_items,
   * filter_prompt, should_llm_filter, chunk_size, profile_buckets,
   * workspace_prompt, allowed_redirect_origins. A listed field left unset
   * means JSON null (clear); an unlisted field is kept. OAuth changes are
   * described by oauth_apps.
   */
  'updateMask'?: (string)[];
  /**
   * Replaces the list of allowed redirect origins.
   */
  'allowedRedirectOrigins'?: (string)[];
  '_filterPrompt'?: "filterPrompt";
  '_shouldLlmFilter'?: "shouldLlmFilter";
  '_chunkSize'?: "chunkSize";
  '_workspacePrompt'?: "workspacePrompt";
}

export interface UpdateSettingsRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'excludeItems': (_google_protobuf_Value__Output | null);
  'includeItems': (_google_protobuf_Value__Output | null);
  'filterPrompt'?: (string);
  'shouldLlmFilter'?: (boolean);
  'chunkSize'?: (number);
  /**
   * Replaces the org bucket list.
   */
  'profileBuckets': (_engram_common_v1_ProfileBucket__Output)[];
  'workspacePrompt'?: (string);
  /**
   * One entry per provider changed (REST <provider>ClientId, ...ClientSecret,
   * ...CustomKeyEnabled).
   */
  'oauthApps': (_engram_connections_v1_OAuthAppPatch__Output)[];
  /**
   * Top-level fields the caller sent: exclude_items, include_items,
   * filter_prompt, should_llm_filter, chunk_size, profile_buckets,
   * workspace_prompt, allowed_redirect_origins. A listed field left unset
   * means JSON null (clear); an unlisted field is kept. OAuth changes are
   * described by oauth_apps.
   */
  'updateMask': (string)[];
  /**
   * Replaces the list of allowed redirect origins.
   */
  'allowedRedirectOrigins': (string)[];
  '_filterPrompt'?: "filterPrompt";
  '_shouldLlmFilter'?: "shouldLlmFilter";
  '_chunkSize'?: "chunkSize";
  '_workspacePrompt'?: "workspacePrompt";
}
