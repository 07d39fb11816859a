// Original file: protos/engram/recall/v1/recall_service.proto

/**
 * Kind of content a chunk holds (OpenAPI chunk type).
 */
export const ChunkType = {
  CHUNK_TYPE_UNSPECIFIED: 'CHUNK_TYPE_UNSPECIFIED',
  CHUNK_TYPE_TEXT: 'CHUNK_TYPE_TEXT',
  CHUNK_TYPE_IMAGE: 'CHUNK_TYPE_IMAGE',
} as const;

/**
 * Kind of content a chunk holds (OpenAPI chunk type).
 */
export type ChunkType =
  | 'CHUNK_TYPE_UNSPECIFIED'
  | 0
  | 'CHUNK_TYPE_TEXT'
  | 1
  | 'CHUNK_TYPE_IMAGE'
  | 2

/**
 * Kind of content a chunk holds (OpenAPI chunk type).
 */
export type ChunkType__Output = typeof ChunkType[keyof typeof ChunkType]
