// Original file: protos/engram/connections/v1/connections_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ConfigureConnectionRequest as _engram_connections_v1_ConfigureConnectionRequest, ConfigureConnectionRequest__Output as _engram_connections_v1_ConfigureConnectionRequest__Output } from '../../../engram/connections/v1/ConfigureConnectionRequest';
import type { ConfigureConnectionResponse as _engram_connections_v1_ConfigureConnectionResponse, ConfigureConnectionResponse__Output as _engram_connections_v1_ConfigureConnectionResponse__Output } from '../../../engram/connections/v1/ConfigureConnectionResponse';
import type { CreateConnectionRequest as _engram_connections_v1_CreateConnectionRequest, CreateConnectionRequest__Output as _engram_connections_v1_CreateConnectionRequest__Output } from '../../../engram/connections/v1/CreateConnectionRequest';
import type { CreateConnectionResponse as _engram_connections_v1_CreateConnectionResponse, CreateConnectionResponse__Output as _engram_connections_v1_CreateConnectionResponse__Output } from '../../../engram/connections/v1/CreateConnectionResponse';
import type { DeleteConnectionByProviderRequest as _engram_connections_v1_DeleteConnectionByProviderRequest, DeleteConnectionByProviderRequest__Output as _engram_connections_v1_DeleteConnectionByProviderRequest__Output } from '../../../engram/connections/v1/DeleteConnectionByProviderRequest';
import type { DeleteConnectionByProviderResponse as _engram_connections_v1_DeleteConnectionByProviderResponse, DeleteConnectionByProviderResponse__Output as _engram_connections_v1_DeleteConnectionByProviderResponse__Output } from '../../../engram/connections/v1/DeleteConnectionByProviderResponse';
import type { DeleteConnectionRequest as _engram_connections_v1_DeleteConnectionRequest, DeleteConnectionRequest__Output as _engram_connections_v1_DeleteConnectionRequest__Output } from '../../../engram/connections/v1/DeleteConnectionRequest';
import type { DeleteConnectionResponse as _engram_connections_v1_DeleteConnectionResponse, DeleteConnectionResponse__Output as _engram_connections_v1_DeleteConnectionResponse__Output } from '../../../engram/connections/v1/DeleteConnectionResponse';
import type { GetConnectionByTagsRequest as _engram_connections_v1_GetConnectionByTagsRequest, GetConnectionByTagsRequest__Output as _engram_connections_v1_GetConnectionByTagsRequest__Output } from '../../../engram/connections/v1/GetConnectionByTagsRequest';
import type { GetConnectionByTagsResponse as _engram_connections_v1_GetConnectionByTagsResponse, GetConnectionByTagsResponse__Output as _engram_connections_v1_GetConnectionByTagsResponse__Output } from '../../../engram/connections/v1/GetConnectionByTagsResponse';
import type { GetConnectionRequest as _engram_connections_v1_GetConnectionRequest, GetConnectionRequest__Output as _engram_connections_v1_GetConnectionRequest__Output } from '../../../engram/connections/v1/GetConnectionRequest';
import type { GetConnectionResponse as _engram_connections_v1_GetConnectionResponse, GetConnectionResponse__Output as _engram_connections_v1_GetConnectionResponse__Output } from '../../../engram/connections/v1/GetConnectionResponse';
import type { HandleOAuthCallbackRequest as _engram_connections_v1_HandleOAuthCallbackRequest, HandleOAuthCallbackRequest__Output as _engram_connections_v1_HandleOAuthCallbackRequest__Output } from '../../../engram/connections/v1/HandleOAuthCallbackRequest';
import type { HandleOAuthCallbackResponse as _engram_connections_v1_HandleOAuthCallbackResponse, HandleOAuthCallbackResponse__Output as _engram_connections_v1_HandleOAuthCallbackResponse__Output } from '../../../engram/connections/v1/HandleOAuthCallbackResponse';
import type { HandleProviderWebhookRequest as _engram_connections_v1_HandleProviderWebhookRequest, HandleProviderWebhookRequest__Output as _engram_connections_v1_HandleProviderWebhookRequest__Output } from '../../../engram/connections/v1/HandleProviderWebhookRequest';
import type { HandleProviderWebhookResponse as _engram_connections_v1_HandleProviderWebhookResponse, HandleProviderWebhookResponse__Output as _engram_connections_v1_HandleProviderWebhookResponse__Output } from '../../../engram/connections/v1/HandleProviderWebhookResponse';
import type { ImportConnectionsRequest as _engram_connections_v1_ImportConnectionsRequest, ImportConnectionsRequest__Output as _engram_connections_v1_ImportConnectionsRequest__Output } from '../../../engram/connections/v1/ImportConnectionsRequest';
import type { ImportConnectionsResponse as _engram_connections_v1_ImportConnectionsResponse, ImportConnectionsResponse__Output as _engram_connections_v1_ImportConnectionsResponse__Output } from '../../../engram/connections/v1/ImportConnectionsResponse';
import type { ListConnectionDocumentsRequest as _engram_connections_v1_ListConnectionDocumentsRequest, ListConnectionDocumentsRequest__Output as _engram_connections_v1_ListConnectionDocumentsRequest__Output } from '../../../engram/connections/v1/ListConnectionDocumentsRequest';
import type { ListConnectionDocumentsResponse as _engram_connections_v1_ListConnectionDocumentsResponse, ListConnectionDocumentsResponse__Output as _engram_connections_v1_ListConnectionDocumentsResponse__Output } from '../../../engram/connections/v1/ListConnectionDocumentsResponse';
import type { ListConnectionResourcesRequest as _engram_connections_v1_ListConnectionResourcesRequest, ListConnectionResourcesRequest__Output as _engram_connections_v1_ListConnectionResourcesRequest__Output } from '../../../engram/connections/v1/ListConnectionResourcesRequest';
import type { ListConnectionResourcesResponse as _engram_connections_v1_ListConnectionResourcesResponse, ListConnectionResourcesResponse__Output as _engram_connections_v1_ListConnectionResourcesResponse__Output } from '../../../engram/connections/v1/ListConnectionResourcesResponse';
import type { ListConnectionsRequest as _engram_connections_v1_ListConnectionsRequest, ListConnectionsRequest__Output as _engram_connections_v1_ListConnectionsRequest__Output } from '../../../engram/connections/v1/ListConnectionsRequest';
import type { ListConnectionsResponse as _engram_connections_v1_ListConnectionsResponse, ListConnectionsResponse__Output as _engram_connections_v1_ListConnectionsResponse__Output } from '../../../engram/connections/v1/ListConnectionsResponse';
import type { ListSyncRunsRequest as _engram_connections_v1_ListSyncRunsRequest, ListSyncRunsRequest__Output as _engram_connections_v1_ListSyncRunsRequest__Output } from '../../../engram/connections/v1/ListSyncRunsRequest';
import type { ListSyncRunsResponse as _engram_connections_v1_ListSyncRunsResponse, ListSyncRunsResponse__Output as _engram_connections_v1_ListSyncRunsResponse__Output } from '../../../engram/connections/v1/ListSyncRunsResponse';

