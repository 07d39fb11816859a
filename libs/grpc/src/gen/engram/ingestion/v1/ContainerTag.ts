// Original file: protos/engram/ingestion/v1/container_tag_service.proto

import type { FilesystemPathList as _engram_ingestion_v1_FilesystemPathList, FilesystemPathList__Output as _engram_ingestion_v1_FilesystemPathList__Output } from '../../../engram/ingestion/v1/FilesystemPathList';
import type { ProfileBucket as _engram_common_v1_ProfileBucket, ProfileBucket__Output as _engram_common_v1_ProfileBucket__Output } from '../../../engram/common/v1/ProfileBucket';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';
import type { ContainerTagVisibility as _engram_ingestion_v1_ContainerTagVisibility, ContainerTagVisibility__Output as _engram_ingestion_v1_ContainerTagVisibility__Output } from '../../../engram/ingestion/v1/ContainerTagVisibility';
import type { MergeRole as _engram_ingestion_v1_MergeRole, MergeRole__Output as _engram_ingestion_v1_MergeRole__Output } from '../../../engram/ingestion/v1/MergeRole';

export interface ContainerTag {
  /**
   * Service id of the tag (the memories' spaceId).
   */
  'id'?: (string);
  /**
   * The tag itself (= v5 namespace).
   */
  'namespace'?: (string);
  /**
   * Display name; unset = null. Lists show the tag when no name was set.
   */
  'name'?: (string);
  /**
   * Automatically maintained keyword summary of the tag's topics; unset = null.
   */
  'description'?: (string);
  /**
   * Context prompt used when processing documents of this tag
   * (REST entityContext; v5 supportingContext vocabulary); unset = null.
   */
  'entityContext'?: (string);
  /**
   * Paths whose mount-ingested documents get memory extraction; others are
   * ingested as superrag. Unset = null.
   */
  'memoryFilesystemPaths'?: (_engram_ingestion_v1_FilesystemPathList | null);
  /**
   * Tag-level buckets added to the org buckets (never replacing them).
   */
  'profileBuckets'?: (_engram_common_v1_ProfileBucket)[];
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
  'isExperimental'?: (boolean);
  'emoji'?: (string);
  'visibility'?: (_engram_ingestion_v1_ContainerTagVisibility);
  /**
   * True for project tags (name prefix sm_project_).
   */
  'isNova'?: (boolean);
  'documentCount'?: (number);
  /**
   * Latest, not forgotten memories.
   */
  'memoryCount'?: (number);
  /**
   * Latest activity over documents and memories; unset = null.
   */
  'lastActivityAt'?: (_google_protobuf_Timestamp | null);
  /**
   * Set only while the tag takes part in an unfinished merge.
   */
  'mergeStatus'?: (_engram_ingestion_v1_MergeRole);
  'mergeId'?: (string);
  /**
   * For a source tag of an unfinished merge: where it is being merged into.
   */
  'mergeTargetTag'?: (string);
  '_name'?: "name";
  '_description'?: "description";
  '_entityContext'?: "entityContext";
}

export interface ContainerTag__Output {
  /**
   * Service id of the tag (the memories' spaceId).
   */
  'id': (string);
  /**
   * The tag itself (= v5 namespace).
   */
  'namespace': (string);
  /**
   * Display name; unset = null. Lists show the tag when no name was set.
   */
  'name'?: (string);
  /**
   * Automatically maintained keyword summary of the tag's topics; unset = null.
   */
  'description'?: (string);
  /**
   * Context prompt used when processing documents of this tag
   * (REST entityContext; v5 supportingContext vocabulary); unset = null.
   */
  'entityContext'?: (string);
  /**
   * Paths whose mount-ingested documents get memory extraction; others are
   * ingested as superrag. Unset = null.
   */
  'memoryFilesystemPaths': (_engram_ingestion_v1_FilesystemPathList__Output | null);
  /**
   * Tag-level buckets added to the org buckets (never replacing them).
   */
  'profileBuckets': (_engram_common_v1_ProfileBucket__Output)[];
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
  'isExperimental': (boolean);
  'emoji': (string);
  'visibility': (_engram_ingestion_v1_ContainerTagVisibility__Output);
  /**
   * True for project tags (name prefix sm_project_).
   */
  'isNova': (boolean);
  'documentCount': (number);
  /**
   * Latest, not forgotten memories.
   */
  'memoryCount': (number);
  /**
   * Latest activity over documents and memories; unset = null.
   */
  'lastActivityAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * Set only while the tag takes part in an unfinished merge.
   */
  'mergeStatus': (_engram_ingestion_v1_MergeRole__Output);
  'mergeId': (string);
  /**
   * For a source tag of an unfinished merge: where it is being merged into.
   */
  'mergeTargetTag': (string);
  '_name'?: "name";
  '_description'?: "description";
  '_entityContext'?: "entityContext";
}
