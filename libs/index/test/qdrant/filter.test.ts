import { prng as rng } from "@engram/testing";
import { type FilterExpr, matchesFilter, parseFilter } from "@engram/filters";
import type { JsonObject, JsonValue } from "@engram/kernel";
import {
  FILTER_PAYLOAD_KEY,
  filterPayloadPath,
  metadataFilterPayload,
  scopeConditions,
  storageKey,
  toQdrantFilter,
  translateFilter,
} from "../../src/qdrant/filter";
import { evalQdrantFilter, parseKeyPath } from "./qdrant-filter-model";

/** Does the translated filter select a record with this metadata (per the Qdrant model)? */
function qdrantMatches(filter: FilterExpr, metadata: JsonObject | undefined): boolean {
  return evalQdrantFilter({ must: [translateFilter(filter)] }, { [FILTER_PAYLOAD_KEY]: metadataFilterPayload(metadata) });
}

describe("Qdrant filter translation: request shapes", () => {
  it("metadata equality matches the value, with a numeric range and a boolean for values that read as such", () => {
    expect(translateFilter(parseFilter({ key: "team", value: "red" }))).toEqual({ key: "_filter.v.team", match: { value: "red" } });
    expect(translateFilter(parseFilter({ key: "year", value: 2023 }))).toEqual({
      should: [
        { key: "_filter.v.year", match: { value: "2023" } },
        { key: "_filter.v.year", range: { gte: 2023, lte: 2023 } },
      ],
    });
    expect(translateFilter(parseFilter({ key: "done", value: true }))).toEqual({
      should: [
        { key: "_filter.v.done", match: { value: "true" } },
        { key: "_filter.v.done", match: { value: true } },
      ],
    });
  });

  it("ignoreCase reads the lower-cased copy with the lower-cased value", () => {
    expect(translateFilter(parseFilter({ key: "Team", value: "RED", ignoreCase: true }))).toEqual({ key: "_filter.lc.Team", match: { value: "red" } });
    expect(translateFilter(parseFilter({ key: "t", value: "ab", filterType: "string_contains", ignoreCase: "true" }))).toEqual({
      must: [
        { key: "_filter.strings", match: { value: "t" } },
        { key: "_filter.lc.t", match: { text: "ab" } },
      ],
    });
  });

  it("numeric operators become ranges on the numeric copy", () => {
    const range = (op: string) => translateFilter(parseFilter({ key: "n", value: "5", filterType: "numeric", numericOperator: op }));
    expect(range(">")).toEqual({ key: "_filter.n.n", range: { gt: 5 } });
    expect(range("<")).toEqual({ key: "_filter.n.n", range: { lt: 5 } });
    expect(range(">=")).toEqual({ key: "_filter.n.n", range: { gte: 5 } });
    expect(range("<=")).toEqual({ key: "_filter.n.n", range: { lte: 5 } });
    expect(range("=")).toEqual({ key: "_filter.n.n", range: { gte: 5, lte: 5 } });
  });

  it("array_contains requires an array; string_contains a string (an empty needle: any string)", () => {
    expect(translateFilter(parseFilter({ key: "tags", value: "ai", filterType: "array_contains" }))).toEqual({
      must: [
        { key: "_filter.arrays", match: { value: "tags" } },
        { key: "_filter.v.tags", match: { value: "ai" } },
      ],
    });
    expect(translateFilter(parseFilter({ key: "title", value: "", filterType: "string_contains" }))).toEqual({
      key: "_filter.strings",
      match: { value: "title" },
    });
  });

  it("AND → must, OR → should, negate → must_not", () => {
    const f = parseFilter({
      OR: [
        { key: "a", value: "x", negate: true },
        {
          AND: [
            { key: "b", value: "y" },
            { key: "c", value: "z" },
          ],
        },
      ],
    });
    expect(translateFilter(f)).toEqual({
      should: [
        { must_not: [{ key: "_filter.v.a", match: { value: "x" } }] },
        {
          must: [
            { key: "_filter.v.b", match: { value: "y" } },
            { key: "_filter.v.c", match: { value: "z" } },
          ],
        },
      ],
    });
  });

  it("scope: tenant always, namespaces as one value or any, document when given; the API filter after it", () => {
    expect(scopeConditions({ tenantId: "t" })).toEqual([{ key: "tenantId", match: { value: "t" } }]);
    expect(scopeConditions({ tenantId: "t", namespaces: ["a"], documentId: "d" })).toEqual([
      { key: "tenantId", match: { value: "t" } },
      { key: "namespace", match: { value: "a" } },
      { key: "documentId", match: { value: "d" } },
    ]);
    expect(scopeConditions({ tenantId: "t", namespaces: ["a", "b"] })[1]).toEqual({ key: "namespace", match: { any: ["a", "b"] } });
    const full = toQdrantFilter({ tenantId: "t" }, parseFilter({ key: "k", value: "v" }), [{ key: "isLatest", match: { value: true } }]);
    expect(full).toEqual({
      must: [
        { key: "tenantId", match: { value: "t" } },
        { key: "isLatest", match: { value: true } },
        { key: "_filter.v.k", match: { value: "v" } },
      ],
    });
  });

  it("an empty namespace list selects nothing and other tenants are never selected", () => {
    const payload = { tenantId: "t", namespace: "a" };
    expect(evalQdrantFilter(toQdrantFilter({ tenantId: "t", namespaces: [] }), payload)).toBe(false);
    expect(evalQdrantFilter(toQdrantFilter({ tenantId: "t", namespaces: ["a", "b"] }), payload)).toBe(true);
    expect(evalQdrantFilter(toQdrantFilter({ tenantId: "u", namespaces: ["a"] }), payload)).toBe(false);
    expect(evalQdrantFilter(toQdrantFilter({ tenantId: "t", documentId: "d" }), payload)).toBe(false);
  });
});

