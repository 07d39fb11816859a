// Original file: protos/engram/memories/v1/memories_service.proto


export interface FormedDocument {
  'documentId'?: (string);
  'generation'?: (number);
}

export interface FormedDocument__Output {
  'documentId': (string);
  'generation': (number);
}
