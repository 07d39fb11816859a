// Original file: protos/engram/ingestion/v1/container_tag_service.proto

import type { MergeStatus as _engram_ingestion_v1_MergeStatus, MergeStatus__Output as _engram_ingestion_v1_MergeStatus__Output } from '../../../engram/ingestion/v1/MergeStatus';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

export interface ContainerTagMerge {
  'id'?: (string);
  'status'?: (_engram_ingestion_v1_MergeStatus);
  'targetNamespace'?: (string);
  'sourceNamespaces'?: (string)[];
  'movedDocumentsCount'?: (number);
  'movedMemoriesCount'?: (number);
  /**
   * Readable reason when status is failed.
   */
  'error'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
  'completedAt'?: (_google_protobuf_Timestamp | null);
}

export interface ContainerTagMerge__Output {
  'id': (string);
  'status': (_engram_ingestion_v1_MergeStatus__Output);
  'targetNamespace': (string);
  'sourceNamespaces': (string)[];
  'movedDocumentsCount': (number);
  'movedMemoriesCount': (number);
  /**
   * Readable reason when status is failed.
   */
  'error': (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
  'completedAt': (_google_protobuf_Timestamp__Output | null);
}