/**
 * Links external platforms to the knowledge base and syncs their content into
 * it (through IngestionService). Owns connections, OAuth state, provider
 * tokens, webhook subscriptions and sync runs. Serves /v3/connections/*.
 */
export interface ConnectionsServiceClient extends grpc.Client {
  /**
   * POST /v3/connections/{connectionId}/configure: registers webhooks for the
   * selected resources and starts the initial sync. Same errors as
   * ListConnectionResources.
   */
  ConfigureConnection(argument: _engram_connections_v1_ConfigureConnectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ConfigureConnectionResponse__Output>): grpc.ClientUnaryCall;
  ConfigureConnection(argument: _engram_connections_v1_ConfigureConnectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ConfigureConnectionResponse__Output>): grpc.ClientUnaryCall;
  ConfigureConnection(argument: _engram_connections_v1_ConfigureConnectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ConfigureConnectionResponse__Output>): grpc.ClientUnaryCall;
  ConfigureConnection(argument: _engram_connections_v1_ConfigureConnectionRequest, callback: grpc.requestCallback<_engram_connections_v1_ConfigureConnectionResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/connections/{connectionId}/configure: registers webhooks for the
   * selected resources and starts the initial sync. Same errors as
   * ListConnectionResources.
   */
  configureConnection(argument: _engram_connections_v1_ConfigureConnectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ConfigureConnectionResponse__Output>): grpc.ClientUnaryCall;
  configureConnection(argument: _engram_connections_v1_ConfigureConnectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ConfigureConnectionResponse__Output>): grpc.ClientUnaryCall;
  configureConnection(argument: _engram_connections_v1_ConfigureConnectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ConfigureConnectionResponse__Output>): grpc.ClientUnaryCall;
  configureConnection(argument: _engram_connections_v1_ConfigureConnectionRequest, callback: grpc.requestCallback<_engram_connections_v1_ConfigureConnectionResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/connections/{provider}. OAuth providers get an authLink to
   * visit; credential-based providers (granola, web-crawler, s3) pass
   * credentials and are connected at once.
   */
  CreateConnection(argument: _engram_connections_v1_CreateConnectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_CreateConnectionResponse__Output>): grpc.ClientUnaryCall;
  CreateConnection(argument: _engram_connections_v1_CreateConnectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_CreateConnectionResponse__Output>): grpc.ClientUnaryCall;
  CreateConnection(argument: _engram_connections_v1_CreateConnectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_CreateConnectionResponse__Output>): grpc.ClientUnaryCall;
  CreateConnection(argument: _engram_connections_v1_CreateConnectionRequest, callback: grpc.requestCallback<_engram_connections_v1_CreateConnectionResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/connections/{provider}. OAuth providers get an authLink to
   * visit; credential-based providers (granola, web-crawler, s3) pass
   * credentials and are connected at once.
   */
  createConnection(argument: _engram_connections_v1_CreateConnectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_CreateConnectionResponse__Output>): grpc.ClientUnaryCall;
  createConnection(argument: _engram_connections_v1_CreateConnectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_CreateConnectionResponse__Output>): grpc.ClientUnaryCall;
  createConnection(argument: _engram_connections_v1_CreateConnectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_CreateConnectionResponse__Output>): grpc.ClientUnaryCall;
  createConnection(argument: _engram_connections_v1_CreateConnectionRequest, callback: grpc.requestCallback<_engram_connections_v1_CreateConnectionResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * DELETE /v3/connections/{connectionId}?deleteDocuments=.
   */
  DeleteConnection(argument: _engram_connections_v1_DeleteConnectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionResponse__Output>): grpc.ClientUnaryCall;
  DeleteConnection(argument: _engram_connections_v1_DeleteConnectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionResponse__Output>): grpc.ClientUnaryCall;
  DeleteConnection(argument: _engram_connections_v1_DeleteConnectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionResponse__Output>): grpc.ClientUnaryCall;
  DeleteConnection(argument: _engram_connections_v1_DeleteConnectionRequest, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DELETE /v3/connections/{connectionId}?deleteDocuments=.
   */
  deleteConnection(argument: _engram_connections_v1_DeleteConnectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionResponse__Output>): grpc.ClientUnaryCall;
  deleteConnection(argument: _engram_connections_v1_DeleteConnectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionResponse__Output>): grpc.ClientUnaryCall;
  deleteConnection(argument: _engram_connections_v1_DeleteConnectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionResponse__Output>): grpc.ClientUnaryCall;
  deleteConnection(argument: _engram_connections_v1_DeleteConnectionRequest, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * DELETE /v3/connections/{provider} (body: containerTags). The gateway
   * routes DELETE /v3/connections/{x} here when x is a provider name.
   */
  DeleteConnectionByProvider(argument: _engram_connections_v1_DeleteConnectionByProviderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionByProviderResponse__Output>): grpc.ClientUnaryCall;
  DeleteConnectionByProvider(argument: _engram_connections_v1_DeleteConnectionByProviderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionByProviderResponse__Output>): grpc.ClientUnaryCall;
  DeleteConnectionByProvider(argument: _engram_connections_v1_DeleteConnectionByProviderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionByProviderResponse__Output>): grpc.ClientUnaryCall;
  DeleteConnectionByProvider(argument: _engram_connections_v1_DeleteConnectionByProviderRequest, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionByProviderResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DELETE /v3/connections/{provider} (body: containerTags). The gateway
   * routes DELETE /v3/connections/{x} here when x is a provider name.
   */
  deleteConnectionByProvider(argument: _engram_connections_v1_DeleteConnectionByProviderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionByProviderResponse__Output>): grpc.ClientUnaryCall;
  deleteConnectionByProvider(argument: _engram_connections_v1_DeleteConnectionByProviderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionByProviderResponse__Output>): grpc.ClientUnaryCall;
  deleteConnectionByProvider(argument: _engram_connections_v1_DeleteConnectionByProviderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionByProviderResponse__Output>): grpc.ClientUnaryCall;
  deleteConnectionByProvider(argument: _engram_connections_v1_DeleteConnectionByProviderRequest, callback: grpc.requestCallback<_engram_connections_v1_DeleteConnectionByProviderResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/connections/{connectionId}.
   */
  GetConnection(argument: _engram_connections_v1_GetConnectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionResponse__Output>): grpc.ClientUnaryCall;
  GetConnection(argument: _engram_connections_v1_GetConnectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionResponse__Output>): grpc.ClientUnaryCall;
  GetConnection(argument: _engram_connections_v1_GetConnectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionResponse__Output>): grpc.ClientUnaryCall;
  GetConnection(argument: _engram_connections_v1_GetConnectionRequest, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/connections/{connectionId}.
   */
  getConnection(argument: _engram_connections_v1_GetConnectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionResponse__Output>): grpc.ClientUnaryCall;
  getConnection(argument: _engram_connections_v1_GetConnectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionResponse__Output>): grpc.ClientUnaryCall;
  getConnection(argument: _engram_connections_v1_GetConnectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionResponse__Output>): grpc.ClientUnaryCall;
  getConnection(argument: _engram_connections_v1_GetConnectionRequest, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/connections/{provider}/connection: the provider's connection for
   * the given container tags.
   */
  GetConnectionByTags(argument: _engram_connections_v1_GetConnectionByTagsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionByTagsResponse__Output>): grpc.ClientUnaryCall;
  GetConnectionByTags(argument: _engram_connections_v1_GetConnectionByTagsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionByTagsResponse__Output>): grpc.ClientUnaryCall;
  GetConnectionByTags(argument: _engram_connections_v1_GetConnectionByTagsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionByTagsResponse__Output>): grpc.ClientUnaryCall;
  GetConnectionByTags(argument: _engram_connections_v1_GetConnectionByTagsRequest, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionByTagsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/connections/{provider}/connection: the provider's connection for
   * the given container tags.
   */
  getConnectionByTags(argument: _engram_connections_v1_GetConnectionByTagsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionByTagsResponse__Output>): grpc.ClientUnaryCall;
  getConnectionByTags(argument: _engram_connections_v1_GetConnectionByTagsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionByTagsResponse__Output>): grpc.ClientUnaryCall;
  getConnectionByTags(argument: _engram_connections_v1_GetConnectionByTagsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionByTagsResponse__Output>): grpc.ClientUnaryCall;
  getConnectionByTags(argument: _engram_connections_v1_GetConnectionByTagsRequest, callback: grpc.requestCallback<_engram_connections_v1_GetConnectionByTagsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/connections/auth/callback/{provider}: end of the OAuth consent
   * flow; the gateway redirects the browser to redirect_url.
   */
  HandleOAuthCallback(argument: _engram_connections_v1_HandleOAuthCallbackRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_HandleOAuthCallbackResponse__Output>): grpc.ClientUnaryCall;
  HandleOAuthCallback(argument: _engram_connections_v1_HandleOAuthCallbackRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_HandleOAuthCallbackResponse__Output>): grpc.ClientUnaryCall;
  HandleOAuthCallback(argument: _engram_connections_v1_HandleOAuthCallbackRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_HandleOAuthCallbackResponse__Output>): grpc.ClientUnaryCall;
  HandleOAuthCallback(argument: _engram_connections_v1_HandleOAuthCallbackRequest, callback: grpc.requestCallback<_engram_connections_v1_HandleOAuthCallbackResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/connections/auth/callback/{provider}: end of the OAuth consent
   * flow; the gateway redirects the browser to redirect_url.
   */
  handleOAuthCallback(argument: _engram_connections_v1_HandleOAuthCallbackRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_HandleOAuthCallbackResponse__Output>): grpc.ClientUnaryCall;
  handleOAuthCallback(argument: _engram_connections_v1_HandleOAuthCallbackRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_HandleOAuthCallbackResponse__Output>): grpc.ClientUnaryCall;
  handleOAuthCallback(argument: _engram_connections_v1_HandleOAuthCallbackRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_HandleOAuthCallbackResponse__Output>): grpc.ClientUnaryCall;
  handleOAuthCallback(argument: _engram_connections_v1_HandleOAuthCallbackRequest, callback: grpc.requestCallback<_engram_connections_v1_HandleOAuthCallbackResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/connections/webhooks/{provider}: change notifications from
   * providers (webhooks, publish/subscribe pushes, validation handshakes).
   * Unauthenticated at the gateway; the service verifies signatures/tokens.
   */
  HandleProviderWebhook(argument: _engram_connections_v1_HandleProviderWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_HandleProviderWebhookResponse__Output>): grpc.ClientUnaryCall;
  HandleProviderWebhook(argument: _engram_connections_v1_HandleProviderWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_HandleProviderWebhookResponse__Output>): grpc.ClientUnaryCall;
  HandleProviderWebhook(argument: _engram_connections_v1_HandleProviderWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_HandleProviderWebhookResponse__Output>): grpc.ClientUnaryCall;
  HandleProviderWebhook(argument: _engram_connections_v1_HandleProviderWebhookRequest, callback: grpc.requestCallback<_engram_connections_v1_HandleProviderWebhookResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/connections/webhooks/{provider}: change notifications from
   * providers (webhooks, publish/subscribe pushes, validation handshakes).
   * Unauthenticated at the gateway; the service verifies signatures/tokens.
   */
  handleProviderWebhook(argument: _engram_connections_v1_HandleProviderWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_HandleProviderWebhookResponse__Output>): grpc.ClientUnaryCall;
  handleProviderWebhook(argument: _engram_connections_v1_HandleProviderWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_HandleProviderWebhookResponse__Output>): grpc.ClientUnaryCall;
  handleProviderWebhook(argument: _engram_connections_v1_HandleProviderWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_HandleProviderWebhookResponse__Output>): grpc.ClientUnaryCall;
  handleProviderWebhook(argument: _engram_connections_v1_HandleProviderWebhookRequest, callback: grpc.requestCallback<_engram_connections_v1_HandleProviderWebhookResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/connections/{provider}/import: on-demand (manual) sync (HTTP 202).
   */
  ImportConnections(argument: _engram_connections_v1_ImportConnectionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ImportConnectionsResponse__Output>): grpc.ClientUnaryCall;
  ImportConnections(argument: _engram_connections_v1_ImportConnectionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ImportConnectionsResponse__Output>): grpc.ClientUnaryCall;
  ImportConnections(argument: _engram_connections_v1_ImportConnectionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ImportConnectionsResponse__Output>): grpc.ClientUnaryCall;
  ImportConnections(argument: _engram_connections_v1_ImportConnectionsRequest, callback: grpc.requestCallback<_engram_connections_v1_ImportConnectionsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/connections/{provider}/import: on-demand (manual) sync (HTTP 202).
   */
  importConnections(argument: _engram_connections_v1_ImportConnectionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ImportConnectionsResponse__Output>): grpc.ClientUnaryCall;
  importConnections(argument: _engram_connections_v1_ImportConnectionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ImportConnectionsResponse__Output>): grpc.ClientUnaryCall;
  importConnections(argument: _engram_connections_v1_ImportConnectionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ImportConnectionsResponse__Output>): grpc.ClientUnaryCall;
  importConnections(argument: _engram_connections_v1_ImportConnectionsRequest, callback: grpc.requestCallback<_engram_connections_v1_ImportConnectionsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/connections/{provider}/documents: documents imported by the
   * provider's connections.
   */
  ListConnectionDocuments(argument: _engram_connections_v1_ListConnectionDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ListConnectionDocuments(argument: _engram_connections_v1_ListConnectionDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ListConnectionDocuments(argument: _engram_connections_v1_ListConnectionDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionDocumentsResponse__Output>): grpc.ClientUnaryCall;
  ListConnectionDocuments(argument: _engram_connections_v1_ListConnectionDocumentsRequest, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionDocumentsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/connections/{provider}/documents: documents imported by the
   * provider's connections.
   */
  listConnectionDocuments(argument: _engram_connections_v1_ListConnectionDocumentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionDocumentsResponse__Output>): grpc.ClientUnaryCall;
  listConnectionDocuments(argument: _engram_connections_v1_ListConnectionDocumentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionDocumentsResponse__Output>): grpc.ClientUnaryCall;
  listConnectionDocuments(argument: _engram_connections_v1_ListConnectionDocumentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionDocumentsResponse__Output>): grpc.ClientUnaryCall;
  listConnectionDocuments(argument: _engram_connections_v1_ListConnectionDocumentsRequest, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionDocumentsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/connections/{connectionId}/resources. UNIMPLEMENTED (HTTP 501)
   * for providers without resource selection; FAILED_PRECONDITION (HTTP 400)
   * when the connection has no refresh token.
   */
  ListConnectionResources(argument: _engram_connections_v1_ListConnectionResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionResourcesResponse__Output>): grpc.ClientUnaryCall;
  ListConnectionResources(argument: _engram_connections_v1_ListConnectionResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionResourcesResponse__Output>): grpc.ClientUnaryCall;
  ListConnectionResources(argument: _engram_connections_v1_ListConnectionResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionResourcesResponse__Output>): grpc.ClientUnaryCall;
  ListConnectionResources(argument: _engram_connections_v1_ListConnectionResourcesRequest, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionResourcesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/connections/{connectionId}/resources. UNIMPLEMENTED (HTTP 501)
   * for providers without resource selection; FAILED_PRECONDITION (HTTP 400)
   * when the connection has no refresh token.
   */
  listConnectionResources(argument: _engram_connections_v1_ListConnectionResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionResourcesResponse__Output>): grpc.ClientUnaryCall;
  listConnectionResources(argument: _engram_connections_v1_ListConnectionResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionResourcesResponse__Output>): grpc.ClientUnaryCall;
  listConnectionResources(argument: _engram_connections_v1_ListConnectionResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionResourcesResponse__Output>): grpc.ClientUnaryCall;
  listConnectionResources(argument: _engram_connections_v1_ListConnectionResourcesRequest, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionResourcesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v3/connections/list.
   */
  ListConnections(argument: _engram_connections_v1_ListConnectionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionsResponse__Output>): grpc.ClientUnaryCall;
  ListConnections(argument: _engram_connections_v1_ListConnectionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionsResponse__Output>): grpc.ClientUnaryCall;
  ListConnections(argument: _engram_connections_v1_ListConnectionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionsResponse__Output>): grpc.ClientUnaryCall;
  ListConnections(argument: _engram_connections_v1_ListConnectionsRequest, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/connections/list.
   */
  listConnections(argument: _engram_connections_v1_ListConnectionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionsResponse__Output>): grpc.ClientUnaryCall;
  listConnections(argument: _engram_connections_v1_ListConnectionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionsResponse__Output>): grpc.ClientUnaryCall;
  listConnections(argument: _engram_connections_v1_ListConnectionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionsResponse__Output>): grpc.ClientUnaryCall;
  listConnections(argument: _engram_connections_v1_ListConnectionsRequest, callback: grpc.requestCallback<_engram_connections_v1_ListConnectionsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/connections/{connectionId}/runs (Engram extension): the
   * connection's sync runs, newest first (the last 100 are kept).
   */
  ListSyncRuns(argument: _engram_connections_v1_ListSyncRunsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListSyncRunsResponse__Output>): grpc.ClientUnaryCall;
  ListSyncRuns(argument: _engram_connections_v1_ListSyncRunsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ListSyncRunsResponse__Output>): grpc.ClientUnaryCall;
  ListSyncRuns(argument: _engram_connections_v1_ListSyncRunsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListSyncRunsResponse__Output>): grpc.ClientUnaryCall;
  ListSyncRuns(argument: _engram_connections_v1_ListSyncRunsRequest, callback: grpc.requestCallback<_engram_connections_v1_ListSyncRunsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v3/connections/{connectionId}/runs (Engram extension): the
   * connection's sync runs, newest first (the last 100 are kept).
   */
  listSyncRuns(argument: _engram_connections_v1_ListSyncRunsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListSyncRunsResponse__Output>): grpc.ClientUnaryCall;
  listSyncRuns(argument: _engram_connections_v1_ListSyncRunsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_connections_v1_ListSyncRunsResponse__Output>): grpc.ClientUnaryCall;
  listSyncRuns(argument: _engram_connections_v1_ListSyncRunsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_connections_v1_ListSyncRunsResponse__Output>): grpc.ClientUnaryCall;
  listSyncRuns(argument: _engram_connections_v1_ListSyncRunsRequest, callback: grpc.requestCallback<_engram_connections_v1_ListSyncRunsResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Links external platforms to the knowledge base and syncs their content into
 * it (through IngestionService). Owns connections, OAuth state, provider
 * tokens, webhook subscriptions and sync runs. Serves /v3/connections/*.
 */
export interface ConnectionsServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * POST /v3/connections/{connectionId}/configure: registers webhooks for the
   * selected resources and starts the initial sync. Same errors as
   * ListConnectionResources.
   */
  ConfigureConnection: grpc.handleUnaryCall<_engram_connections_v1_ConfigureConnectionRequest__Output, _engram_connections_v1_ConfigureConnectionResponse>;
  
  /**
   * POST /v3/connections/{provider}. OAuth providers get an authLink to
   * visit; credential-based providers (granola, web-crawler, s3) pass
   * credentials and are connected at once.
   */
  CreateConnection: grpc.handleUnaryCall<_engram_connections_v1_CreateConnectionRequest__Output, _engram_connections_v1_CreateConnectionResponse>;
  
  /**
   * DELETE /v3/connections/{connectionId}?deleteDocuments=.
   */
  DeleteConnection: grpc.handleUnaryCall<_engram_connections_v1_DeleteConnectionRequest__Output, _engram_connections_v1_DeleteConnectionResponse>;
  
  /**
   * DELETE /v3/connections/{provider} (body: containerTags). The gateway
   * routes DELETE /v3/connections/{x} here when x is a provider name.
   */
  DeleteConnectionByProvider: grpc.handleUnaryCall<_engram_connections_v1_DeleteConnectionByProviderRequest__Output, _engram_connections_v1_DeleteConnectionByProviderResponse>;
  
  /**
   * GET /v3/connections/{connectionId}.
   */
  GetConnection: grpc.handleUnaryCall<_engram_connections_v1_GetConnectionRequest__Output, _engram_connections_v1_GetConnectionResponse>;
  
  /**
   * POST /v3/connections/{provider}/connection: the provider's connection for
   * the given container tags.
   */
  GetConnectionByTags: grpc.handleUnaryCall<_engram_connections_v1_GetConnectionByTagsRequest__Output, _engram_connections_v1_GetConnectionByTagsResponse>;
  
  /**
   * GET /v3/connections/auth/callback/{provider}: end of the OAuth consent
   * flow; the gateway redirects the browser to redirect_url.
   */
  HandleOAuthCallback: grpc.handleUnaryCall<_engram_connections_v1_HandleOAuthCallbackRequest__Output, _engram_connections_v1_HandleOAuthCallbackResponse>;
  
  /**
   * POST /v3/connections/webhooks/{provider}: change notifications from
   * providers (webhooks, publish/subscribe pushes, validation handshakes).
   * Unauthenticated at the gateway; the service verifies signatures/tokens.
   */
  HandleProviderWebhook: grpc.handleUnaryCall<_engram_connections_v1_HandleProviderWebhookRequest__Output, _engram_connections_v1_HandleProviderWebhookResponse>;
  
  /**
   * POST /v3/connections/{provider}/import: on-demand (manual) sync (HTTP 202).
   */
  ImportConnections: grpc.handleUnaryCall<_engram_connections_v1_ImportConnectionsRequest__Output, _engram_connections_v1_ImportConnectionsResponse>;
  
  /**
   * POST /v3/connections/{provider}/documents: documents imported by the
   * provider's connections.
   */
  ListConnectionDocuments: grpc.handleUnaryCall<_engram_connections_v1_ListConnectionDocumentsRequest__Output, _engram_connections_v1_ListConnectionDocumentsResponse>;
  
  /**
   * GET /v3/connections/{connectionId}/resources. UNIMPLEMENTED (HTTP 501)
   * for providers without resource selection; FAILED_PRECONDITION (HTTP 400)
   * when the connection has no refresh token.
   */
  ListConnectionResources: grpc.handleUnaryCall<_engram_connections_v1_ListConnectionResourcesRequest__Output, _engram_connections_v1_ListConnectionResourcesResponse>;
  
  /**
   * POST /v3/connections/list.
   */
  ListConnections: grpc.handleUnaryCall<_engram_connections_v1_ListConnectionsRequest__Output, _engram_connections_v1_ListConnectionsResponse>;
  
  /**
   * GET /v3/connections/{connectionId}/runs (Engram extension): the
   * connection's sync runs, newest first (the last 100 are kept).
   */
  ListSyncRuns: grpc.handleUnaryCall<_engram_connections_v1_ListSyncRunsRequest__Output, _engram_connections_v1_ListSyncRunsResponse>;
  
}

export interface ConnectionsServiceDefinition extends grpc.ServiceDefinition {
  ConfigureConnection: MethodDefinition<_engram_connections_v1_ConfigureConnectionRequest, _engram_connections_v1_ConfigureConnectionResponse, _engram_connections_v1_ConfigureConnectionRequest__Output, _engram_connections_v1_ConfigureConnectionResponse__Output>
  CreateConnection: MethodDefinition<_engram_connections_v1_CreateConnectionRequest, _engram_connections_v1_CreateConnectionResponse, _engram_connections_v1_CreateConnectionRequest__Output, _engram_connections_v1_CreateConnectionResponse__Output>
  DeleteConnection: MethodDefinition<_engram_connections_v1_DeleteConnectionRequest, _engram_connections_v1_DeleteConnectionResponse, _engram_connections_v1_DeleteConnectionRequest__Output, _engram_connections_v1_DeleteConnectionResponse__Output>
  DeleteConnectionByProvider: MethodDefinition<_engram_connections_v1_DeleteConnectionByProviderRequest, _engram_connections_v1_DeleteConnectionByProviderResponse, _engram_connections_v1_DeleteConnectionByProviderRequest__Output, _engram_connections_v1_DeleteConnectionByProviderResponse__Output>
  GetConnection: MethodDefinition<_engram_connections_v1_GetConnectionRequest, _engram_connections_v1_GetConnectionResponse, _engram_connections_v1_GetConnectionRequest__Output, _engram_connections_v1_GetConnectionResponse__Output>
  GetConnectionByTags: MethodDefinition<_engram_connections_v1_GetConnectionByTagsRequest, _engram_connections_v1_GetConnectionByTagsResponse, _engram_connections_v1_GetConnectionByTagsRequest__Output, _engram_connections_v1_GetConnectionByTagsResponse__Output>
  HandleOAuthCallback: MethodDefinition<_engram_connections_v1_HandleOAuthCallbackRequest, _engram_connections_v1_HandleOAuthCallbackResponse, _engram_connections_v1_HandleOAuthCallbackRequest__Output, _engram_connections_v1_HandleOAuthCallbackResponse__Output>
  HandleProviderWebhook: MethodDefinition<_engram_connections_v1_HandleProviderWebhookRequest, _engram_connections_v1_HandleProviderWebhookResponse, _engram_connections_v1_HandleProviderWebhookRequest__Output, _engram_connections_v1_HandleProviderWebhookResponse__Output>
  ImportConnections: MethodDefinition<_engram_connections_v1_ImportConnectionsRequest, _engram_connections_v1_ImportConnectionsResponse, _engram_connections_v1_ImportConnectionsRequest__Output, _engram_connections_v1_ImportConnectionsResponse__Output>
  ListConnectionDocuments: MethodDefinition<_engram_connections_v1_ListConnectionDocumentsRequest, _engram_connections_v1_ListConnectionDocumentsResponse, _engram_connections_v1_ListConnectionDocumentsRequest__Output, _engram_connections_v1_ListConnectionDocumentsResponse__Output>
  ListConnectionResources: MethodDefinition<_engram_connections_v1_ListConnectionResourcesRequest, _engram_connections_v1_ListConnectionResourcesResponse, _engram_connections_v1_ListConnectionResourcesRequest__Output, _engram_connections_v1_ListConnectionResourcesResponse__Output>
  ListConnections: MethodDefinition<_engram_connections_v1_ListConnectionsRequest, _engram_connections_v1_ListConnectionsResponse, _engram_connections_v1_ListConnectionsRequest__Output, _engram_connections_v1_ListConnectionsResponse__Output>
  ListSyncRuns: MethodDefinition<_engram_connections_v1_ListSyncRunsRequest, _engram_connections_v1_ListSyncRunsResponse, _engram_connections_v1_ListSyncRunsRequest__Output, _engram_connections_v1_ListSyncRunsResponse__Output>
}
