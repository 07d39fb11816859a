// Original file: protos/engram/ingestion/v1/container_tag_service.proto


/**
 * A nullable list of filesystem paths: an unset message field means null.
 */
export interface FilesystemPathList {
  'paths'?: (string)[];
}

/**
 * A nullable list of filesystem paths: an unset message field means null.
 */
export interface FilesystemPathList__Output {
  'paths': (string)[];
}
