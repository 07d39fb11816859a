// Original file: protos/engram/recall/v1/recall_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetProfileBucketsRequest as _engram_recall_v1_GetProfileBucketsRequest, GetProfileBucketsRequest__Output as _engram_recall_v1_GetProfileBucketsRequest__Output } from '../../../engram/recall/v1/GetProfileBucketsRequest';
import type { GetProfileBucketsResponse as _engram_recall_v1_GetProfileBucketsResponse, GetProfileBucketsResponse__Output as _engram_recall_v1_GetProfileBucketsResponse__Output } from '../../../engram/recall/v1/GetProfileBucketsResponse';
import type { GetProfileRequest as _engram_recall_v1_GetProfileRequest, GetProfileRequest__Output as _engram_recall_v1_GetProfileRequest__Output } from '../../../engram/recall/v1/GetProfileRequest';
import type { GetProfileResponse as _engram_recall_v1_GetProfileResponse, GetProfileResponse__Output as _engram_recall_v1_GetProfileResponse__Output } from '../../../engram/recall/v1/GetProfileResponse';
import type { ListChunksRequest as _engram_recall_v1_ListChunksRequest, ListChunksRequest__Output as _engram_recall_v1_ListChunksRequest__Output } from '../../../engram/recall/v1/ListChunksRequest';
import type { ListChunksResponse as _engram_recall_v1_ListChunksResponse, ListChunksResponse__Output as _engram_recall_v1_ListChunksResponse__Output } from '../../../engram/recall/v1/ListChunksResponse';
import type { SearchV3Request as _engram_recall_v1_SearchV3Request, SearchV3Request__Output as _engram_recall_v1_SearchV3Request__Output } from '../../../engram/recall/v1/SearchV3Request';
import type { SearchV3Response as _engram_recall_v1_SearchV3Response, SearchV3Response__Output as _engram_recall_v1_SearchV3Response__Output } from '../../../engram/recall/v1/SearchV3Response';
import type { SearchV4Request as _engram_recall_v1_SearchV4Request, SearchV4Request__Output as _engram_recall_v1_SearchV4Request__Output } from '../../../engram/recall/v1/SearchV4Request';
import type { SearchV4Response as _engram_recall_v1_SearchV4Response, SearchV4Response__Output as _engram_recall_v1_SearchV4Response__Output } from '../../../engram/recall/v1/SearchV4Response';

/**
 * Read side: semantic search over memories and document chunks, profiles,
 * and chunk listing. Serves /v4/search, /v3/search, /v4/profile*,
 * /ns/{namespace}/list/chunks and the chunk parts of document reads.
 */
