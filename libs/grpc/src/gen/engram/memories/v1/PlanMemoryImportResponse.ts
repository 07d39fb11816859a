// Original file: protos/engram/memories/v1/memories_service.proto


export interface PlanMemoryImportResponse {
  /**
   * Archive id -> new id, only for ids taken on this instance.
   */
  'newIds'?: ({[key: string]: string});
}

export interface PlanMemoryImportResponse__Output {
  /**
   * Archive id -> new id, only for ids taken on this instance.
   */
  'newIds': ({[key: string]: string});
}
