import { ListingCursors, listingKey, mongoKeysetAfter } from "../src/listing-cursors";

describe("ListingCursors", () => {
  it("remembers where a page ended for the next page of the same listing only", () => {
    const c = new ListingCursors<string>();
    const a = listingKey(["t1", { team: "red" }, "asc", 10]);
    const b = listingKey(["t1", { team: "red" }, "desc", 10]);
    c.rememberPosition(a, 10, "k10");
    expect(c.position(a, 10)).toBe("k10");
    expect(c.position(a, 20)).toBeUndefined();
    expect(c.position(b, 10)).toBeUndefined();
    // A first page always starts at the beginning.
    expect(c.position(a, 0)).toBeUndefined();
  });

  it("reports a listing's count to its later pages, never to a first page (which counts again)", () => {
    const c = new ListingCursors<string>();
    c.rememberTotal("L", 42);
    expect(c.total("L", 10)).toBe(42);
    expect(c.total("L", 0)).toBeUndefined();
    expect(c.total("other", 10)).toBeUndefined();
  });

  it("forgets entries after the time to live, and the least recently used beyond the bound", () => {
    let now = 0;
    const c = new ListingCursors<number>({ ttlMs: 1000, maxEntries: 2, now: () => now });
    c.rememberPosition("L", 5, 1);
    c.rememberTotal("L", 9);
    now = 1001;
    expect(c.position("L", 5)).toBeUndefined();
    expect(c.total("L", 5)).toBeUndefined();
    now = 0;
    c.rememberPosition("A", 5, 1);
    c.rememberPosition("B", 5, 2);
    expect(c.position("A", 5)).toBe(1); // A is now the most recently used
    c.rememberPosition("C", 5, 3);
    expect(c.position("B", 5)).toBeUndefined();
    expect(c.position("A", 5)).toBe(1);
    expect(c.position("C", 5)).toBe(3);
  });
});

describe("mongoKeysetAfter", () => {
  it("selects a later sort key, or the same key with a later id, in the sort's direction", () => {
    expect(mongoKeysetAfter("createdAt", 1, { value: "2024", id: "d_1" })).toEqual({
      $or: [{ createdAt: { $gt: "2024" } }, { createdAt: "2024", _id: { $gt: "d_1" } }],
    });
    expect(mongoKeysetAfter("updatedAt", -1, { value: "2024", id: "d_1" })).toEqual({
      $or: [{ updatedAt: { $lt: "2024" } }, { updatedAt: "2024", _id: { $lt: "d_1" } }],
    });
  });
});
