import { ContentBudget, contentBudget, contentBytes, fitContent } from "../src/content-budget";

describe("content budget of an answer (issue #33)", () => {
  it("measures content in UTF-8 bytes, as the answer carries it", () => {
    expect(contentBytes("")).toBe(0);
    expect(contentBytes("abc")).toBe(3);
    expect(contentBytes("é")).toBe(2);
    expect(contentBytes("多")).toBe(3);
    expect(contentBytes("🙂")).toBe(4);
  });

  it("takes documents in page order while their whole content fits, and skips one that does not", () => {
    expect(fitContent([10, 20, 30], 60)).toEqual({ keep: [true, true, true], usedBytes: 60, omitted: 0 });
    expect(fitContent([10, 20, 31], 60)).toEqual({ keep: [true, true, false], usedBytes: 30, omitted: 1 });
    // A large document left out does not stop smaller later ones.
    expect(fitContent([50, 40, 5, 5], 60)).toEqual({ keep: [true, false, true, true], usedBytes: 60, omitted: 1 });
    // A single document larger than the whole budget is left out, never cut.
    expect(fitContent([100], 60)).toEqual({ keep: [false], usedBytes: 0, omitted: 1 });
    // Empty contents always "fit", even with nothing left.
    expect(fitContent([60, 0, 1], 60)).toEqual({ keep: [true, true, false], usedBytes: 60, omitted: 1 });
    expect(fitContent([], 60)).toEqual({ keep: [], usedBytes: 0, omitted: 0 });
    expect(fitContent([1, 0], 0)).toEqual({ keep: [false, true], usedBytes: 0, omitted: 1 });
    expect(fitContent([Number.POSITIVE_INFINITY, 3], 10)).toEqual({ keep: [false, true], usedBytes: 3, omitted: 1 });
  });

  it("keeps 20 documents of 5 MB within a 32 MiB budget: the first six carry their content", () => {
    const fit = fitContent(
      Array.from({ length: 20 }, () => 5_000_000),
      32 * 1024 * 1024,
    );
    expect(fit.keep.filter(Boolean)).toHaveLength(6);
    expect(fit.keep.slice(0, 6).every(Boolean)).toBe(true);
    expect(fit.usedBytes).toBeLessThanOrEqual(32 * 1024 * 1024);
    expect(fit.omitted).toBe(14);
  });

  it("is spent one document at a time, a refused one leaving it as it was", () => {
    const b = new ContentBudget(10);
    expect([b.take(4), b.take(7), b.take(6), b.take(0), b.take(1)]).toEqual([true, false, true, true, false]);
    expect(b.usedBytes).toBe(10);
    expect(b.omitted).toBe(2);
    expect(b.maxBytes).toBe(10);
    expect(() => new ContentBudget(-5)).toThrow(RangeError);
  });

  it("refuses a budget that is not a non-negative number", () => {
    expect(() => fitContent([1], -1)).toThrow(RangeError);
    expect(() => fitContent([1], Number.NaN)).toThrow(RangeError);
  });

  it("lets the caller lower the service's cap, never raise it", () => {
    expect(contentBudget(1000, undefined)).toBe(1000);
    expect(contentBudget(1000, 0)).toBe(1000);
    expect(contentBudget(1000, 10)).toBe(10);
    expect(contentBudget(1000, 5000)).toBe(1000);
  });
});
