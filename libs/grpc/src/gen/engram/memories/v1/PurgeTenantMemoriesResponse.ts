// Original file: protos/engram/memories/v1/memories_service.proto


export interface PurgeTenantMemoriesResponse {
  /**
   * Rows removed (every version, forgotten or not).
   */
  'deletedMemoryRows'?: (number);
}

export interface PurgeTenantMemoriesResponse__Output {
  /**
   * Rows removed (every version, forgotten or not).
   */
  'deletedMemoryRows': (number);
}
