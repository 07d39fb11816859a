// Original file: protos/engram/connections/v1/connections_service.proto


export interface ImportConnectionsResponse {
  /**
   * Text for the 202 body ("Importing connections...").
   */
  'message'?: (string);
  'connectionIds'?: (string)[];
  'syncRunIds'?: (string)[];
}

export interface ImportConnectionsResponse__Output {
  /**
   * Text for the 202 body ("Importing connections...").
   */
  'message': (string);
  'connectionIds': (string)[];
  'syncRunIds': (string)[];
}
