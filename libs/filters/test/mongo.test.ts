import { prng } from "@engram/testing";
import type { JsonObject, JsonValue } from "@engram/kernel";
import { Query } from "mingo";
import { escapeRegex, type FilterCondition, type FilterExpr, filterToMongo, matchesFilter, metadataEntries, metadataFromEntries, parseFilter } from "../src";

/**
 * The MongoDB translation is checked here against mingo, a JavaScript
 * implementation of MongoDB's query language: every translated filter must
 * select exactly the records `matchesFilter` accepts. The adapters' contract
 * suites check the same against a real server.
 */
const selects = (f: FilterExpr, metadata: JsonObject | undefined) =>
  new Query(filterToMongo(f)).test(metadata === undefined ? { _id: 1 } : { _id: 1, meta: metadataEntries(metadata) });

const cond = (c: Partial<FilterCondition> & { key: string; value: string }): FilterCondition => ({
  filterType: "metadata",
  negate: false,
  ignoreCase: false,
  numericOperator: "=",
  ...c,
});

describe("metadataEntries / metadataFromEntries", () => {
  it("round-trips metadata, key order included, and tells none from empty", () => {
    const m: JsonObject = {
      b: "x",
      a: 1.5,
      "dotted.key": true,
      $dollar: null,
      list: ["A", 2, false, null],
      mixed: ["s", { o: 1 }, [1]],
      obj: { nested: { $x: [1, "y"] } },
      zero: -0,
    };
    const back = metadataFromEntries(metadataEntries(m));
    expect(JSON.stringify(back)).toBe(JSON.stringify(m));
    expect(Object.is(back!.zero, -0)).toBe(true);
    expect(metadataFromEntries(metadataEntries({}))).toEqual({});
    expect(metadataFromEntries(undefined)).toBeUndefined();
    // A "__proto__" key stays an own property.
    const proto = JSON.parse('{"__proto__": "p"}') as JsonObject;
    expect(Object.keys(metadataFromEntries(metadataEntries(proto))!)).toEqual(["__proto__"]);
  });

  it("stores what each filter kind compares", () => {
    expect(metadataEntries({ s: "Ab 5", n: " 42 ", x: 7, t: ["Q", 3], o: { a: 1 } })).toEqual([
      { k: "s", a: false, v: "Ab 5", l: "ab 5" },
      { k: "n", a: false, v: " 42 ", l: " 42 ", n: 42 },
      { k: "x", a: false, v: 7, n: 7 },
      { k: "t", a: true, v: ["Q", 3], l: ["q"] },
      { k: "o", a: false, j: '{"a":1}' },
    ]);
  });
});

describe("escapeRegex", () => {
  it("matches the literal text only", () => {
    for (const s of ["a.b", "(x)", "[a-z]+", "^$", "a|b", "c:\\dir", "1+1=2?", "{2}", "a/b", "*", "tab\there"]) {
      const re = new RegExp(escapeRegex(s));
      expect(re.test(`pre ${s} post`)).toBe(true);
      expect(re.test(s.replace(/./g, "x"))).toBe(s.replace(/./g, "x") === s);
    }
    expect(escapeRegex("a\0b")).toBe("a\\x00b");
    expect(new RegExp(escapeRegex("a\0b")).test("xa\0by")).toBe(true);
  });
});

