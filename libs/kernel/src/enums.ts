import type { DocumentStatus, Dreaming, TaskType } from "./status";
import { DOCUMENT_STATUSES } from "./status";

/**
 * Conversions between the API's lower-case values and the proto enum names
 * (`DOCUMENT_STATUS_DONE`, `TASK_TYPE_MEMORY`, ...). One place for all of it.
 */
function toProto(prefix: string, value: string): string {
  return `${prefix}_${value.toUpperCase()}`;
}

function fromProto<T extends string>(prefix: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (!value || !value.startsWith(prefix + "_")) return undefined;
  const v = value.slice(prefix.length + 1).toLowerCase() as T;
  return allowed.includes(v) ? v : undefined;
}

export const protoEnum = {
  status: {
    to: (s: DocumentStatus) => toProto("DOCUMENT_STATUS", s),
    from: (v: string | undefined): DocumentStatus => fromProto("DOCUMENT_STATUS", v, DOCUMENT_STATUSES) ?? "unknown",
  },
  taskType: {
    to: (t: TaskType | undefined) => (t ? toProto("TASK_TYPE", t) : "TASK_TYPE_UNSPECIFIED"),
    from: (v: string | undefined): TaskType | undefined => fromProto("TASK_TYPE", v, ["memory", "superrag"] as const),
  },
  dreaming: {
    to: (d: Dreaming | undefined) => (d ? toProto("DREAMING", d) : "DREAMING_UNSPECIFIED"),
    from: (v: string | undefined): Dreaming | undefined => fromProto("DREAMING", v, ["dynamic", "instant"] as const),
  },
};
