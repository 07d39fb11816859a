import type { QdrantCondition, QdrantFilter } from "../../src/qdrant/filter";

/**
 * A reference evaluator of the Qdrant filter conditions the translation emits,
 * written from Qdrant's documented semantics (filtering concepts page, and the
 * payload condition checker of lib/segment): a field condition holds when any
 * value at its key path does (an array at the end of the path contributes its
 * elements; a missing key or null contributes none); `match.value` compares a
 * string with a string and a boolean with a boolean; `match.any` a string with
 * any of the strings; `match.text` without a full-text index is an exact
 * substring test on strings; `range` holds for numbers only; `is_empty` holds
 * for a missing key, null or []; a filter needs all of `must`, one of a
 * non-empty `should` and none of `must_not`. Used to check the translation
 * against `matchesFilter` without a server; the Qdrant contract suite checks
 * the same cases against the real engine.
 */

/** Key path segments: bare `[A-Za-z0-9_-]+` (Qdrant also takes other letters) or double-quoted. */
export function parseKeyPath(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (path[i] === '"') {
      const end = path.indexOf('"', i + 1);
      if (end < 0) throw new Error(`unterminated quote in ${path}`);
      out.push(path.slice(i + 1, end));
      i = end + 1;
    } else {
      const m = /^[\p{L}\p{N}_-]+/u.exec(path.slice(i));
      if (!m) throw new Error(`bad key path ${path} at ${i}`);
      out.push(m[0]);
      i += m[0].length;
    }
    if (i === path.length) return out;
    if (path[i] !== ".") throw new Error(`bad key path ${path} at ${i}`);
    i++;
  }
}

function valuesAt(payload: unknown, path: string): unknown[] {
  let cur: unknown = payload;
  for (const seg of parseKeyPath(path)) {
    if (typeof cur !== "object" || cur === null || Array.isArray(cur)) return [];
    cur = (cur as Record<string, unknown>)[seg];
  }
  if (cur === undefined || cur === null) return [];
  return Array.isArray(cur) ? cur : [cur];
}

function checkCondition(c: QdrantCondition, payload: unknown): boolean {
  if ("must" in c || "should" in c || "must_not" in c) return evalQdrantFilter(c as QdrantFilter, payload);
  if ("is_empty" in c) {
    const key = (c as { is_empty: { key: string } }).is_empty.key;
    return valuesAt(payload, key).length === 0;
  }
  if (!("key" in c)) throw new Error(`condition not modelled: ${JSON.stringify(c)}`);
  const values = valuesAt(payload, c.key);
  if (c.match) {
    const m = c.match as Record<string, unknown>;
    if ("value" in m) return values.some((v) => typeof v === typeof m.value && (typeof v === "string" || typeof v === "boolean") && v === m.value);
    if ("any" in m) return values.some((v) => typeof v === "string" && (m.any as unknown[]).includes(v));
    if ("text" in m) return values.some((v) => typeof v === "string" && v.includes(m.text as string));
    throw new Error(`match not modelled: ${JSON.stringify(m)}`);
  }
  if (c.range) {
    const r = c.range as { lt?: number; gt?: number; lte?: number; gte?: number };
    return values.some(
      (v) =>
        typeof v === "number" &&
        (r.lt === undefined || v < r.lt) &&
        (r.gt === undefined || v > r.gt) &&
        (r.lte === undefined || v <= r.lte) &&
        (r.gte === undefined || v >= r.gte),
    );
  }
  throw new Error(`condition not modelled: ${JSON.stringify(c)}`);
}

const list = (x: QdrantCondition | QdrantCondition[] | Record<string, unknown> | null | undefined): QdrantCondition[] =>
  x === undefined || x === null ? [] : Array.isArray(x) ? x : [x as QdrantCondition];

export function evalQdrantFilter(f: QdrantFilter, payload: unknown): boolean {
  const must = list(f.must);
  const should = list(f.should);
  const mustNot = list(f.must_not);
  return (
    must.every((c) => checkCondition(c, payload)) &&
    (should.length === 0 || should.some((c) => checkCondition(c, payload))) &&
    !mustNot.some((c) => checkCondition(c, payload))
  );
}
