// Original file: protos/engram/recall/v1/recall_service.proto

import type { SearchV4Result as _engram_recall_v1_SearchV4Result, SearchV4Result__Output as _engram_recall_v1_SearchV4Result__Output } from '../../../engram/recall/v1/SearchV4Result';

export interface ProfileSearchResults {
  'results'?: (_engram_recall_v1_SearchV4Result)[];
  'total'?: (number);
  'timingMs'?: (number);
}

export interface ProfileSearchResults__Output {
  'results': (_engram_recall_v1_SearchV4Result__Output)[];
  'total': (number);
  'timingMs': (number);
}