export interface RecallServiceClient extends grpc.Client {
  /**
   * POST /v4/profile.
   */
  GetProfile(argument: _engram_recall_v1_GetProfileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  GetProfile(argument: _engram_recall_v1_GetProfileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_recall_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  GetProfile(argument: _engram_recall_v1_GetProfileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  GetProfile(argument: _engram_recall_v1_GetProfileRequest, callback: grpc.requestCallback<_engram_recall_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v4/profile.
   */
  getProfile(argument: _engram_recall_v1_GetProfileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  getProfile(argument: _engram_recall_v1_GetProfileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_recall_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  getProfile(argument: _engram_recall_v1_GetProfileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  getProfile(argument: _engram_recall_v1_GetProfileRequest, callback: grpc.requestCallback<_engram_recall_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v4/profile/buckets: org buckets merged with the tag's own buckets.
   */
  GetProfileBuckets(argument: _engram_recall_v1_GetProfileBucketsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_GetProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  GetProfileBuckets(argument: _engram_recall_v1_GetProfileBucketsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_recall_v1_GetProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  GetProfileBuckets(argument: _engram_recall_v1_GetProfileBucketsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_GetProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  GetProfileBuckets(argument: _engram_recall_v1_GetProfileBucketsRequest, callback: grpc.requestCallback<_engram_recall_v1_GetProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v4/profile/buckets: org buckets merged with the tag's own buckets.
   */
  getProfileBuckets(argument: _engram_recall_v1_GetProfileBucketsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_GetProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  getProfileBuckets(argument: _engram_recall_v1_GetProfileBucketsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_recall_v1_GetProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  getProfileBuckets(argument: _engram_recall_v1_GetProfileBucketsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_GetProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  getProfileBuckets(argument: _engram_recall_v1_GetProfileBucketsRequest, callback: grpc.requestCallback<_engram_recall_v1_GetProfileBucketsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /ns/{namespace}/list/chunks (a page of a namespace's chunks); the
   * chunks of one document with document_id (one message: ReadDocumentChunks
   * for any size).
   */
  ListChunks(argument: _engram_recall_v1_ListChunksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_ListChunksResponse__Output>): grpc.ClientUnaryCall;
  ListChunks(argument: _engram_recall_v1_ListChunksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_recall_v1_ListChunksResponse__Output>): grpc.ClientUnaryCall;
  ListChunks(argument: _engram_recall_v1_ListChunksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_ListChunksResponse__Output>): grpc.ClientUnaryCall;
  ListChunks(argument: _engram_recall_v1_ListChunksRequest, callback: grpc.requestCallback<_engram_recall_v1_ListChunksResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /ns/{namespace}/list/chunks (a page of a namespace's chunks); the
   * chunks of one document with document_id (one message: ReadDocumentChunks
   * for any size).
   */
  listChunks(argument: _engram_recall_v1_ListChunksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_ListChunksResponse__Output>): grpc.ClientUnaryCall;
  listChunks(argument: _engram_recall_v1_ListChunksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_recall_v1_ListChunksResponse__Output>): grpc.ClientUnaryCall;
  listChunks(argument: _engram_recall_v1_ListChunksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_ListChunksResponse__Output>): grpc.ClientUnaryCall;
  listChunks(argument: _engram_recall_v1_ListChunksRequest, callback: grpc.requestCallback<_engram_recall_v1_ListChunksResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v3/documents/{id}/chunks and GET /ns/{namespace}/document/{id}?include=chunks:
   * every chunk of one document (document_id and namespace required, page
   * ignored), in position order, in messages of about 1 MiB of content each;
   * total and document_id on every message. A document with no chunks: one
   * message without chunks.
   */
  ReadDocumentChunks(argument: _engram_recall_v1_ListChunksRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_recall_v1_ListChunksResponse__Output>;
  ReadDocumentChunks(argument: _engram_recall_v1_ListChunksRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_recall_v1_ListChunksResponse__Output>;
  /**
   * GET /v3/documents/{id}/chunks and GET /ns/{namespace}/document/{id}?include=chunks:
   * every chunk of one document (document_id and namespace required, page
   * ignored), in position order, in messages of about 1 MiB of content each;
   * total and document_id on every message. A document with no chunks: one
   * message without chunks.
   */
  readDocumentChunks(argument: _engram_recall_v1_ListChunksRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_recall_v1_ListChunksResponse__Output>;
  readDocumentChunks(argument: _engram_recall_v1_ListChunksRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_engram_recall_v1_ListChunksResponse__Output>;
  
  /**
   * POST /v3/search: document-oriented, results grouped per document.
   */
  SearchV3(argument: _engram_recall_v1_SearchV3Request, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_SearchV3Response__Output>): grpc.ClientUnaryCall;
  SearchV3(argument: _engram_recall_v1_SearchV3Request, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_recall_v1_SearchV3Response__Output>): grpc.ClientUnaryCall;
  SearchV3(argument: _engram_recall_v1_SearchV3Request, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_SearchV3Response__Output>): grpc.ClientUnaryCall;
  SearchV3(argument: _engram_recall_v1_SearchV3Request, callback: grpc.requestCallback<_engram_recall_v1_SearchV3Response__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v3/search: document-oriented, results grouped per document.
   */
  searchV3(argument: _engram_recall_v1_SearchV3Request, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_SearchV3Response__Output>): grpc.ClientUnaryCall;
  searchV3(argument: _engram_recall_v1_SearchV3Request, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_recall_v1_SearchV3Response__Output>): grpc.ClientUnaryCall;
  searchV3(argument: _engram_recall_v1_SearchV3Request, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_SearchV3Response__Output>): grpc.ClientUnaryCall;
  searchV3(argument: _engram_recall_v1_SearchV3Request, callback: grpc.requestCallback<_engram_recall_v1_SearchV3Response__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v4/search.
   */
  SearchV4(argument: _engram_recall_v1_SearchV4Request, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_SearchV4Response__Output>): grpc.ClientUnaryCall;
  SearchV4(argument: _engram_recall_v1_SearchV4Request, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_recall_v1_SearchV4Response__Output>): grpc.ClientUnaryCall;
  SearchV4(argument: _engram_recall_v1_SearchV4Request, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_SearchV4Response__Output>): grpc.ClientUnaryCall;
  SearchV4(argument: _engram_recall_v1_SearchV4Request, callback: grpc.requestCallback<_engram_recall_v1_SearchV4Response__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v4/search.
   */
  searchV4(argument: _engram_recall_v1_SearchV4Request, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_SearchV4Response__Output>): grpc.ClientUnaryCall;
  searchV4(argument: _engram_recall_v1_SearchV4Request, metadata: grpc.Metadata, callback: grpc.requestCallback<_engram_recall_v1_SearchV4Response__Output>): grpc.ClientUnaryCall;
  searchV4(argument: _engram_recall_v1_SearchV4Request, options: grpc.CallOptions, callback: grpc.requestCallback<_engram_recall_v1_SearchV4Response__Output>): grpc.ClientUnaryCall;
  searchV4(argument: _engram_recall_v1_SearchV4Request, callback: grpc.requestCallback<_engram_recall_v1_SearchV4Response__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Read side: semantic search over memories and document chunks, profiles,
 * and chunk listing. Serves /v4/search, /v3/search, /v4/profile*,
 * /ns/{namespace}/list/chunks and the chunk parts of document reads.
 */
export interface RecallServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * POST /v4/profile.
   */
  GetProfile: grpc.handleUnaryCall<_engram_recall_v1_GetProfileRequest__Output, _engram_recall_v1_GetProfileResponse>;
  
  /**
   * POST /v4/profile/buckets: org buckets merged with the tag's own buckets.
   */
  GetProfileBuckets: grpc.handleUnaryCall<_engram_recall_v1_GetProfileBucketsRequest__Output, _engram_recall_v1_GetProfileBucketsResponse>;
  
  /**
   * POST /ns/{namespace}/list/chunks (a page of a namespace's chunks); the
   * chunks of one document with document_id (one message: ReadDocumentChunks
   * for any size).
   */
  ListChunks: grpc.handleUnaryCall<_engram_recall_v1_ListChunksRequest__Output, _engram_recall_v1_ListChunksResponse>;
  
  /**
   * GET /v3/documents/{id}/chunks and GET /ns/{namespace}/document/{id}?include=chunks:
   * every chunk of one document (document_id and namespace required, page
   * ignored), in position order, in messages of about 1 MiB of content each;
   * total and document_id on every message. A document with no chunks: one
   * message without chunks.
   */
  ReadDocumentChunks: grpc.handleServerStreamingCall<_engram_recall_v1_ListChunksRequest__Output, _engram_recall_v1_ListChunksResponse>;
  
  /**
   * POST /v3/search: document-oriented, results grouped per document.
   */
  SearchV3: grpc.handleUnaryCall<_engram_recall_v1_SearchV3Request__Output, _engram_recall_v1_SearchV3Response>;
  
  /**
   * POST /v4/search.
   */
  SearchV4: grpc.handleUnaryCall<_engram_recall_v1_SearchV4Request__Output, _engram_recall_v1_SearchV4Response>;
  
}

export interface RecallServiceDefinition extends grpc.ServiceDefinition {
  GetProfile: MethodDefinition<_engram_recall_v1_GetProfileRequest, _engram_recall_v1_GetProfileResponse, _engram_recall_v1_GetProfileRequest__Output, _engram_recall_v1_GetProfileResponse__Output>
  GetProfileBuckets: MethodDefinition<_engram_recall_v1_GetProfileBucketsRequest, _engram_recall_v1_GetProfileBucketsResponse, _engram_recall_v1_GetProfileBucketsRequest__Output, _engram_recall_v1_GetProfileBucketsResponse__Output>
  ListChunks: MethodDefinition<_engram_recall_v1_ListChunksRequest, _engram_recall_v1_ListChunksResponse, _engram_recall_v1_ListChunksRequest__Output, _engram_recall_v1_ListChunksResponse__Output>
  ReadDocumentChunks: MethodDefinition<_engram_recall_v1_ListChunksRequest, _engram_recall_v1_ListChunksResponse, _engram_recall_v1_ListChunksRequest__Output, _engram_recall_v1_ListChunksResponse__Output>
  SearchV3: MethodDefinition<_engram_recall_v1_SearchV3Request, _engram_recall_v1_SearchV3Response, _engram_recall_v1_SearchV3Request__Output, _engram_recall_v1_SearchV3Response__Output>
  SearchV4: MethodDefinition<_engram_recall_v1_SearchV4Request, _engram_recall_v1_SearchV4Response, _engram_recall_v1_SearchV4Request__Output, _engram_recall_v1_SearchV4Response__Output>
}
