// Original file: protos/engram/connections/v1/connections_service.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

export interface ListConnectionResourcesResponse {
  /**
   * Provider-shaped objects. For github: id, name, full_name, description,
   * private, default_branch, updated_at.
   */
  'resources'?: (_google_protobuf_Struct)[];
  /**
   * Unset when the provider does not report a total.
   */
  'totalCount'?: (number);
  '_totalCount'?: "totalCount";
}

export interface ListConnectionResourcesResponse__Output {
  /**
   * Provider-shaped objects. For github: id, name, full_name, description,
   * private, default_branch, updated_at.
   */
  'resources': (_google_protobuf_Struct__Output)[];
  /**
   * Unset when the provider does not report a total.
   */
  'totalCount'?: (number);
  '_totalCount'?: "totalCount";
}
