// Original file: protos/engram/connections/v1/settings_service.proto

import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value';
import type { ProfileBucket as _engram_common_v1_ProfileBucket, ProfileBucket__Output as _engram_common_v1_ProfileBucket__Output } from '../../../engram/common/v1/ProfileBucket';
import type { OAuthApp as _engram_connections_v1_OAuthApp, OAuthApp__Output as _engram_connections_v1_OAuthApp__Output } from '../../../engram/connections/v1/OAuthApp';

export interface Settings {
  /**
   * Items to leave out of imports; any JSON value, unset = null.
   */
  'excludeItems'?: (_google_protobuf_Value | null);
  /**
   * Items to import; any JSON value, unset = null.
   */
  'includeItems'?: (_google_protobuf_Value | null);
  /**
   * Prompt for the LLM content filter; unset = null.
   */
  'filterPrompt'?: (string);
  /**
   * Run the LLM content filter on incoming content; unset = null.
   */
  'shouldLlmFilter'?: (boolean);
  /**
   * Chunk size for document processing; unset = null (default size).
   */
  'chunkSize'?: (number);
  /**
   * Org-level buckets (at most 50).
   */
  'profileBuckets'?: (_engram_common_v1_ProfileBucket)[];
  /**
   * Context prompt describing the workspace (at most 1500 characters);
   * unset = null.
   */
  'workspacePrompt'?: (string);
  /**
   * Custom OAuth apps (OpenAPI: google-drive, notion, onedrive, github).
   */
  'oauthApps'?: (_engram_connections_v1_OAuthApp)[];
  /**
   * Origins (https://app.example.com) connections may redirect the browser
   * to after OAuth consent (Engram extension; ENGRAM_PUBLIC_URL's origin is
   * always allowed).
   */
  'allowedRedirectOrigins'?: (string)[];
  '_filterPrompt'?: "filterPrompt";
  '_shouldLlmFilter'?: "shouldLlmFilter";
  '_chunkSize'?: "chunkSize";
  '_workspacePrompt'?: "workspacePrompt";
}

export interface Settings__Output {
  /**
   * Items to leave out of imports; any JSON value, unset = null.
   */
  'excludeItems': (_google_protobuf_Value__Output | null);
  /**
   * Items to import; any JSON value, unset = null.
   */
  'includeItems': (_google_protobuf_Value__Output | null);
  /**
   * Prompt for the LLM content filter; unset = null.
   */
  'filterPrompt'?: (string);
  /**
   * Run the LLM content filter on incoming content; unset = null.
   */
  'shouldLlmFilter'?: (boolean);
  /**
   * Chunk size for document processing; unset = null (default size).
   */
  'chunkSize'?: (number);
  /**
   * Org-level buckets (at most 50).
   */
  'profileBuckets': (_engram_common_v1_ProfileBucket__Output)[];
  /**
   * Context prompt describing the workspace (at most 1500 characters);
   * unset = null.
   */
  'workspacePrompt'?: (string);
  /**
   * Custom OAuth apps (OpenAPI: google-drive, notion, onedrive, github).
   */
  'oauthApps': (_engram_connections_v1_OAuthApp__Output)[];
  /**
   * Origins (https://app.example.com) connections may redirect the browser
   * to after OAuth consent (Engram extension; ENGRAM_PUBLIC_URL's origin is
   * always allowed).
   */
  'allowedRedirectOrigins': (string)[];
  '_filterPrompt'?: "filterPrompt";
  '_shouldLlmFilter'?: "shouldLlmFilter";
  '_chunkSize'?: "chunkSize";
  '_workspacePrompt'?: "workspacePrompt";
}
