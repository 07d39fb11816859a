// Original file: protos/engram/recall/v1/recall_service.proto

import type { SearchV3Result as _engram_recall_v1_SearchV3Result, SearchV3Result__Output as _engram_recall_v1_SearchV3Result__Output } from '../../../engram/recall/v1/SearchV3Result';
import type { Long } from '@grpc/proto-loader';

export interface SearchV3Response {
  'results'?: (_engram_recall_v1_SearchV3Result)[];
  'timingMs'?: (number);
  'total'?: (number);
  /**
   * With include_full_docs: the content budget the results were filled under
   * (RECALL_SEARCH_MAX_CONTENT_BYTES), in rank order, each content whole or
   * none; a result whose content did not fit has content empty and
   * document.content_omitted set.
   */
  'maxContentBytes'?: (number | string | Long);
  /**
   * How many results had their content left out.
   */
  'contentOmitted'?: (number);
}

export interface SearchV3Response__Output {
  'results': (_engram_recall_v1_SearchV3Result__Output)[];
  'timingMs': (number);
  'total': (number);
  /**
   * With include_full_docs: the content budget the results were filled under
   * (RECALL_SEARCH_MAX_CONTENT_BYTES), in rank order, each content whole or
   * none; a result whose content did not fit has content empty and
   * document.content_omitted set.
   */
  'maxContentBytes': (number);
  /**
   * How many results had their content left out.
   */
  'contentOmitted': (number);
}
