// Original file: protos/engram/ingestion/v1/conversation_service.proto

export const ContentPartType = {
  CONTENT_PART_TYPE_UNSPECIFIED: 'CONTENT_PART_TYPE_UNSPECIFIED',
  CONTENT_PART_TYPE_TEXT: 'CONTENT_PART_TYPE_TEXT',
  CONTENT_PART_TYPE_IMAGE_URL: 'CONTENT_PART_TYPE_IMAGE_URL',
} as const;

export type ContentPartType =
  | 'CONTENT_PART_TYPE_UNSPECIFIED'
  | 0
  | 'CONTENT_PART_TYPE_TEXT'
  | 1
  | 'CONTENT_PART_TYPE_IMAGE_URL'
  | 2

export type ContentPartType__Output = typeof ContentPartType[keyof typeof ContentPartType]
