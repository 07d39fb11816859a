// Original file: protos/engram/memories/v1/memories_service.proto


export interface ImportMemoriesResponse {
  'imported'?: (number);
  /**
   * Records already present with the same id in this tenant (a repeated import).
   */
  'skipped'?: (number);
}

export interface ImportMemoriesResponse__Output {
  'imported': (number);
  /**
   * Records already present with the same id in this tenant (a repeated import).
   */
  'skipped': (number);
}
