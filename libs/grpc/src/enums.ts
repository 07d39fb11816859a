import {
  DOCUMENT_STATUSES,
  type DocumentStatus,
  type Dreaming,
  DREAMING_MODES,
  MEMORY_RELATIONS,
  type MemoryRelationKind,
  SOURCE_KINDS,
  type SourceKind,
  TASK_TYPES,
  type TaskType,
} from "@engram/kernel";
import type { DocumentStatus__Output } from "./gen/engram/common/v1/DocumentStatus";
import type { Dreaming__Output } from "./gen/engram/common/v1/Dreaming";
import type { TaskType__Output } from "./gen/engram/common/v1/TaskType";
import type { SourceKind__Output } from "./gen/engram/ingestion/v1/SourceKind";
import type { MemoryRelation__Output } from "./gen/engram/memories/v1/MemoryRelation";

/**
 * Conversions between the API's lower-case values and the proto enum names
 * (`DOCUMENT_STATUS_DONE`, `TASK_TYPE_MEMORY`, ...): the one place for all of
 * them, typed with the generated enums so a message field takes the result as
 * it is. Unknown or unspecified proto values read back as the domain's default
 * (`unknown` for a status, undefined for the others).
 */
type Upper<P extends string, V extends string> = `${P}_${Uppercase<V>}`;

function enumMap<P extends string, V extends string, Out extends string>(prefix: P, values: readonly V[]) {
  const unspecified = `${prefix}_UNSPECIFIED` as Out;
  const byValue = new Map(values.map((v) => [v, `${prefix}_${v.toUpperCase()}` as Upper<P, V> & Out]));
  const byName = new Map<string, V>(values.map((v) => [`${prefix}_${v.toUpperCase()}`, v]));
  return {
    to: (v: V | undefined): Out => (v === undefined ? unspecified : byValue.get(v)!),
    from: (name: string | number | undefined | null): V | undefined => (typeof name === "string" ? byName.get(name) : undefined),
  };
}

const status = enumMap<"DOCUMENT_STATUS", DocumentStatus, DocumentStatus__Output>("DOCUMENT_STATUS", DOCUMENT_STATUSES);

export const protoEnum = {
  status: {
    to: (s: DocumentStatus): DocumentStatus__Output => status.to(s),
    from: (v: string | undefined | null): DocumentStatus => status.from(v) ?? "unknown",
  },
  taskType: enumMap<"TASK_TYPE", TaskType, TaskType__Output>("TASK_TYPE", TASK_TYPES),
  dreaming: enumMap<"DREAMING", Dreaming, Dreaming__Output>("DREAMING", DREAMING_MODES),
  sourceKind: enumMap<"SOURCE_KIND", SourceKind, SourceKind__Output>("SOURCE_KIND", SOURCE_KINDS),
  memoryRelation: enumMap<"MEMORY_RELATION", MemoryRelationKind, MemoryRelation__Output>("MEMORY_RELATION", MEMORY_RELATIONS),
};
