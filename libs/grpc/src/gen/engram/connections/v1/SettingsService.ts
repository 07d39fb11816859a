// Original file: protos/engram/connections/v1/settings_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetSettingsRequest as _engram_connections_v1_GetSettingsRequest, GetSettingsRequest__Output as _engram_connections_v1_GetSettingsRequest__Output } from '../../../engram/connections/v1/GetSettingsRequest';
import type { GetSettingsResponse as _engram_connections_v1_GetSettingsResponse, GetSettingsResponse__Output as _engram_connections_v1_GetSettingsResponse__Output } from '../../../engram/connections/v1/GetSettingsResponse';
import type { ResetOrganizationRequest as _engram_connections_v1_ResetOrganizationRequest, ResetOrganizationRequest__Output as _engram_connections_v1_ResetOrganizationRequest__Output } from '../../../engram/connections/v1/ResetOrganizationRequest';
import type { ResetOrganizationResponse as _engram_connections_v1_ResetOrganizationResponse, ResetOrganizationResponse__Output as _engram_connections_v1_ResetOrganizationResponse__Output } from '../../../engram/connections/v1/ResetOrganizationResponse';
import type { SuggestProfileBucketsRequest as _engram_connections_v1_SuggestProfileBucketsRequest, SuggestProfileBucketsRequest__Output as _engram_connections_v1_SuggestProfileBucketsRequest__Output } from '../../../engram/connections/v1/SuggestProfileBucketsRequest';
import type { SuggestProfileBucketsResponse as _engram_connections_v1_SuggestProfileBucketsResponse, SuggestProfileBucketsResponse__Output as _engram_connections_v1_SuggestProfileBucketsResponse__Output } from '../../../engram/connections/v1/SuggestProfileBucketsResponse';
import type { UpdateSettingsRequest as _engram_connections_v1_UpdateSettingsRequest, UpdateSettingsRequest__Output as _engram_connections_v1_UpdateSettingsRequest__Output } from '../../../engram/connections/v1/UpdateSettingsRequest';
import type { UpdateSettingsResponse as _engram_connections_v1_UpdateSettingsResponse, UpdateSettingsResponse__Output as _engram_connections_v1_UpdateSettingsResponse__Output } from '../../../engram/connections/v1/UpdateSettingsResponse';

/**
 * Organisation-wide settings: content filtering, chunking, workspace prompt,
 * profile buckets and custom OAuth applications per provider. Client secrets
 * are write-only: no response ever carries them. Serves /v3/settings*.
 */
