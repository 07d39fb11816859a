// Original file: protos/engram/ingestion/v1/ingestion_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { PlannedDocument as _engram_ingestion_v1_PlannedDocument, PlannedDocument__Output as _engram_ingestion_v1_PlannedDocument__Output } from '../../../engram/ingestion/v1/PlannedDocument';

export interface PlanDocumentImportRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'documents'?: (_engram_ingestion_v1_PlannedDocument)[];
}

export interface PlanDocumentImportRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'documents': (_engram_ingestion_v1_PlannedDocument__Output)[];
}
