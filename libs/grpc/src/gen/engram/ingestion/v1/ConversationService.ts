// Original file: protos/engram/ingestion/v1/conversation_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { IngestConversationRequest as _engram_ingestion_v1_IngestConversationRequest, IngestConversationRequest__Output as _engram_ingestion_v1_IngestConversationRequest__Output } from '../../../engram/ingestion/v1/IngestConversationRequest';
import type { IngestConversationResponse as _engram_ingestion_v1_IngestConversationResponse, IngestConversationResponse__Output as _engram_ingestion_v1_IngestConversationResponse__Output } from '../../../engram/ingestion/v1/IngestConversationResponse';

/**
 * Conversations ingested as documents: one document per conversation id and
 * namespace (custom_id = conversation id, source kind CONVERSATION). Sending
 * the same conversation again with more messages updates that document, so
 * only the new content is processed (spec, Documents rule 1).
 */
export interface ConversationServiceClient extends grpc.Client {
  /**
   * POST /v4/conversations.
   */
  IngestConversation(argument: _engram_ingestion_v1_IngestConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_IngestConversationResponse__Output>): grpc.ClientUnaryCall;
  IngestConversation(argument: _engram_ingestion_v1_IngestConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_IngestConversationResponse__Output>): grpc.ClientUnaryCall;
  IngestConversation(argument: _engram_ingestion_v1_IngestConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_IngestConversationResponse__Output>): grpc.ClientUnaryCall;
  IngestConversation(argument: _engram_ingestion_v1_IngestConversationRequest, callback: grpc.requestCallback<_engram_ingestion_v1_IngestConversationResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v4/conversations.
   */
  ingestConversation(argument: _engram_ingestion_v1_IngestConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_IngestConversationResponse__Output>): grpc.ClientUnaryCall;
  ingestConversation(argument: _engram_ingestion_v1_IngestConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_ingestion_v1_IngestConversationResponse__Output>): grpc.ClientUnaryCall;
  ingestConversation(argument: _engram_ingestion_v1_IngestConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_ingestion_v1_IngestConversationResponse__Output>): grpc.ClientUnaryCall;
  ingestConversation(argument: _engram_ingestion_v1_IngestConversationRequest, callback: grpc.requestCallback<_engram_ingestion_v1_IngestConversationResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Conversations ingested as documents: one document per conversation id and
 * namespace (custom_id = conversation id, source kind CONVERSATION). Sending
 * the same conversation again with more messages updates that document, so
 * only the new content is processed (spec, Documents rule 1).
 */
export interface ConversationServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * POST /v4/conversations.
   */
  IngestConversation: grpc.handleUnaryCall<_engram_ingestion_v1_IngestConversationRequest__Output, _engram_ingestion_v1_IngestConversationResponse>;
  
}

export interface ConversationServiceDefinition extends grpc.ServiceDefinition {
  IngestConversation: MethodDefinition<_engram_ingestion_v1_IngestConversationRequest, _engram_ingestion_v1_IngestConversationResponse, _engram_ingestion_v1_IngestConversationRequest__Output, _engram_ingestion_v1_IngestConversationResponse__Output>
}
