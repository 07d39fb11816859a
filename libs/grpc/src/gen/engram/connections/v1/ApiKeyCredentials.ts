// Original file: protos/engram/connections/v1/connections_service.proto


export interface ApiKeyCredentials {
  /**
   * Write-only: never returned.
   */
  'apiKey'?: (string);
}

export interface ApiKeyCredentials__Output {
  /**
   * Write-only: never returned.
   */
  'apiKey': (string);
}
