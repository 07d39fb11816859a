// Original file: protos/engram/memories/v1/memories_service.proto


export interface ForgetNamespaceMemoriesResponse {
  'count'?: (number);
}

export interface ForgetNamespaceMemoriesResponse__Output {
  'count': (number);
}
