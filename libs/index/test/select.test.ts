import { medianInPlace } from "../src/engine/select";
import { prng } from "@engram/testing";

/** The median as a sort finds it. */
function sorted(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? 0 : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

describe("medianInPlace", () => {
  it("equals the median a sort finds, for odd and even counts, ties, sorted and reversed input", () => {
    const rand = prng(5);
    const cases: number[][] = [
      [],
      [0.3],
      [0.3, -0.1],
      [1, 1, 1, 1],
      [2, 1, 2, 1, 2],
      Array.from({ length: 100 }, (_, i) => i),
      Array.from({ length: 101 }, (_, i) => -i),
    ];
    for (let n = 1; n <= 300; n++) cases.push(Array.from({ length: n }, () => (rand() < 0.3 ? Math.round(rand() * 5) / 5 : rand() * 2 - 1)));
    for (const xs of cases) expect(medianInPlace(Float64Array.from(xs))).toBe(sorted(xs));
  });
});
