import { z } from "zod";
import { InvalidArgumentError, type JsonObject, type JsonValue } from "@engram/kernel";

/**
 * The API's metadata filter language (OpenAPI QueryFilter): conditions on
 * metadata keys combined with nested AND / OR, at most five levels deep.
 * `parseFilter` validates and normalises once at the edge; adapters either
 * evaluate the tree with `matchesFilter` (embedded stores) or translate it
 * (Qdrant, MongoDB).
 */
export type FilterType = "metadata" | "numeric" | "array_contains" | "string_contains";
export type NumericOperator = ">" | "<" | ">=" | "<=" | "=";

export interface FilterCondition {
  filterType: FilterType;
  key: string;
  value: string;
  negate: boolean;
  ignoreCase: boolean;
  numericOperator: NumericOperator;
}

export type FilterExpr = FilterCondition | { AND: FilterExpr[] } | { OR: FilterExpr[] };

export const MAX_FILTER_DEPTH = 5;
export const MAX_FILTER_CONDITIONS = 100;

const flag = z
  .union([z.boolean(), z.enum(["true", "false"])])
  .optional()
  .transform((v) => v === true || v === "true");

/** One condition of a filter (the OpenAPI description's FilterCondition is generated from it). */
export const filterConditionSchema = z
  .object({
    filterType: z.enum(["metadata", "numeric", "array_contains", "string_contains"]).default("metadata"),
    key: z.string().min(1, "key must not be empty").max(128),
    value: z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v)),
    negate: flag,
    ignoreCase: flag,
    numericOperator: z.enum([">", "<", ">=", "<=", "="]).default("="),
  })
  .strict();

function parseNode(node: unknown, path: string, depth: number, count: { n: number }): FilterExpr {
  if (depth > MAX_FILTER_DEPTH) throw new InvalidArgumentError("filter is nested too deeply", `at most ${MAX_FILTER_DEPTH} levels of AND/OR (at ${path})`);
  if (typeof node !== "object" || node === null || Array.isArray(node)) {
    throw new InvalidArgumentError("invalid filter", `${path} must be an object: a condition, {"AND": [...]} or {"OR": [...]}`);
  }
  const keys = Object.keys(node);
  if (keys.length === 1 && (keys[0] === "AND" || keys[0] === "OR")) {
    const op = keys[0];
    const items = (node as Record<string, unknown>)[op];
    if (!Array.isArray(items) || items.length === 0) throw new InvalidArgumentError("invalid filter", `${path}.${op} must be a non-empty array`);
    const parsed = items.map((item, i) => parseNode(item, `${path}.${op}[${i}]`, depth + 1, count));
    return op === "AND" ? { AND: parsed } : { OR: parsed };
  }
  if (keys.includes("AND") || keys.includes("OR")) {
    throw new InvalidArgumentError("invalid filter", `${path}: AND / OR must be the only key of their object`);
  }
  const res = filterConditionSchema.safeParse(node);
  if (!res.success) {
    const detail = res.error.issues.map((i) => `${path}${i.path.length ? "." + i.path.join(".") : ""}: ${i.message}`).join("; ");
    throw new InvalidArgumentError("invalid filter condition", detail);
  }
  const c = res.data;
  if (c.filterType === "numeric" && !Number.isFinite(Number(c.value))) {
    throw new InvalidArgumentError("invalid filter condition", `${path}.value must be a number for filterType numeric`);
  }
  if (++count.n > MAX_FILTER_CONDITIONS) throw new InvalidArgumentError("filter has too many conditions", `at most ${MAX_FILTER_CONDITIONS}`);
  return c;
}

/**
 * Validates a filter as sent by a client. The top level is `{AND: [...]}` or
 * `{OR: [...]}` (a bare condition is accepted too and treated as a
 * one-condition AND). Throws InvalidArgumentError naming the offending path.
 */
export function parseFilter(input: unknown): FilterExpr {
  return parseNode(input, "filters", 1, { n: 0 });
}

function isCondition(f: FilterExpr): f is FilterCondition {
  return "key" in f;
}

const norm = (s: string, ignoreCase: boolean) => (ignoreCase ? s.toLowerCase() : s);

function scalarEquals(actual: JsonValue, c: FilterCondition): boolean {
  if (actual === null || typeof actual === "object") return false;
  if (typeof actual === "number" && Number.isFinite(Number(c.value)) && c.value.trim() !== "") return actual === Number(c.value);
  return norm(String(actual), c.ignoreCase) === norm(c.value, c.ignoreCase);
}

function evalCondition(c: FilterCondition, metadata: JsonObject | undefined): boolean {
  const actual = metadata?.[c.key];
  let hit = false;
  if (actual !== undefined) {
    switch (c.filterType) {
      case "metadata":
        hit = Array.isArray(actual) ? actual.some((v) => scalarEquals(v, c)) : scalarEquals(actual, c);
        break;
      case "numeric": {
        const a = typeof actual === "number" ? actual : typeof actual === "string" && actual.trim() !== "" ? Number(actual) : NaN;
        const b = Number(c.value);
        if (Number.isFinite(a)) {
          hit =
            c.numericOperator === ">"
              ? a > b
              : c.numericOperator === "<"
                ? a < b
                : c.numericOperator === ">="
                  ? a >= b
                  : c.numericOperator === "<="
                    ? a <= b
                    : a === b;
        }
        break;
      }
      case "array_contains":
        hit = Array.isArray(actual) && actual.some((v) => scalarEquals(v, c));
        break;
      case "string_contains":
        hit = typeof actual === "string" && norm(actual, c.ignoreCase).includes(norm(c.value, c.ignoreCase));
        break;
    }
  }
  return c.negate ? !hit : hit;
}

/** Evaluates a parsed filter against one record's metadata. */
export function matchesFilter(f: FilterExpr, metadata: JsonObject | undefined): boolean {
  if (isCondition(f)) return evalCondition(f, metadata);
  if ("AND" in f) return f.AND.every((x) => matchesFilter(x, metadata));
  return f.OR.some((x) => matchesFilter(x, metadata));
}

/** Metadata keys a filter reads (adapters index these). */
export function filterKeys(f: FilterExpr): string[] {
  if (isCondition(f)) return [f.key];
  return [...new Set(("AND" in f ? f.AND : f.OR).flatMap(filterKeys))];
}
export * from "./mongo";
