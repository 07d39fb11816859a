// Original file: protos/engram/common/v1/common.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

/**
 * A metadata / container-tag filter in the API's AND/OR condition syntax
 * (OpenAPI: filters). Carried as JSON so the nesting is kept exactly; the
 * receiving service validates it.
 */
export interface Filter {
  'expression'?: (_google_protobuf_Struct | null);
}

/**
 * A metadata / container-tag filter in the API's AND/OR condition syntax
 * (OpenAPI: filters). Carried as JSON so the nesting is kept exactly; the
 * receiving service validates it.
 */
export interface Filter__Output {
  'expression': (_google_protobuf_Struct__Output | null);
}
