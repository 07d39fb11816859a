import {
  DOCUMENT_STATUSES,
  type DocumentStatus,
  type Dreaming,
  DREAMING_MODES,
  CONNECTOR_PROVIDERS,
  type ConnectorProvider,
  CONNECTION_STATUSES,
  type ConnectionStatus,
  MEMORY_RELATIONS,
  type MemoryRelationKind,
  SOURCE_KINDS,
  type SourceKind,
  SYNC_ERROR_CODES,
  SYNC_RUN_STATUSES,
  type SyncErrorCode,
  type SyncRunStatus,
  SYNC_TRIGGERS,
  type SyncTrigger,
  TASK_TYPES,
  type TaskType,
} from "@engram/kernel";
import type { DocumentStatus__Output } from "./gen/engram/common/v1/DocumentStatus";
import type { Dreaming__Output } from "./gen/engram/common/v1/Dreaming";
import type { TaskType__Output } from "./gen/engram/common/v1/TaskType";
import type { SourceKind__Output } from "./gen/engram/ingestion/v1/SourceKind";
import type { MemoryRelation__Output } from "./gen/engram/memories/v1/MemoryRelation";
import type { Provider__Output } from "./gen/engram/connections/v1/Provider";
import type { ConnectionStatus__Output } from "./gen/engram/connections/v1/ConnectionStatus";
import type { SyncErrorCode__Output } from "./gen/engram/connections/v1/SyncErrorCode";
import type { SyncRunStatus__Output } from "./gen/engram/connections/v1/SyncRunStatus";
import type { SyncTrigger__Output } from "./gen/engram/connections/v1/SyncTrigger";

/**
 * Conversions between the API's lower-case values and the proto enum names
 * (`DOCUMENT_STATUS_DONE`, `TASK_TYPE_MEMORY`, ...): the one place for all of
 * them, typed with the generated enums so a message field takes the result as
 * it is. Unknown or unspecified proto values read back as the domain's default
 * (`unknown` for a status, undefined for the others).
 */
/** `google-drive` → `PROVIDER_GOOGLE_DRIVE` */
const protoName = (prefix: string, value: string) => `${prefix}_${value.toUpperCase().replace(/-/g, "_")}`;

function enumMap<P extends string, V extends string, Out extends string>(prefix: P, values: readonly V[]) {
  const unspecified = `${prefix}_UNSPECIFIED` as Out;
  const byValue = new Map(values.map((v) => [v, protoName(prefix, v) as Out]));
  const byName = new Map<string, V>(values.map((v) => [protoName(prefix, v), v]));
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
  provider: enumMap<"PROVIDER", ConnectorProvider, Provider__Output>("PROVIDER", CONNECTOR_PROVIDERS),
  syncRunStatus: enumMap<"SYNC_RUN_STATUS", SyncRunStatus, SyncRunStatus__Output>("SYNC_RUN_STATUS", SYNC_RUN_STATUSES),
  syncErrorCode: enumMap<"SYNC_ERROR_CODE", SyncErrorCode, SyncErrorCode__Output>("SYNC_ERROR_CODE", SYNC_ERROR_CODES),
  connectionStatus: enumMap<"CONNECTION_STATUS", ConnectionStatus, ConnectionStatus__Output>("CONNECTION_STATUS", CONNECTION_STATUSES),
  syncTrigger: enumMap<"SYNC_TRIGGER", SyncTrigger, SyncTrigger__Output>("SYNC_TRIGGER", SYNC_TRIGGERS),
};
