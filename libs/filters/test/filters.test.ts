import { InvalidArgumentError } from "@engram/kernel";
import { filterKeys, matchesFilter, parseFilter } from "../src";

const meta = { type: "note", tags: ["work", "Urgent"], priority: 3, score: "7.5", title: "Quarterly Report", done: false };

describe("parseFilter", () => {
  it("normalises defaults and string flags", () => {
    expect(parseFilter({ AND: [{ key: "type", value: "note", negate: "true" }] })).toEqual({
      AND: [{ filterType: "metadata", key: "type", value: "note", negate: true, ignoreCase: false, numericOperator: "=" }],
    });
  });

  it.each([
    [[], /must be an object/],
    [{ AND: [] }, /non-empty array/],
    [{ AND: [{ key: "a" }] }, /value/],
    [{ AND: [{ key: "a", value: "x", filterType: "regex" }] }, /filterType/],
    [{ AND: [{ key: "a", value: "x", extra: 1 }] }, /extra/],
    [{ AND: [{ key: "a", value: "abc", filterType: "numeric" }] }, /must be a number/],
    [{ AND: [{ key: "a", value: "1" }], OR: [] }, /only key/],
  ])("rejects %j", (input, detail) => {
    let err: unknown;
    try {
      parseFilter(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(`${(err as InvalidArgumentError).message} ${(err as InvalidArgumentError).details}`).toMatch(detail);
  });

  it("limits nesting to five levels", () => {
    const leaf = { key: "a", value: "1" };
    const nest = (n: number): unknown => (n === 0 ? leaf : { AND: [nest(n - 1)] });
    expect(() => parseFilter(nest(4))).not.toThrow();
    expect(() => parseFilter(nest(5))).toThrow(/nested too deeply/);
  });
});

describe("matchesFilter", () => {
  const m = (f: unknown) => matchesFilter(parseFilter(f), meta);

  it("matches metadata equality, with ignoreCase and negate", () => {
    expect(m({ AND: [{ key: "type", value: "note" }] })).toBe(true);
    expect(m({ AND: [{ key: "type", value: "NOTE" }] })).toBe(false);
    expect(m({ AND: [{ key: "type", value: "NOTE", ignoreCase: true }] })).toBe(true);
    expect(m({ AND: [{ key: "type", value: "note", negate: true }] })).toBe(false);
    expect(m({ AND: [{ key: "missing", value: "x", negate: true }] })).toBe(true);
    expect(m({ AND: [{ key: "done", value: "false" }] })).toBe(true);
    expect(m({ AND: [{ key: "priority", value: "3" }] })).toBe(true);
  });

  it("compares numbers", () => {
    expect(m({ AND: [{ key: "priority", value: "2", filterType: "numeric", numericOperator: ">" }] })).toBe(true);
    expect(m({ AND: [{ key: "priority", value: "3", filterType: "numeric", numericOperator: "<" }] })).toBe(false);
    expect(m({ AND: [{ key: "score", value: "7.5", filterType: "numeric", numericOperator: ">=" }] })).toBe(true);
    expect(m({ AND: [{ key: "type", value: "1", filterType: "numeric", numericOperator: "<" }] })).toBe(false);
  });

  it("checks array membership and substrings", () => {
    expect(m({ AND: [{ key: "tags", value: "work", filterType: "array_contains" }] })).toBe(true);
    expect(m({ AND: [{ key: "tags", value: "urgent", filterType: "array_contains" }] })).toBe(false);
    expect(m({ AND: [{ key: "tags", value: "urgent", filterType: "array_contains", ignoreCase: true }] })).toBe(true);
    expect(m({ AND: [{ key: "type", value: "no", filterType: "array_contains" }] })).toBe(false);
    expect(m({ AND: [{ key: "title", value: "report", filterType: "string_contains", ignoreCase: true }] })).toBe(true);
    expect(m({ AND: [{ key: "title", value: "report", filterType: "string_contains" }] })).toBe(false);
  });

  it("combines nested AND / OR", () => {
    const f = {
      OR: [
        {
          AND: [
            { key: "type", value: "memo" },
            { key: "priority", value: "3" },
          ],
        },
        {
          AND: [
            { key: "tags", value: "work", filterType: "array_contains" },
            {
              OR: [
                { key: "done", value: "true" },
                { key: "priority", value: "1", filterType: "numeric", numericOperator: ">" },
              ],
            },
          ],
        },
      ],
    };
    expect(m(f)).toBe(true);
    expect(matchesFilter(parseFilter(f), { ...meta, priority: 0 })).toBe(false);
    expect(filterKeys(parseFilter(f)).sort()).toEqual(["done", "priority", "tags", "type"]);
  });
});
