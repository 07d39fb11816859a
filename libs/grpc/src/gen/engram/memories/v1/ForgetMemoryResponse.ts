// Original file: protos/engram/memories/v1/memories_service.proto


export interface ForgetMemoryResponse {
  'id'?: (string);
  'forgotten'?: (boolean);
}

export interface ForgetMemoryResponse__Output {
  'id': (string);
  'forgotten': (boolean);
}