describe("Qdrant filter payload", () => {
  it("keeps scalars and arrays, lower-cases strings in the lc copy, reads numbers for numeric filters, lists arrays and strings", () => {
    expect(metadataFilterPayload({ s: "AbC", n: 5, ns: " 7.5 ", b: true, a: ["X", 1], o: { x: 1 }, z: null, e: "", w: "12abc" })).toEqual({
      v: { s: "AbC", n: 5, ns: " 7.5 ", b: true, a: ["X", 1], e: "", w: "12abc" },
      lc: { s: "abc", n: 5, ns: " 7.5 ", b: true, a: ["x", 1], e: "", w: "12abc" },
      n: { n: 5, ns: 7.5 },
      arrays: ["a"],
      strings: ["s", "ns", "e", "w"],
    });
    expect(metadataFilterPayload(undefined)).toEqual({ v: {}, lc: {}, n: {}, arrays: [], strings: [] });
  });

  it("stores every key under a name a key path can address, injectively", () => {
    expect(storageKey("plain_key-1")).toBe("plain_key-1");
    expect(storageKey("with.dot and space")).toBe("with.dot and space");
    expect(storageKey('q"uote')).toBe("=" + Buffer.from('q"uote').toString("hex"));
    expect(storageKey("back\\slash")).toBe("=" + Buffer.from("back\\slash").toString("hex"));
    // A key that already looks encoded is encoded too, so it cannot collide with an encoded one.
    expect(storageKey("=71")).toBe("=" + Buffer.from("=71").toString("hex"));
    for (const key of ["plain", "with.dot", "sp ace", 'q"uote', "back\\slash", "=71", "ünïcode", "a[0]"]) {
      const path = filterPayloadPath("v", key);
      expect(parseKeyPath(path)).toEqual(["_filter", "v", storageKey(key)]);
    }
  });
});

const KEYS = ["team", "Team", "n", "tags", "a.b", 'q"k', "=x", "flag", "missing"];
const STRINGS = ["red", "Red", "RED", "5", "5.0", " 5", "", "true", "TRUE", "false", "1e3", "red team", "blue", "12abc", "-3"];
const NUMBERS = [5, 5.5, -3, 0, 1000, 12, 2023];

function randomScalar(r: () => number): JsonValue {
  const x = r();
  if (x < 0.55) return STRINGS[Math.floor(r() * STRINGS.length)]!;
  if (x < 0.85) return NUMBERS[Math.floor(r() * NUMBERS.length)]!;
  return r() < 0.5;
}

function randomMetadata(r: () => number): JsonObject | undefined {
  if (r() < 0.05) return undefined;
  const m: JsonObject = {};
  for (const k of KEYS) {
    if (k === "missing" || r() < 0.3) continue;
    const x = r();
    if (x < 0.65) m[k] = randomScalar(r);
    else if (x < 0.9) m[k] = Array.from({ length: Math.floor(r() * 4) }, () => randomScalar(r));
    else if (x < 0.95) m[k] = { nested: randomScalar(r) };
    else m[k] = null;
  }
  return m;
}