describe("filterToMongo", () => {
  const doc: JsonObject = { type: "Note", tags: ["work", "Urgent", 7], priority: 3, score: "7.5", title: "Quarterly Report (Q3)", done: false, obj: { a: 1 } };

  it.each<[string, FilterCondition, boolean]>([
    ["exact string", cond({ key: "type", value: "Note" }), true],
    ["case differs", cond({ key: "type", value: "note" }), false],
    ["ignoreCase", cond({ key: "type", value: "NOTE", ignoreCase: true }), true],
    ["metadata on an array element", cond({ key: "tags", value: "work" }), true],
    ["number equals a numeric value", cond({ key: "priority", value: "3" }), true],
    ["number vs a non-numeric value", cond({ key: "priority", value: "three" }), false],
    ["numeric string compared as text", cond({ key: "score", value: "7.50" }), false],
    ["boolean", cond({ key: "done", value: "false" }), true],
    ["boolean, ignoreCase", cond({ key: "done", value: "FALSE", ignoreCase: true }), true],
    ["an object never equals", cond({ key: "obj", value: '{"a":1}' }), false],
    ["missing key", cond({ key: "nope", value: "x" }), false],
    ["negated missing key", cond({ key: "nope", value: "x", negate: true }), true],
    ["array_contains", cond({ filterType: "array_contains", key: "tags", value: "urgent", ignoreCase: true }), true],
    ["array_contains a number", cond({ filterType: "array_contains", key: "tags", value: "7" }), true],
    ["array_contains on a scalar", cond({ filterType: "array_contains", key: "type", value: "Note" }), false],
    ["string_contains", cond({ filterType: "string_contains", key: "title", value: "(Q3)" }), true],
    ["string_contains ignoreCase", cond({ filterType: "string_contains", key: "title", value: "quarterly", ignoreCase: true }), true],
    ["string_contains on an array", cond({ filterType: "string_contains", key: "tags", value: "work" }), false],
    ["string_contains on a number", cond({ filterType: "string_contains", key: "priority", value: "3" }), false],
    ["numeric >= on a number", cond({ filterType: "numeric", key: "priority", value: "3", numericOperator: ">=" }), true],
    ["numeric < on a numeric string", cond({ filterType: "numeric", key: "score", value: "8", numericOperator: "<" }), true],
    ["numeric on a text", cond({ filterType: "numeric", key: "type", value: "0", numericOperator: ">" }), false],
    ["numeric on an array", cond({ filterType: "numeric", key: "tags", value: "0", numericOperator: ">" }), false],
    ["negated numeric", cond({ filterType: "numeric", key: "priority", value: "5", numericOperator: ">", negate: true }), true],
  ])("%s", (_label, c, expected) => {
    expect(matchesFilter(c, doc)).toBe(expected);
    expect(selects(c, doc)).toBe(expected);
  });

  it("combines AND / OR", () => {
    const f = parseFilter({
      OR: [
        {
          AND: [
            { key: "type", value: "note", ignoreCase: true },
            { filterType: "numeric", key: "priority", value: 2, numericOperator: ">" },
          ],
        },
        { key: "missing", value: "x" },
      ],
    });
    expect(selects(f, doc)).toBe(true);
    expect(selects(f, { ...doc, priority: 1 })).toBe(false);
    expect(selects(f, undefined)).toBe(false);
  });

  it("selects exactly what matchesFilter accepts, for thousands of random records and filters", () => {
    // Seeded (mulberry32), so a failure reproduces.
    const rand = prng(20261123);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const strings = [
      "5",
      " 5 ",
      "5.0",
      "0x10",
      "16",
      "1e2",
      "",
      " ",
      "true",
      "TRUE",
      "False",
      "abc",
      "aBc",
      "ABC",
      "a.b",
      "(x)",
      "ß",
      "İstanbul",
      "straße",
      "-0",
      "Infinity",
      "NaN",
    ];
    const numbers = [5, 0, -0, 1.5, 16, 100, -3, 1e21];
    const keys = ["a", "c.d", "$e"];
    const scalar = (): JsonValue => {
      const r = rand();
      return r < 0.5 ? pick(strings) : r < 0.8 ? pick(numbers) : r < 0.95 ? rand() < 0.5 : null;
    };
    const value = (): JsonValue => {
      const r = rand();
      if (r < 0.6) return scalar();
      if (r < 0.9) return Array.from({ length: Math.floor(rand() * 4) }, scalar);
      if (r < 0.95) return { x: scalar() };
      return [scalar(), { y: 1 }];
    };
    const metadata = (): JsonObject | undefined => {
      if (rand() < 0.05) return undefined;
      const m: JsonObject = {};
      for (const k of keys) if (rand() < 0.6) m[k] = value();
      return m;
    };
    const condition = (): FilterCondition => {
      const filterType = pick(["metadata", "numeric", "array_contains", "string_contains"] as const);
      const v =
        filterType === "numeric"
          ? String(pick([...numbers, 4.9, "5", " 7 ", ""]))
          : rand() < 0.8
            ? String(pick([...strings, ...numbers, true, false]))
            : pick(strings).slice(1);
      return cond({
        filterType,
        key: pick(keys),
        value: v,
        negate: rand() < 0.25,
        ignoreCase: rand() < 0.4,
        numericOperator: pick([">", "<", ">=", "<=", "="] as const),
      });
    };
    const expr = (depth: number): FilterExpr => {
      if (depth >= 3 || rand() < 0.5) return condition();
      const items = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => expr(depth + 1));
      return rand() < 0.5 ? { AND: items } : { OR: items };
    };
    let matched = 0;
    for (let i = 0; i < 2500; i++) {
      const m = metadata();
      const f = expr(0);
      const want = matchesFilter(f, m);
      const got = selects(f, m);
      if (got !== want)
        throw new Error(`mismatch (want ${want}) for metadata ${JSON.stringify(m)} and filter ${JSON.stringify(f)}: ${JSON.stringify(filterToMongo(f))}`);
      if (want) matched++;
    }
    // Both outcomes occur often enough for the comparison to mean something.
    expect(matched).toBeGreaterThan(500);
    expect(matched).toBeLessThan(2000);
  });
});
