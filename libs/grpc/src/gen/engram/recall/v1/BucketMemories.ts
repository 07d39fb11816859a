// Original file: protos/engram/recall/v1/recall_service.proto


export interface BucketMemories {
  'memories'?: (string)[];
}

export interface BucketMemories__Output {
  'memories': (string)[];
}
