// Original file: protos/engram/connections/v1/connections_service.proto

import type { ApiKeyCredentials as _engram_connections_v1_ApiKeyCredentials, ApiKeyCredentials__Output as _engram_connections_v1_ApiKeyCredentials__Output } from '../../../engram/connections/v1/ApiKeyCredentials';
import type { WebCrawlerConfig as _engram_connections_v1_WebCrawlerConfig, WebCrawlerConfig__Output as _engram_connections_v1_WebCrawlerConfig__Output } from '../../../engram/connections/v1/WebCrawlerConfig';
import type { S3Credentials as _engram_connections_v1_S3Credentials, S3Credentials__Output as _engram_connections_v1_S3Credentials__Output } from '../../../engram/connections/v1/S3Credentials';

/**
 * Credentials of a direct (non-OAuth) connection.
 */
export interface DirectCredentials {
  'apiKey'?: (_engram_connections_v1_ApiKeyCredentials | null);
  'webCrawler'?: (_engram_connections_v1_WebCrawlerConfig | null);
  's3'?: (_engram_connections_v1_S3Credentials | null);
  'kind'?: "apiKey"|"webCrawler"|"s3";
}

/**
 * Credentials of a direct (non-OAuth) connection.
 */
export interface DirectCredentials__Output {
  'apiKey'?: (_engram_connections_v1_ApiKeyCredentials__Output | null);
  'webCrawler'?: (_engram_connections_v1_WebCrawlerConfig__Output | null);
  's3'?: (_engram_connections_v1_S3Credentials__Output | null);
  'kind'?: "apiKey"|"webCrawler"|"s3";
}
