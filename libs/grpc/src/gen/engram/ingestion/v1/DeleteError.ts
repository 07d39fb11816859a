// Original file: protos/engram/ingestion/v1/ingestion_service.proto


export interface DeleteError {
  'id'?: (string);
  'error'?: (string);
}

export interface DeleteError__Output {
  'id': (string);
  'error': (string);
}
