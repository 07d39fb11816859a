// Original file: protos/engram/ingestion/v1/ingestion_service.proto


export interface ImportedDocument {
  /**
   * Id in the archive.
   */
  'sourceId'?: (string);
  /**
   * Id written, empty when the record was refused.
   */
  'id'?: (string);
  /**
   * Readable reason when refused.
   */
  'error'?: (string);
}

export interface ImportedDocument__Output {
  /**
   * Id in the archive.
   */
  'sourceId': (string);
  /**
   * Id written, empty when the record was refused.
   */
  'id': (string);
  /**
   * Readable reason when refused.
   */
  'error': (string);
}
