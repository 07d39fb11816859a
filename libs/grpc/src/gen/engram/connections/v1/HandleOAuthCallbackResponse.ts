// Original file: protos/engram/connections/v1/connections_service.proto


export interface HandleOAuthCallbackResponse {
  /**
   * Where to send the browser: the connection's redirect_url, with
   * connectionId (and error on failure) appended as query parameters.
   */
  'redirectUrl'?: (string);
  'connectionId'?: (string);
  'success'?: (boolean);
  'error'?: (string);
}

export interface HandleOAuthCallbackResponse__Output {
  /**
   * Where to send the browser: the connection's redirect_url, with
   * connectionId (and error on failure) appended as query parameters.
   */
  'redirectUrl': (string);
  'connectionId': (string);
  'success': (boolean);
  'error': (string);
}
