// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';
import type { DocumentStatus as _engram_common_v1_DocumentStatus, DocumentStatus__Output as _engram_common_v1_DocumentStatus__Output } from '../../../engram/common/v1/DocumentStatus';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';
import type { TaskType as _engram_common_v1_TaskType, TaskType__Output as _engram_common_v1_TaskType__Output } from '../../../engram/common/v1/TaskType';
import type { Dreaming as _engram_common_v1_Dreaming, Dreaming__Output as _engram_common_v1_Dreaming__Output } from '../../../engram/common/v1/Dreaming';
import type { SourceKind as _engram_ingestion_v1_SourceKind, SourceKind__Output as _engram_ingestion_v1_SourceKind__Output } from '../../../engram/ingestion/v1/SourceKind';
import type { Long } from '@grpc/proto-loader';

export interface Document {
  /**
   * Service id (22 characters).
   */
  'id'?: (string);
  /**
   * Caller-defined id (v5 id / legacy customId); empty when none.
   */
  'customId'?: (string);
  /**
   * v5 namespace = legacy containerTag.
   */
  'namespace'?: (string);
  /**
   * Text content as given (for URL documents: the URL); for files: empty
   * until extraction stores the text.
   */
  'content'?: (string);
  /**
   * v5 supportingContext = legacy entityContext.
   */
  'supportingContext'?: (string);
  'metadata'?: (_google_protobuf_Struct | null);
  /**
   * v5 group = legacy filterByMetadata.
   */
  'group'?: (_google_protobuf_Struct | null);
  /**
   * v5 date = legacy documentDate (ISO 8601 as given).
   */
  'date'?: (string);
  'status'?: (_engram_common_v1_DocumentStatus);
  /**
   * Readable reason when status is failed.
   */
  'statusReason'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
  'taskType'?: (_engram_common_v1_TaskType);
  'dreaming'?: (_engram_common_v1_Dreaming);
  'sourceKind'?: (_engram_ingestion_v1_SourceKind);
  /**
   * Detected title and content type (text, markdown, pdf, webpage, ...).
   */
  'title'?: (string);
  'contentType'?: (string);
  'url'?: (string);
  'filepath'?: (string);
  'connectionId'?: (string);
  'summary'?: (string);
  'ogImage'?: (string);
  'fileName'?: (string);
  'mimeType'?: (string);
  'sizeBytes'?: (number | string | Long);
  /**
   * Incremented every time new content is queued for processing.
   */
  'generation'?: (number);
  /**
   * Extracted plain text (after extraction), for include=content style reads.
   */
  'extractedText'?: (string);
  /**
   * Legacy containerTags (the namespace first).
   */
  'containerTags'?: (string)[];
  /**
   * In a listing with include_content: the content was left out (empty)
   * because the answer's content budget was spent (ListDocumentsResponse).
   */
  'contentOmitted'?: (boolean);
}

export interface Document__Output {
  /**
   * Service id (22 characters).
   */
  'id': (string);
  /**
   * Caller-defined id (v5 id / legacy customId); empty when none.
   */
  'customId': (string);
  /**
   * v5 namespace = legacy containerTag.
   */
  'namespace': (string);
  /**
   * Text content as given (for URL documents: the URL); for files: empty
   * until extraction stores the text.
   */
  'content': (string);
  /**
   * v5 supportingContext = legacy entityContext.
   */
  'supportingContext': (string);
  'metadata': (_google_protobuf_Struct__Output | null);
  /**
   * v5 group = legacy filterByMetadata.
   */
  'group': (_google_protobuf_Struct__Output | null);
  /**
   * v5 date = legacy documentDate (ISO 8601 as given).
   */
  'date': (string);
  'status': (_engram_common_v1_DocumentStatus__Output);
  /**
   * Readable reason when status is failed.
   */
  'statusReason': (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
  'taskType': (_engram_common_v1_TaskType__Output);
  'dreaming': (_engram_common_v1_Dreaming__Output);
  'sourceKind': (_engram_ingestion_v1_SourceKind__Output);
  /**
   * Detected title and content type (text, markdown, pdf, webpage, ...).
   */
  'title': (string);
  'contentType': (string);
  'url': (string);
  'filepath': (string);
  'connectionId': (string);
  'summary': (string);
  'ogImage': (string);
  'fileName': (string);
  'mimeType': (string);
  'sizeBytes': (number);
  /**
   * Incremented every time new content is queued for processing.
   */
  'generation': (number);
  /**
   * Extracted plain text (after extraction), for include=content style reads.
   */
  'extractedText': (string);
  /**
   * Legacy containerTags (the namespace first).
   */
  'containerTags': (string)[];
  /**
   * In a listing with include_content: the content was left out (empty)
   * because the answer's content budget was spent (ListDocumentsResponse).
   */
  'contentOmitted': (boolean);
}
