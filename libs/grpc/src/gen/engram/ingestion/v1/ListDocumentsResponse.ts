// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { Document as _engram_ingestion_v1_Document, Document__Output as _engram_ingestion_v1_Document__Output } from '../../../engram/ingestion/v1/Document';
import type { Pagination as _engram_common_v1_Pagination, Pagination__Output as _engram_common_v1_Pagination__Output } from '../../../engram/common/v1/Pagination';
import type { Long } from '@grpc/proto-loader';

export interface ListDocumentsResponse {
  'documents'?: (_engram_ingestion_v1_Document)[];
  'pagination'?: (_engram_common_v1_Pagination | null);
  /**
   * With include_content: the content budget this answer was filled under.
   * Documents are taken in page order; one whose content does not fit in
   * what is left is listed with content empty and content_omitted set.
   */
  'maxContentBytes'?: (number | string | Long);
  /**
   * How many documents of the page had their content left out.
   */
  'contentOmitted'?: (number);
}

export interface ListDocumentsResponse__Output {
  'documents': (_engram_ingestion_v1_Document__Output)[];
  'pagination': (_engram_common_v1_Pagination__Output | null);
  /**
   * With include_content: the content budget this answer was filled under.
   * Documents are taken in page order; one whose content does not fit in
   * what is left is listed with content empty and content_omitted set.
   */
  'maxContentBytes': (number);
  /**
   * How many documents of the page had their content left out.
   */
  'contentOmitted': (number);
}
