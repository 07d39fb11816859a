// Original file: protos/engram/memories/v1/memories_service.proto


export interface MoveNamespaceMemoriesResponse {
  'count'?: (number);
}

export interface MoveNamespaceMemoriesResponse__Output {
  'count': (number);
}
