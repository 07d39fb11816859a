import { fuse } from "../src/scoring";

describe("fuse", () => {
  const keyword = new Map([
    [1, 9.0],
    [2, 5.0],
    [3, 1.0],
  ]);
  const dense = new Map([
    [3, 0.95],
    [2, 0.9],
    [4, 0.8],
    [1, 0.1],
  ]);

  it("lets dense evidence reorder close keyword results at the default weight, not at weight 0", () => {
    const kw = new Map([
      [1, 9.0],
      [2, 8.0],
    ]);
    const dn = new Map([[2, 0.9]]);
    expect(fuse(kw, dn).map((x) => x.rid)).toEqual([2, 1]);
    expect(fuse(kw, dn, 0).map((x) => x.rid)).toEqual([1, 2]);
  });

  it("ranks by keywords alone with dense weight 0, keeping dense-only candidates last", () => {
    const ids = fuse(keyword, dense, 0).map((x) => x.rid);
    expect(ids.slice(0, 3)).toEqual([1, 2, 3]);
    expect(ids).toContain(4);
    expect(ids.at(-1)).toBe(4);
  });

  it("drops dense-only candidates below the minimum similarity", () => {
    expect(fuse(new Map(), new Map([[7, 0.1]]))).toEqual([]);
  });
});
