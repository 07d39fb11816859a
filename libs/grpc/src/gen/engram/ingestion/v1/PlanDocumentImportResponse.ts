// Original file: protos/engram/ingestion/v1/ingestion_service.proto


export interface PlanDocumentImportResponse {
  /**
   * Archive id -> id to use, only for ids taken on this instance.
   */
  'newIds'?: ({[key: string]: string});
  /**
   * Archive id -> the target document already holding its caller id in its
   * namespace: the archive document is not written, references go there.
   */
  'existingIds'?: ({[key: string]: string});
}

export interface PlanDocumentImportResponse__Output {
  /**
   * Archive id -> id to use, only for ids taken on this instance.
   */
  'newIds': ({[key: string]: string});
  /**
   * Archive id -> the target document already holding its caller id in its
   * namespace: the archive document is not written, references go there.
   */
  'existingIds': ({[key: string]: string});
}
