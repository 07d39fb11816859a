import { mapLimit } from "../src/concurrency";

describe("mapLimit", () => {
  it("keeps at most `limit` calls in flight and returns results in item order", async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapLimit([5, 1, 4, 2, 3, 1, 2], 3, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, n * 3));
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 10, 20]);
    expect(peak).toBe(3);
  });

  it("starts nothing new once stopped", async () => {
    const signal = { stopped: false };
    const started: number[] = [];
    const out = await mapLimit(
      [0, 1, 2, 3, 4, 5],
      2,
      async (n) => {
        started.push(n);
        if (n === 1) signal.stopped = true;
        return n;
      },
      signal,
    );
    expect(started.length).toBeLessThanOrEqual(3);
    expect(out.slice(3)).toEqual([undefined, undefined, undefined]);
  });

  it("rejects with the first error after the calls in flight settle", async () => {
    await expect(mapLimit([1, 2, 3], 2, async (n) => (n === 2 ? Promise.reject(new Error("two")) : n))).rejects.toThrow("two");
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
  });
});
