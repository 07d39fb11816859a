// Original file: protos/engram/connections/v1/settings_service.proto


export interface ResetOrganizationResponse {
  'success'?: (boolean);
  'deletedConnections'?: (number);
  'deletedDocumentBatches'?: (number);
  'deletedDocumentsApprox'?: (number);
  'deletedMemoryRows'?: (number);
  /**
   * Container tags removed (all but the default one).
   */
  'deletedExtraSpaces'?: (number);
  'clearedDefaultSpaceContext'?: (boolean);
  /**
   * Engram keeps no separate memory registry: true once memories are purged.
   */
  'clearedBrainMemoryRegistry'?: (boolean);
  'settingsReset'?: (boolean);
}

export interface ResetOrganizationResponse__Output {
  'success': (boolean);
  'deletedConnections': (number);
  'deletedDocumentBatches': (number);
  'deletedDocumentsApprox': (number);
  'deletedMemoryRows': (number);
  /**
   * Container tags removed (all but the default one).
   */
  'deletedExtraSpaces': (number);
  'clearedDefaultSpaceContext': (boolean);
  /**
   * Engram keeps no separate memory registry: true once memories are purged.
   */
  'clearedBrainMemoryRegistry': (boolean);
  'settingsReset': (boolean);
}
