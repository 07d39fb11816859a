// Original file: protos/engram/connections/v1/connections_service.proto

import type { CallContext as _engram_common_v1_CallContext, CallContext__Output as _engram_common_v1_CallContext__Output } from '../../../engram/common/v1/CallContext';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

export interface ConfigureConnectionRequest {
  'context'?: (_engram_common_v1_CallContext | null);
  'connectionId'?: (string);
  /**
   * Provider-shaped selections. For github: id (repository id), name (full
   * name), defaultBranch.
   */
  'resources'?: (_google_protobuf_Struct)[];
}

export interface ConfigureConnectionRequest__Output {
  'context': (_engram_common_v1_CallContext__Output | null);
  'connectionId': (string);
  /**
   * Provider-shaped selections. For github: id (repository id), name (full
   * name), defaultBranch.
   */
  'resources': (_google_protobuf_Struct__Output)[];
}
