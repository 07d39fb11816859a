// Original file: protos/engram/memories/v1/memories_service.proto


export interface ExportMemoriesResponse {
  /**
   * Archive memory records, one JSON object each.
   */
  'records'?: (string)[];
  /**
   * Empty when this page was the last.
   */
  'nextCursor'?: (string);
}

export interface ExportMemoriesResponse__Output {
  /**
   * Archive memory records, one JSON object each.
   */
  'records': (string)[];
  /**
   * Empty when this page was the last.
   */
  'nextCursor': (string);
}
