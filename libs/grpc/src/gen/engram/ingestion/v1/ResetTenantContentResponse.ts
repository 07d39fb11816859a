// Original file: protos/engram/ingestion/v1/container_tag_service.proto


export interface ResetTenantContentResponse {
  /**
   * Add/batch requests whose documents were removed.
   */
  'deletedDocumentBatches'?: (number);
  'deletedDocumentsApprox'?: (number);
  /**
   * Tags removed (all but the default one).
   */
  'deletedExtraSpaces'?: (number);
  'clearedDefaultSpaceContext'?: (boolean);
}

export interface ResetTenantContentResponse__Output {
  /**
   * Add/batch requests whose documents were removed.
   */
  'deletedDocumentBatches': (number);
  'deletedDocumentsApprox': (number);
  /**
   * Tags removed (all but the default one).
   */
  'deletedExtraSpaces': (number);
  'clearedDefaultSpaceContext': (boolean);
}