function randomCondition(r: () => number): unknown {
  const filterType = ["metadata", "numeric", "array_contains", "string_contains"][Math.floor(r() * 4)]!;
  const numeric = filterType === "numeric";
  const value = numeric ? NUMBERS[Math.floor(r() * NUMBERS.length)]! : r() < 0.3 ? "re" : randomScalar(r);
  return {
    key: KEYS[Math.floor(r() * KEYS.length)]!,
    value: filterType === "string_contains" && r() < 0.5 ? ["e", "ed", "Re", "5", "", "tea"][Math.floor(r() * 6)]! : value,
    filterType,
    negate: r() < 0.25,
    ignoreCase: r() < 0.35,
    numericOperator: [">", "<", ">=", "<=", "="][Math.floor(r() * 5)]!,
  };
}

function randomFilter(r: () => number, depth: number): unknown {
  if (depth >= 3 || r() < 0.45) return randomCondition(r);
  const items = Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomFilter(r, depth + 1));
  return r() < 0.5 ? { AND: items } : { OR: items };
}

describe("Qdrant filter translation decides as matchesFilter does", () => {
  it("on 20,000 random filters and records (every kind, negate, ignoreCase, arrays, odd keys, missing keys)", () => {
    const r = rng(20251123);
    let matched = 0;
    for (let i = 0; i < 20_000; i++) {
      const filter = parseFilter(randomFilter(r, 1));
      const metadata = randomMetadata(r);
      const want = matchesFilter(filter, metadata);
      const got = qdrantMatches(filter, metadata);
      if (got !== want) throw new Error(`mismatch for ${JSON.stringify(filter)} on ${JSON.stringify(metadata)}: qdrant ${got}, matchesFilter ${want}`);
      if (want) matched++;
    }
    // Both outcomes occur often enough for the comparison to mean something.
    expect(matched).toBeGreaterThan(3000);
    expect(matched).toBeLessThan(17000);
  });

  it.each([
    ["a number equals its numeric string", { key: "n", value: "5" }, { n: 5 }, true],
    ["a numeric string does not equal another spelling", { key: "n", value: "5.0" }, { n: "5" }, false],
    ["a number equals another spelling of it", { key: "n", value: "5.0" }, { n: 5 }, true],
    ["case matters without ignoreCase", { key: "team", value: "red" }, { team: "Red" }, false],
    ["ignoreCase folds both sides", { key: "team", value: "rED", ignoreCase: true }, { team: "Red" }, true],
    ["a boolean equals its string form", { key: "flag", value: "true" }, { flag: true }, true],
    ["a boolean with ignoreCase", { key: "flag", value: "TRUE", ignoreCase: true }, { flag: true }, true],
    ["equality looks into arrays", { key: "tags", value: "ai" }, { tags: ["ml", "ai"] }, true],
    ["array_contains needs an array", { key: "tags", value: "ai", filterType: "array_contains" }, { tags: "ai" }, false],
    ["array_contains finds a number element", { key: "tags", value: "7", filterType: "array_contains" }, { tags: ["x", 7] }, true],
    ["numeric reads a numeric string", { key: "n", value: "4", filterType: "numeric", numericOperator: ">" }, { n: "5" }, true],
    ["numeric ignores arrays", { key: "n", value: "4", filterType: "numeric", numericOperator: ">" }, { n: [5] }, false],
    ["numeric ignores blank strings", { key: "n", value: "-1", filterType: "numeric", numericOperator: ">" }, { n: " " }, false],
    ["string_contains is a substring test", { key: "t", value: "ell", filterType: "string_contains" }, { t: "hello" }, true],
    ["string_contains ignores arrays", { key: "t", value: "ell", filterType: "string_contains" }, { t: ["hello"] }, false],
    ["string_contains ignores numbers", { key: "t", value: "2", filterType: "string_contains" }, { t: 123 }, false],
    ["string_contains with ignoreCase", { key: "t", value: "ELL", filterType: "string_contains", ignoreCase: true }, { t: "hEllo" }, true],
    ["a missing key never matches", { key: "x", value: "1" }, {}, false],
    ["a missing key matches when negated", { key: "x", value: "1", negate: true }, {}, true],
    ["no metadata at all, negated", { key: "x", value: "1", filterType: "numeric", negate: true }, undefined, true],
    ["a key with dots", { key: "a.b", value: "1" }, { "a.b": "1" }, true],
    ["a key with a quote", { key: 'q"k', value: "v" }, { 'q"k': "v" }, true],
    ["a nested object never matches", { key: "o", value: "1" }, { o: { x: "1" } }, false],
  ] as const)("%s", (_name, condition, metadata, expected) => {
    const filter = parseFilter(condition);
    expect(matchesFilter(filter, metadata as JsonObject | undefined)).toBe(expected);
    expect(qdrantMatches(filter, metadata as JsonObject | undefined)).toBe(expected);
  });
});