export interface SettingsServiceClient extends grpc.Client {
  /**
   * GET /v3/settings.
   */
  GetSettings(argument: _engram_connections_v1_GetSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetSettingsResponse__Output>): grpc.ClientUnaryCall;
  GetSettings(argument: _engram_connections_v1_GetSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_GetSettingsResponse__Output>): grpc.ClientUnaryCall;
  GetSettings(argument: _engram_connections_v1_GetSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetSettingsResponse__Output>): grpc.ClientUnaryCall;
  GetSettings(argument: _engram_connections_v1_GetSettingsRequest, callback: grpc.requestCallback<_engram_connections_v1_GetSettingsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/settings.
   */
  getSettings(argument: _engram_connections_v1_GetSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetSettingsResponse__Output>): grpc.ClientUnaryCall;
  getSettings(argument: _engram_connections_v1_GetSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_GetSettingsResponse__Output>): grpc.ClientUnaryCall;
  getSettings(argument: _engram_connections_v1_GetSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetSettingsResponse__Output>): grpc.ClientUnaryCall;
  getSettings(argument: _engram_connections_v1_GetSettingsRequest, callback: grpc.requestCallback<_engram_connections_v1_GetSettingsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/settings/reset: removes the tenant's documents, memories, extra
   * container tags, connections and settings; keeps the tenant itself.
   */
  ResetOrganization(argument: _engram_connections_v1_ResetOrganizationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ResetOrganizationResponse__Output>): grpc.ClientUnaryCall;
  ResetOrganization(argument: _engram_connections_v1_ResetOrganizationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ResetOrganizationResponse__Output>): grpc.ClientUnaryCall;
  ResetOrganization(argument: _engram_connections_v1_ResetOrganizationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ResetOrganizationResponse__Output>): grpc.ClientUnaryCall;
  ResetOrganization(argument: _engram_connections_v1_ResetOrganizationRequest, callback: grpc.requestCallback<_engram_connections_v1_ResetOrganizationResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/settings/reset: removes the tenant's documents, memories, extra
   * container tags, connections and settings; keeps the tenant itself.
   */
  resetOrganization(argument: _engram_connections_v1_ResetOrganizationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ResetOrganizationResponse__Output>): grpc.ClientUnaryCall;
  resetOrganization(argument: _engram_connections_v1_ResetOrganizationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ResetOrganizationResponse__Output>): grpc.ClientUnaryCall;
  resetOrganization(argument: _engram_connections_v1_ResetOrganizationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ResetOrganizationResponse__Output>): grpc.ClientUnaryCall;
  resetOrganization(argument: _engram_connections_v1_ResetOrganizationRequest, callback: grpc.requestCallback<_engram_connections_v1_ResetOrganizationResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/settings/suggest-buckets: 3 to 6 bucket suggestions derived from
   * the workspace prompt and a sample of memories. FAILED_PRECONDITION (HTTP
   * 400) when there is neither.
   */
  SuggestProfileBuckets(argument: _engram_connections_v1_SuggestProfileBucketsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_SuggestProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  SuggestProfileBuckets(argument: _engram_connections_v1_SuggestProfileBucketsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_SuggestProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  SuggestProfileBuckets(argument: _engram_connections_v1_SuggestProfileBucketsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_SuggestProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  SuggestProfileBuckets(argument: _engram_connections_v1_SuggestProfileBucketsRequest, callback: grpc.requestCallback<_engram_connections_v1_SuggestProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/settings/suggest-buckets: 3 to 6 bucket suggestions derived from
   * the workspace prompt and a sample of memories. FAILED_PRECONDITION (HTTP
   * 400) when there is neither.
   */
  suggestProfileBuckets(argument: _engram_connections_v1_SuggestProfileBucketsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_SuggestProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  suggestProfileBuckets(argument: _engram_connections_v1_SuggestProfileBucketsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_SuggestProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  suggestProfileBuckets(argument: _engram_connections_v1_SuggestProfileBucketsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_SuggestProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  suggestProfileBuckets(argument: _engram_connections_v1_SuggestProfileBucketsRequest, callback: grpc.requestCallback<_engram_connections_v1_SuggestProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * PATCH /v3/settings. Enabling a custom OAuth app applies to new
   * connections of that provider; existing ones must be re-authorized.
   */
  UpdateSettings(argument: _engram_connections_v1_UpdateSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_UpdateSettingsResponse__Output>): grpc.ClientUnaryCall;
  UpdateSettings(argument: _engram_connections_v1_UpdateSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_UpdateSettingsResponse__Output>): grpc.ClientUnaryCall;
  UpdateSettings(argument: _engram_connections_v1_UpdateSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_UpdateSettingsResponse__Output>): grpc.ClientUnaryCall;
  UpdateSettings(argument: _engram_connections_v1_UpdateSettingsRequest, callback: grpc.requestCallback<_engram_connections_v1_UpdateSettingsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * PATCH /v3/settings. Enabling a custom OAuth app applies to new
   * connections of that provider; existing ones must be re-authorized.
   */
  updateSettings(argument: _engram_connections_v1_UpdateSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_UpdateSettingsResponse__Output>): grpc.ClientUnaryCall;
  updateSettings(argument: _engram_connections_v1_UpdateSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_UpdateSettingsResponse__Output>): grpc.ClientUnaryCall;
  updateSettings(argument: _engram_connections_v1_UpdateSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_UpdateSettingsResponse__Output>): grpc.ClientUnaryCall;
  updateSettings(argument: _engram_connections_v1_UpdateSettingsRequest, callback: grpc.requestCallback<_engram_connections_v1_UpdateSettingsResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Organisation-wide settings: content filtering, chunking, workspace prompt,
 * profile buckets and custom OAuth applications per provider. Client secrets
 * are write-only: no response ever carries them. Serves /v3/settings*.
 */
export interface SettingsServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * GET /v3/settings.
   */
  GetSettings: grpc.handleUnaryCall<_engram_connections_v1_GetSettingsRequest__Output, _engram_connections_v1_GetSettingsResponse>;
  
  /**
   * POST /v3/settings/reset: removes the tenant's documents, memories, extra
   * container tags, connections and settings; keeps the tenant itself.
   */
  ResetOrganization: grpc.handleUnaryCall<_engram_connections_v1_ResetOrganizationRequest__Output, _engram_connections_v1_ResetOrganizationResponse>;
  
  /**
   * POST /v3/settings/suggest-buckets: 3 to 6 bucket suggestions derived from
   * the workspace prompt and a sample of memories. FAILED_PRECONDITION (HTTP
   * 400) when there is neither.
   */
  SuggestProfileBuckets: grpc.handleUnaryCall<_engram_connections_v1_SuggestProfileBucketsRequest__Output, _engram_connections_v1_SuggestProfileBucketsResponse>;
  
  /**
   * PATCH /v3/settings. Enabling a custom OAuth app applies to new
   * connections of that provider; existing ones must be re-authorized.
   */
  UpdateSettings: grpc.handleUnaryCall<_engram_connections_v1_UpdateSettingsRequest__Output, _engram_connections_v1_UpdateSettingsResponse>;
  
}

export interface SettingsServiceDefinition extends grpc.ServiceDefinition {
  GetSettings: MethodDefinition<_engram_connections_v1_GetSettingsRequest, _engram_connections_v1_GetSettingsResponse, _engram_connections_v1_GetSettingsRequest__Output, _engram_connections_v1_GetSettingsResponse__Output>
  ResetOrganization: MethodDefinition<_engram_connections_v1_ResetOrganizationRequest, _engram_connections_v1_ResetOrganizationResponse, _engram_connections_v1_ResetOrganizationRequest__Output, _engram_connections_v1_ResetOrganizationResponse__Output>
  SuggestProfileBuckets: MethodDefinition<_engram_connections_v1_SuggestProfileBucketsRequest, _engram_connections_v1_SuggestProfileBucketsResponse, _engram_connections_v1_SuggestProfileBucketsRequest__Output, _engram_connections_v1_SuggestProfileBucketsResponse__Output>
  UpdateSettings: MethodDefinition<_engram_connections_v1_UpdateSettingsRequest, _engram_connections_v1_UpdateSettingsResponse, _engram_connections_v1_UpdateSettingsRequest__Output, _engram_connections_v1_UpdateSettingsResponse__Output>
}
