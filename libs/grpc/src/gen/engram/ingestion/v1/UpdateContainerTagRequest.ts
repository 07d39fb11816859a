// Original file: protos/engram/ingestion/v1/container_tag_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { FilesystemPathList as _engram_ingestion_v1_FilesystemPathList, FilesystemPathList__Output as _engram_ingestion_v1_FilesystemPathList__Output } from '../../../engram/ingestion/v1/FilesystemPathList';
import type { ProfileBucket as _engram_common_v1_ProfileBucket, ProfileBucket__Output as _engram_common_v1_ProfileBucket__Output } from '../../../engram/common/v1/ProfileBucket';

export interface UpdateContainerTagRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'namespace'?: (string);
  /**
   * Display name (1 to 100 characters); never changes the tag itself.
   */
  'name'?: (string);
  /**
   * At most 1500 characters.
   */
  'entityContext'?: (string);
  'memoryFilesystemPaths'?: (_engram_ingestion_v1_FilesystemPathList | null);
  /**
   * Replaces the tag's own bucket list (at most 50); org buckets stay.
   */
  'profileBuckets'?: (_engram_common_v1_ProfileBucket)[];
  /**
   * Fields the caller sent: name, entity_context, memory_filesystem_paths,
   * profile_buckets. A listed field left unset means JSON null (clear); an
   * unlisted field is kept.
   */
  'updateMask'?: (string)[];
  '_name'?: "name";
  '_entityContext'?: "entityContext";
}

export interface UpdateContainerTagRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'namespace': (string);
  /**
   * Display name (1 to 100 characters); never changes the tag itself.
   */
  'name'?: (string);
  /**
   * At most 1500 characters.
   */
  'entityContext'?: (string);
  'memoryFilesystemPaths': (_engram_ingestion_v1_FilesystemPathList__Output | null);
  /**
   * Replaces the tag's own bucket list (at most 50); org buckets stay.
   */
  'profileBuckets': (_engram_common_v1_ProfileBucket__Output)[];
  /**
   * Fields the caller sent: name, entity_context, memory_filesystem_paths,
   * profile_buckets. A listed field left unset means JSON null (clear); an
   * unlisted field is kept.
   */
  'updateMask': (string)[];
  '_name'?: "name";
  '_entityContext'?: "entityContext";
}
