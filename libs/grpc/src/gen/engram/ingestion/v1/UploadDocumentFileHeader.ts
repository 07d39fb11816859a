// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';
import type { TaskType as _engram_common_v1_TaskType, TaskType__Output as _engram_common_v1_TaskType__Output } from '../../../engram/common/v1/TaskType';
import type { Dreaming as _engram_common_v1_Dreaming, Dreaming__Output as _engram_common_v1_Dreaming__Output } from '../../../engram/common/v1/Dreaming';
import type { Long } from '@grpc/proto-loader';

export interface UploadDocumentFileHeader {
  'context'?: (_engram_common_v1_CallContext | null);
  'namespace'?: (string);
  'fileName'?: (string);
  /**
   * Declared by the client (multipart part type, or the mimeType query).
   */
  'mimeType'?: (string);
  /**
   * fileType query parameter (pdf, docx, image, ...), when given.
   */
  'fileType'?: (string);
  'supportingContext'?: (string);
  'metadata'?: (_google_protobuf_Struct | null);
  'group'?: (_google_protobuf_Struct | null);
  'date'?: (string);
  'customId'?: (string);
  'taskType'?: (_engram_common_v1_TaskType);
  'dreaming'?: (_engram_common_v1_Dreaming);
  'containerTags'?: (string)[];
  'sizeBytes'?: (number | string | Long);
  'filepath'?: (string);
  /**
   * Internal (connections): as DocumentInput.connection_id.
   */
  'connectionId'?: (string);
  /**
   * Internal (connections): the item's title at the provider (a file name, a
   * mail subject, a page title). A connector's document keeps it over the
   * title extraction finds. Empty = none.
   */
  'title'?: (string);
}

export interface UploadDocumentFileHeader__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'namespace': (string);
  'fileName': (string);
  /**
   * Declared by the client (multipart part type, or the mimeType query).
   */
  'mimeType': (string);
  /**
   * fileType query parameter (pdf, docx, image, ...), when given.
   */
  'fileType': (string);
  'supportingContext': (string);
  'metadata': (_google_protobuf_Struct__Output | null);
  'group': (_google_protobuf_Struct__Output | null);
  'date': (string);
  'customId': (string);
  'taskType': (_engram_common_v1_TaskType__Output);
  'dreaming': (_engram_common_v1_Dreaming__Output);
  'containerTags': (string)[];
  'sizeBytes': (number);
  'filepath': (string);
  /**
   * Internal (connections): as DocumentInput.connection_id.
   */
  'connectionId': (string);
  /**
   * Internal (connections): the item's title at the provider (a file name, a
   * mail subject, a page title). A connector's document keeps it over the
   * title extraction finds. Empty = none.
   */
  'title': (string);
}
