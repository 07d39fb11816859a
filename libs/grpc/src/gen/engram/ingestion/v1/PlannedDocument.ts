// Original file: protos/engram/ingestion/v1/ingestion_service.proto


export interface PlannedDocument {
  'id'?: (string);
  'namespace'?: (string);
  'customId'?: (string);
}

export interface PlannedDocument__Output {
  'id': (string);
  'namespace': (string);
  'customId': (string);
}
