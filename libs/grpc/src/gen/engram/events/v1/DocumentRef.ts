// Original file: protos/engram/events/v1/document_events.proto


/**
 * Identifies one processing generation of one document.
 */
export interface DocumentRef {
  'tenantId'?: (string);
  'namespace'?: (string);
  'documentId'?: (string);
  /**
   * A document re-queued with new content gets a new generation; consumers
   * drop events of older generations.
   */
  'generation'?: (number);
}

/**
 * Identifies one processing generation of one document.
 */
export interface DocumentRef__Output {
  'tenantId': (string);
  'namespace': (string);
  'documentId': (string);
  /**
   * A document re-queued with new content gets a new generation; consumers
   * drop events of older generations.
   */
  'generation': (number);
}
