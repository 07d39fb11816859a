// Original file: protos/engram/ingestion/v1/ingestion_service.proto

/**
 * Where a document's content came from.
 */
export const SourceKind = {
  SOURCE_KIND_UNSPECIFIED: 'SOURCE_KIND_UNSPECIFIED',
  SOURCE_KIND_TEXT: 'SOURCE_KIND_TEXT',
  SOURCE_KIND_URL: 'SOURCE_KIND_URL',
  SOURCE_KIND_FILE: 'SOURCE_KIND_FILE',
  SOURCE_KIND_CONNECTOR: 'SOURCE_KIND_CONNECTOR',
  SOURCE_KIND_CONVERSATION: 'SOURCE_KIND_CONVERSATION',
} as const;

/**
 * Where a document's content came from.
 */
export type SourceKind =
  | 'SOURCE_KIND_UNSPECIFIED'
  | 0
  | 'SOURCE_KIND_TEXT'
  | 1
  | 'SOURCE_KIND_URL'
  | 2
  | 'SOURCE_KIND_FILE'
  | 3
  | 'SOURCE_KIND_CONNECTOR'
  | 4
  | 'SOURCE_KIND_CONVERSATION'
  | 5

/**
 * Where a document's content came from.
 */
export type SourceKind__Output = typeof SourceKind[keyof typeof SourceKind]
