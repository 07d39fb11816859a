import type { FilterCondition, FilterExpr } from "@engram/filters";
import type { JsonObject, JsonValue } from "@engram/kernel";
import type { Schemas } from "@qdrant/js-client-rest";

export type QdrantFilter = Schemas["Filter"];
export type QdrantCondition = Schemas["Condition"];

/**
 * Payload field holding the copies of a record's metadata that filters read
 * (`FilterPayload`). The metadata itself stays where the record keeps it, for
 * reading back; filters never look there.
 */
export const FILTER_PAYLOAD_KEY = "_filter";

/**
 * What the Qdrant filter translation needs of a record's metadata, so that a
 * Qdrant filter decides exactly as `matchesFilter` does:
 * - `v`: each scalar or array value as stored (equality, membership, substrings);
 * - `lc`: the same with strings lower-cased (Qdrant's keyword match is
 *   case-sensitive: `ignoreCase` conditions match this copy with a lower-cased value);
 * - `n`: the number a `numeric` condition compares (a number, or a string that
 *   reads as a finite number; arrays, booleans and other strings have none);
 * - `arrays` / `strings`: the keys whose value is an array / a string
 *   (`array_contains` only matches arrays, `string_contains` only strings,
 *   while Qdrant's conditions look into both).
 * Keys are stored under `storageKey(key)`; objects and nulls are left out
 * (no condition ever matches them).
 */
export interface FilterPayload {
  v: Record<string, JsonValue>;
  lc: Record<string, JsonValue>;
  n: Record<string, number>;
  arrays: string[];
  strings: string[];
}

/**
 * The key a metadata key is stored under in the filter payload: the key itself,
 * or `=` followed by the hex of its UTF-8 bytes when it starts with `=` or holds a
 * character a Qdrant key path cannot quote (`"` or `\`). Injective: a stored key
 * starts with `=` exactly when it is encoded.
 */
