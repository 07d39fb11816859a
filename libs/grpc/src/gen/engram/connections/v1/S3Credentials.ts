// Original file: protos/engram/connections/v1/connections_service.proto


export interface S3Credentials {
  'bucket'?: (string);
  'region'?: (string);
  /**
   * Only keys under this prefix are imported.
   */
  'prefix'?: (string);
  /**
   * Custom S3-compatible endpoint; empty = AWS.
   */
  'endpoint'?: (string);
  'accessKeyId'?: (string);
  /**
   * Write-only: never returned.
   */
  'secretAccessKey'?: (string);
}

export interface S3Credentials__Output {
  'bucket': (string);
  'region': (string);
  /**
   * Only keys under this prefix are imported.
   */
  'prefix': (string);
  /**
   * Custom S3-compatible endpoint; empty = AWS.
   */
  'endpoint': (string);
  'accessKeyId': (string);
  /**
   * Write-only: never returned.
   */
  'secretAccessKey': (string);
}
