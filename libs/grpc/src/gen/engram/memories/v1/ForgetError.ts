// Original file: protos/engram/memories/v1/memories_service.proto


/**
 * A per-id failure of a forget operation.
 */
export interface ForgetError {
  'id'?: (string);
  'error'?: (string);
}

/**
 * A per-id failure of a forget operation.
 */
export interface ForgetError__Output {
  'id': (string);
  'error': (string);
}
