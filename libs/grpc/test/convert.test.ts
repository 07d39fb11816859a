import type { JsonObject } from "@engram/kernel";
import { fromProtoValue, fromStruct, fromTimestamp, toProtoValue, toStruct, toTimestamp } from "../src/convert";

const nested: JsonObject = {
  title: "Quarterly report",
  count: 42,
  ratio: -0.125,
  zero: 0,
  published: true,
  draft: false,
  reviewer: null,
  empty: "",
  tags: ["a", "b", 3, false, null],
  matrix: [
    [1, 2],
    [3, [4, { deep: "yes" }]],
  ],
  author: { name: "Ada", address: { city: "London", zip: null, lines: [] }, active: true },
  emptyObject: {},
};

describe("toStruct / fromStruct", () => {
  it("round-trips nested JSON", () => {
    expect(fromStruct(toStruct(nested))).toEqual(nested);
  });

  it("produces the proto Value shapes", () => {
    const s = toStruct({ s: "x", n: 1, b: true, z: null, l: ["y"], o: { k: 2 } })!;
    expect(s.fields).toEqual({
      s: { stringValue: "x" },
      n: { numberValue: 1 },
      b: { boolValue: true },
      z: { nullValue: "NULL_VALUE" },
      l: { listValue: { values: [{ stringValue: "y" }] } },
      o: { structValue: { fields: { k: { numberValue: 2 } } } },
    });
  });

  it("reads proto-loader output that names the set field in `kind`", () => {
    const decoded = {
      fields: {
        s: { kind: "stringValue", stringValue: "x", numberValue: 0, boolValue: false },
        n: { kind: "numberValue", numberValue: 0, stringValue: "" },
        b: { kind: "boolValue", boolValue: false, stringValue: "" },
        z: { kind: "nullValue", nullValue: "NULL_VALUE", stringValue: "" },
        l: { kind: "listValue", listValue: { values: [{ kind: "stringValue", stringValue: "y" }] } },
      },
    };
    expect(fromStruct(decoded as never)).toEqual({ s: "x", n: 0, b: false, z: null, l: ["y"] });
  });

  it("keeps an absent struct distinct from an empty one", () => {
    expect(toStruct(undefined)).toBeNull();
    expect(toStruct(null)).toBeNull();
    expect(fromStruct(undefined)).toBeUndefined();
    expect(fromStruct(null)).toBeUndefined();
    expect(fromStruct(toStruct({}))).toEqual({});
  });

  it("converts single values", () => {
    expect(fromProtoValue(toProtoValue("s"))).toBe("s");
    expect(fromProtoValue(toProtoValue(1.5))).toBe(1.5);
    expect(fromProtoValue(toProtoValue(false))).toBe(false);
    expect(fromProtoValue(toProtoValue(null))).toBeNull();
    expect(fromProtoValue(undefined)).toBeNull();
  });
});

describe("toTimestamp / fromTimestamp", () => {
  it("round-trips a date with milliseconds", () => {
    const d = new Date("2024-05-06T07:08:09.123Z");
    const t = toTimestamp(d)!;
    expect(t).toEqual({ seconds: Math.floor(d.getTime() / 1000), nanos: 123_000_000 });
    expect(fromTimestamp(t)!.toISOString()).toBe(d.toISOString());
  });

  it("accepts ISO strings", () => {
    expect(fromTimestamp(toTimestamp("2020-01-01T00:00:00.500Z"))!.toISOString()).toBe("2020-01-01T00:00:00.500Z");
  });

  it("keeps nanos in [0, 1e9) for dates before 1970 and still round-trips", () => {
    const d = new Date("1969-12-31T23:59:58.500Z");
    const t = toTimestamp(d)!;
    expect(t.nanos).toBeGreaterThanOrEqual(0);
    expect(t.nanos).toBeLessThan(1e9);
    expect(fromTimestamp(t)!.toISOString()).toBe(d.toISOString());
  });

  it("treats absent values as unset", () => {
    expect(toTimestamp(undefined)).toBeNull();
    expect(toTimestamp(null)).toBeNull();
    expect(fromTimestamp(undefined)).toBeUndefined();
    expect(fromTimestamp(null)).toBeUndefined();
    expect(fromTimestamp({})).toBeUndefined();
  });

  it("reads numeric seconds and truncates sub-millisecond nanos", () => {
    expect(fromTimestamp({ seconds: 1, nanos: 2_999_999 })!.getTime()).toBe(1002);
  });
});
