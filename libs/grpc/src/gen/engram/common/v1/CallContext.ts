// Original file: protos/engram/common/v1/common.proto


/**
 * Who is calling. Every request of every Engram service carries it; the
 * gateway fills it from the API key. Services never trust a tenant from any
 * other source, and every query they run filters by tenant_id.
 */
export interface CallContext {
  /**
   * Owning organisation of the API key.
   */
  'tenantId'?: (string);
  /**
   * Request id for logs (x-request-id at the gateway).
   */
  'requestId'?: (string);
}

/**
 * Who is calling. Every request of every Engram service carries it; the
 * gateway fills it from the API key. Services never trust a tenant from any
 * other source, and every query they run filters by tenant_id.
 */
export interface CallContext__Output {
  /**
   * Owning organisation of the API key.
   */
  'tenantId': (string);
  /**
   * Request id for logs (x-request-id at the gateway).
   */
  'requestId': (string);
}
