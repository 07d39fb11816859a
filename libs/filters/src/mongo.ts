import type { JsonObject, JsonValue } from "@engram/kernel";
import type { FilterCondition, FilterExpr } from "./index";

/**
 * MongoDB form of metadata and of the filter language, for stores that keep
 * records in MongoDB. No driver import: the results are plain objects.
 *
 * Metadata keys are caller-chosen strings (dots, a leading `$`, anything up
 * to 128 characters), which MongoDB field paths cannot carry safely. So a
 * record stores its metadata as an array of entries (the attribute pattern),
 * one per key, which also lets one multikey index on `meta.k` serve every
 * key. Each entry carries what the filter kinds compare, computed with the
 * same JavaScript rules as `matchesFilter`, so a translated filter selects
 * exactly the records `matchesFilter` accepts:
 *
 * - `v`: the value as stored when it is a scalar or an array of scalars
 *   (equality on an array field matches any element, as `metadata` filters do);
 * - `a`: whether the value is an array (`array_contains` needs one;
 *   `numeric` and `string_contains` need a scalar);
 * - `l`: the string value (or the array's string elements) lower-cased with
 *   `String.prototype.toLowerCase`, for `ignoreCase`;
 * - `n`: the numeric value of a number or of a numeric string, for `numeric`;
 * - `j`: the JSON text of a value that is neither (an object, an array with
 *   objects or arrays inside); such values never match a condition, and `v`
 *   then holds only the array's scalar elements.
 */
export interface MetadataEntry {
  k: string;
  a: boolean;
  v?: JsonScalar | JsonScalar[];
  l?: string | string[];
  n?: number;
  j?: string;
}

type JsonScalar = string | number | boolean | null;

const isScalar = (v: JsonValue): v is JsonScalar => v === null || typeof v !== "object";

/** The number a string stands for in a `numeric` filter, as `matchesFilter` reads it. */
function numericOf(s: string): number | undefined {
  if (s.trim() === "") return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

function entryOf(k: string, value: JsonValue): MetadataEntry {
  if (Array.isArray(value)) {
    const scalars = value.filter(isScalar);
    const lower = scalars.filter((x): x is string => typeof x === "string").map((x) => x.toLowerCase());
    const e: MetadataEntry = { k, a: true, v: scalars };
    if (lower.length) e.l = lower;
    if (scalars.length !== value.length) e.j = JSON.stringify(value);
    return e;
  }
  if (value !== null && typeof value === "object") return { k, a: false, j: JSON.stringify(value) };
  const e: MetadataEntry = { k, a: false, v: value };
  if (typeof value === "string") {
    e.l = value.toLowerCase();
    const n = numericOf(value);
    if (n !== undefined) e.n = n;
  } else if (typeof value === "number" && Number.isFinite(value)) {
    e.n = value;
  }
  return e;
}

/** The stored entries of a record's metadata (in key order); [] when there is none. */
export function metadataEntries(metadata: JsonObject | undefined): MetadataEntry[] {
  if (!metadata) return [];
  return Object.entries(metadata).map(([k, v]) => entryOf(k, v));
}

/**
 * The metadata back from its entries (key order kept); undefined when the
 * record has no entries field (stored without metadata), {} for [].
 */
export function metadataFromEntries(entries: MetadataEntry[] | undefined): JsonObject | undefined {
  if (!entries) return undefined;
  return Object.fromEntries(entries.map((e) => [e.k, e.j !== undefined ? (JSON.parse(e.j) as JsonValue) : (e.v ?? null)]));
}

/** Escapes a literal for a MongoDB (PCRE) regular expression: metacharacters and NUL (which a pattern cannot hold raw). */
export function escapeRegex(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&").replace(/\0/g, "\\x00");
}

/** The alternatives under which one scalar (or one array element) equals the condition's value (`scalarEquals`). */
function equalityAlternatives(c: FilterCondition): Record<string, unknown>[] {
  const alts: Record<string, unknown>[] = [c.ignoreCase ? { l: c.value.toLowerCase() } : { v: c.value }];
  const n = numericOf(c.value);
  if (n !== undefined) alts.push({ v: n });
  const asBool = c.ignoreCase ? c.value.toLowerCase() : c.value;
  if (asBool === "true") alts.push({ v: true });
  if (asBool === "false") alts.push({ v: false });
  return alts;
}

const NUMERIC_OPS = { ">": "$gt", "<": "$lt", ">=": "$gte", "<=": "$lte", "=": "$eq" } as const;

function conditionQuery(c: FilterCondition, field: string): Record<string, unknown> {
  let match: Record<string, unknown>;
  switch (c.filterType) {
    case "metadata": {
      const alts = equalityAlternatives(c);
      match = alts.length === 1 ? { k: c.key, ...alts[0] } : { k: c.key, $or: alts };
      break;
    }
    case "array_contains": {
      const alts = equalityAlternatives(c);
      match = alts.length === 1 ? { k: c.key, a: true, ...alts[0] } : { k: c.key, a: true, $or: alts };
      break;
    }
    case "string_contains":
      match = c.ignoreCase
        ? { k: c.key, a: false, l: { $regex: escapeRegex(c.value.toLowerCase()) } }
        : { k: c.key, a: false, v: { $regex: escapeRegex(c.value) } };
      break;
    case "numeric":
      match = { k: c.key, n: { [NUMERIC_OPS[c.numericOperator]]: Number(c.value) } };
      break;
  }
  const hit = { [field]: { $elemMatch: match } };
  return c.negate ? { $nor: [hit] } : hit;
}

/**
 * A MongoDB query selecting the records whose metadata entries (stored in
 * `field`, see `metadataEntries`) satisfy the filter: the same records
 * `matchesFilter` accepts. A negated condition also matches records without
 * the key, as in `matchesFilter`.
 */
export function filterToMongo(f: FilterExpr, field = "meta"): Record<string, unknown> {
  if ("key" in f) return conditionQuery(f, field);
  if ("AND" in f) return f.AND.length === 1 ? filterToMongo(f.AND[0]!, field) : { $and: f.AND.map((x) => filterToMongo(x, field)) };
  return f.OR.length === 1 ? filterToMongo(f.OR[0]!, field) : { $or: f.OR.map((x) => filterToMongo(x, field)) };
}
