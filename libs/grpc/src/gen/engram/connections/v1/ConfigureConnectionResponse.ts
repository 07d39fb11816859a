// Original file: protos/engram/connections/v1/connections_service.proto


export interface ConfigureConnectionResponse {
  'success'?: (boolean);
  'message'?: (string);
  'webhooksRegistered'?: (number);
}

export interface ConfigureConnectionResponse__Output {
  'success': (boolean);
  'message': (string);
  'webhooksRegistered': (number);
}