export function storageKey(key: string): string {
  if (!key.startsWith("=") && !/["\\]/.test(key)) return key;
  return "=" + Buffer.from(key, "utf8").toString("hex");
}

/** One segment of a Qdrant key path: bare when Qdrant's path grammar allows it, else double-quoted. */
function pathSegment(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : `"${key}"`;
}

/** Key path of a metadata key's copy in the filter payload (`part` = v, lc or n). */
export function filterPayloadPath(part: "v" | "lc" | "n", key: string): string {
  return `${FILTER_PAYLOAD_KEY}.${part}.${pathSegment(storageKey(key))}`;
}

/** The number `matchesFilter` reads from a value for a `numeric` condition (undefined: never matches). */
function numericValue(v: JsonValue): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

const lower = (v: JsonValue): JsonValue => (typeof v === "string" ? v.toLowerCase() : Array.isArray(v) ? v.map(lower) : v);

export function metadataFilterPayload(metadata: JsonObject | undefined): FilterPayload {
  const out: FilterPayload = { v: {}, lc: {}, n: {}, arrays: [], strings: [] };
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (value === null || value === undefined || (typeof value === "object" && !Array.isArray(value))) continue;
    const k = storageKey(key);
    out.v[k] = value;
    out.lc[k] = lower(value);
    const n = numericValue(value);
    if (n !== undefined) out.n[k] = n;
    if (Array.isArray(value)) out.arrays.push(k);
    if (typeof value === "string") out.strings.push(k);
  }
  return out;
}

/** Payload paths worth a payload index for a metadata key that filters use often. */
export function filterIndexFields(key: string): { field: string; schema: "keyword" | "float" }[] {
  return [
    { field: filterPayloadPath("v", key), schema: "keyword" },
    { field: filterPayloadPath("lc", key), schema: "keyword" },
    { field: filterPayloadPath("n", key), schema: "float" },
  ];
}

const ARRAYS_PATH = `${FILTER_PAYLOAD_KEY}.arrays`;
const STRINGS_PATH = `${FILTER_PAYLOAD_KEY}.strings`;
/** The lists of array- and string-valued keys (small keyword arrays on every record). */
export const FILTER_LIST_FIELDS = [ARRAYS_PATH, STRINGS_PATH];

function isNumericLiteral(s: string): boolean {
  return s.trim() !== "" && Number.isFinite(Number(s));
}

/**
 * Scalar equality as `matchesFilter` defines it (for a value or any element of
 * an array): a number equals a numeric condition value numerically, anything
 * else compares as its string form (so `true` equals "true").
 */
function scalarEquals(c: FilterCondition): QdrantCondition {
  const key = filterPayloadPath(c.ignoreCase ? "lc" : "v", c.key);
  const value = c.ignoreCase ? c.value.toLowerCase() : c.value;
  const any: QdrantCondition[] = [{ key, match: { value } }];
  if (isNumericLiteral(c.value)) {
    const n = Number(c.value);
    any.push({ key, range: { gte: n, lte: n } });
  }
  if (value === "true" || value === "false") any.push({ key, match: { value: value === "true" } });
  return any.length === 1 ? any[0]! : { should: any };
}

function numericRange(c: FilterCondition): Schemas["Range"] {
  const n = Number(c.value);
  switch (c.numericOperator) {
    case ">":
      return { gt: n };
    case "<":
      return { lt: n };
    case ">=":
      return { gte: n };
    case "<=":
      return { lte: n };
    case "=":
      return { gte: n, lte: n };
  }
}

/** The condition that holds when the (un-negated) filter condition matches. */
function conditionHit(c: FilterCondition): QdrantCondition {
  const k = storageKey(c.key);
  switch (c.filterType) {
    case "metadata":
      return scalarEquals(c);
    case "numeric":
      return { key: filterPayloadPath("n", c.key), range: numericRange(c) };
    case "array_contains":
      return { must: [{ key: ARRAYS_PATH, match: { value: k } }, scalarEquals(c)] };
    case "string_contains": {
      // No full-text index on these fields: Qdrant then checks `text` as an exact substring of the stored string.
      const isString: QdrantCondition = { key: STRINGS_PATH, match: { value: k } };
      if (c.value === "") return isString;
      return {
        must: [isString, { key: filterPayloadPath(c.ignoreCase ? "lc" : "v", c.key), match: { text: c.ignoreCase ? c.value.toLowerCase() : c.value } }],
      };
    }
  }
}

/**
 * The API's AND/OR filter as a Qdrant condition: AND → `must`, OR → `should`,
 * a condition → its match (see `conditionHit`), `negate` → `must_not` around it
 * (a missing key never matches, so negated it does, as `matchesFilter` says).
 */
export function translateFilter(f: FilterExpr): QdrantCondition {
  if ("AND" in f) return { must: f.AND.map(translateFilter) };
  if ("OR" in f) return { should: f.OR.map(translateFilter) };
  const hit = conditionHit(f);
  return f.negate ? { must_not: [hit] } : hit;
}

/** Where a query may look: always one tenant; optionally some namespaces (or one) and one document. */
export interface QdrantScope {
  tenantId: string;
  /** Any of these namespaces (an empty list matches nothing). */
  namespaces?: string[];
  documentId?: string;
}

/** Conditions of a scope (payload fields `tenantId`, `namespace`, `documentId`). */
export function scopeConditions(scope: QdrantScope): QdrantCondition[] {
  const out: QdrantCondition[] = [{ key: "tenantId", match: { value: scope.tenantId } }];
  if (scope.namespaces !== undefined) {
    out.push(
      scope.namespaces.length === 1 ? { key: "namespace", match: { value: scope.namespaces[0]! } } : { key: "namespace", match: { any: scope.namespaces } },
    );
  }
  if (scope.documentId !== undefined) out.push({ key: "documentId", match: { value: scope.documentId } });
  return out;
}

/** A complete Qdrant filter: the scope, then any extra conditions, then the API filter when given. */
export function toQdrantFilter(scope: QdrantScope, filter?: FilterExpr, extra: QdrantCondition[] = []): QdrantFilter {
  const must = [...scopeConditions(scope), ...extra];
  if (filter) must.push(translateFilter(filter));
  return { must };
}

/** Payload field of a chunk point: its document's filepath ("" when it has none). */
export const CHUNK_FILEPATH = "filepath";
/** Payload field of a chunk point: every prefix of the filepath that ends in '/' (what a prefix filter matches). */
export const CHUNK_FILEPATH_PREFIXES = "filepathPrefixes";
/** Payload field of a chunk point: true once the point carries its document's filepath (points of earlier releases lack it until backfilled). */
export const CHUNK_FILEPATH_KNOWN = "filepathKnown";
export const CHUNK_FILEPATH_FIELDS = [CHUNK_FILEPATH, CHUNK_FILEPATH_PREFIXES];

/** The prefixes of a filepath a prefix filter ("…/") matches: each leading part ending in '/'. */
export function filepathPrefixes(filepath: string): string[] {
  const out: string[] = [];
  for (let i = filepath.indexOf("/"); i >= 0; i = filepath.indexOf("/", i + 1)) out.push(filepath.slice(0, i + 1));
  return out;
}

/** The filepath payload fields of a chunk point (written with every chunk, and by a filepath update). */
export function filepathPayload(filepath: string | undefined): Record<string, unknown> {
  return { [CHUNK_FILEPATH]: filepath ?? "", [CHUNK_FILEPATH_PREFIXES]: filepath ? filepathPrefixes(filepath) : [], [CHUNK_FILEPATH_KNOWN]: true };
}

/** Points whose filepath is not known yet (written before points carried it). */
export const FILEPATH_UNKNOWN: QdrantCondition = { must_not: [{ key: CHUNK_FILEPATH_KNOWN, match: { value: true } }] };

/**
 * The filepath filter (`matchesFilepath`): the exact path, or a prefix when it ends with '/' (matched against the
 * stored prefixes). Points whose filepath is not known yet pass, for the caller to check (ChunkSearchQuery.filepath).
 */
export function filepathCondition(filepath: string): QdrantCondition {
  const hit: QdrantCondition = filepath.endsWith("/")
    ? { key: CHUNK_FILEPATH_PREFIXES, match: { value: filepath } }
    : { key: CHUNK_FILEPATH, match: { value: filepath } };
  return { should: [hit, FILEPATH_UNKNOWN] };
}
