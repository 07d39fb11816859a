// Original file: protos/engram/ingestion/v1/ingestion_service.proto


export interface ReadDocumentFileRequest {
  'token'?: (string);
}

export interface ReadDocumentFileRequest__Output {
  'token': (string);
}
