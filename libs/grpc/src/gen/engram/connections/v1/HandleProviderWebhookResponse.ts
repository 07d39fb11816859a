// Original file: protos/engram/connections/v1/connections_service.proto


export interface HandleProviderWebhookResponse {
  /**
   * HTTP status to answer the provider with.
   */
  'httpStatus'?: (number);
  /**
   * Body for validation handshakes (echoed challenges); usually empty.
   */
  'responseBody'?: (Buffer | Uint8Array | string);
  'responseContentType'?: (string);
  /**
   * Sync runs started by this notification.
   */
  'syncsTriggered'?: (number);
}

export interface HandleProviderWebhookResponse__Output {
  /**
   * HTTP status to answer the provider with.
   */
  'httpStatus': (number);
  /**
   * Body for validation handshakes (echoed challenges); usually empty.
   */
  'responseBody': (Buffer);
  'responseContentType': (string);
  /**
   * Sync runs started by this notification.
   */
  'syncsTriggered': (number);
}
