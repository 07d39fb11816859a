import type { JsonObject, JsonValue } from "@engram/kernel";

/**
 * google.protobuf.Struct / Value / Timestamp <-> plain JSON and Date, in the
 * shape proto-loader produces with the repository's options (oneofs: true).
 */
import type { Struct, Struct__Output } from "./gen/google/protobuf/Struct";
import type { Value, Value__Output } from "./gen/google/protobuf/Value";
import type { Timestamp, Timestamp__Output } from "./gen/google/protobuf/Timestamp";

type ProtoValue = Value;
type ProtoStruct = Struct;
type ProtoValueIn = Value | Value__Output;
type ProtoStructIn = Struct | Struct__Output;

export function toProtoValue(v: JsonValue): ProtoValue {
  if (v === null || v === undefined) return { nullValue: "NULL_VALUE" };
  if (typeof v === "number") return { numberValue: v };
  if (typeof v === "string") return { stringValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map(toProtoValue) } };
  return { structValue: toStruct(v) };
}

export function toStruct(obj: JsonObject | undefined | null): ProtoStruct | null {
  if (!obj) return null;
  const fields: Record<string, ProtoValue> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) fields[k] = toProtoValue(v);
  return { fields };
}

export function fromProtoValue(v: ProtoValueIn | undefined | null): JsonValue {
  if (!v) return null;
  const kind = ("kind" in v ? v.kind : undefined) ?? (Object.keys(v).find((k) => k.endsWith("Value")) as string | undefined);
  switch (kind) {
    case "numberValue":
      return v.numberValue ?? 0;
    case "stringValue":
      return v.stringValue ?? "";
    case "boolValue":
      return v.boolValue ?? false;
    case "structValue":
      return fromStruct(v.structValue) ?? {};
    case "listValue":
      return ((v.listValue?.values ?? []) as ProtoValueIn[]).map(fromProtoValue);
    default:
      return null;
  }
}

/** Struct -> object; an absent struct is undefined (so "not set" survives the hop). */
export function fromStruct(s: ProtoStructIn | undefined | null): JsonObject | undefined {
  if (!s) return undefined;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(s.fields ?? {})) out[k] = fromProtoValue(v);
  return out;
}

type ProtoTimestamp = Timestamp | Timestamp__Output;

export function toTimestamp(d: Date | string | undefined | null): Timestamp | null {
  if (!d) return null;
  const ms = typeof d === "string" ? Date.parse(d) : d.getTime();
  // Timestamp nanos are always in [0, 1e9), also before 1970 (seconds round down).
  return { seconds: Math.floor(ms / 1000), nanos: (((ms % 1000) + 1000) % 1000) * 1_000_000 };
}

export function fromTimestamp(t: ProtoTimestamp | undefined | null): Date | undefined {
  if (!t || (t.seconds === undefined && t.nanos === undefined)) return undefined;
  return new Date(Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1_000_000));
}
