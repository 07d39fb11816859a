// Original file: protos/engram/recall/v1/recall_service.proto

import type { SearchV3Result as _engram_recall_v1_SearchV3Result, SearchV3Result__Output as _engram_recall_v1_SearchV3Result__Output } from '../../../engram/recall/v1/SearchV3Result';

export interface SearchV3Response {
  'results'?: (_engram_recall_v1_SearchV3Result)[];
  'timingMs'?: (number);
  'total'?: (number);
}

export interface SearchV3Response__Output {
  'results': (_engram_recall_v1_SearchV3Result__Output)[];
  'timingMs': (number);
  'total': (number);
}
