// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { Long } from '@grpc/proto-loader';

export interface FileInfo {
  'fileName'?: (string);
  'mimeType'?: (string);
  'sizeBytes'?: (number | string | Long);
}

export interface FileInfo__Output {
  'fileName': (string);
  'mimeType': (string);
  'sizeBytes': (number);
}
