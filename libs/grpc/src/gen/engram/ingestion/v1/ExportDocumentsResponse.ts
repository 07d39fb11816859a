// Original file: protos/engram/ingestion/v1/ingestion_service.proto


export interface ExportDocumentsResponse {
  /**
   * Archive document records, one JSON object each (docs/export-format.md).
   */
  'records'?: (string)[];
  /**
   * Cursor of the next page; empty when this page was the last.
   */
  'nextCursor'?: (string);
}

export interface ExportDocumentsResponse__Output {
  /**
   * Archive document records, one JSON object each (docs/export-format.md).
   */
  'records': (string)[];
  /**
   * Cursor of the next page; empty when this page was the last.
   */
  'nextCursor': (string);
}
