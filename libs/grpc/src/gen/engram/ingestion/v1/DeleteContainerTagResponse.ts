// Original file: protos/engram/ingestion/v1/container_tag_service.proto


export interface DeleteContainerTagResponse {
  'success'?: (boolean);
  'namespace'?: (string);
  'deletedDocumentsCount'?: (number);
  /**
   * Memories marked as forgotten.
   */
  'deletedMemoriesCount'?: (number);
}

export interface DeleteContainerTagResponse__Output {
  'success': (boolean);
  'namespace': (string);
  'deletedDocumentsCount': (number);
  /**
   * Memories marked as forgotten.
   */
  'deletedMemoriesCount': (number);
}
