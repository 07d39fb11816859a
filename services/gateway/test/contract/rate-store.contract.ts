import { bucketRule, type RateStore } from "../../src/guards/rate";

/** The behaviour every RateStore adapter shares. `open` is called once per test and must return an empty store. */
export function rateStoreContract(open: () => Promise<{ store: RateStore; close(): Promise<void> }>): void {
  let h: { store: RateStore; close(): Promise<void> };
  beforeEach(async () => {
    h = await open();
  });
  afterEach(async () => {
    await h.close();
  });

  it("a bucket allows its burst at once, then one request per interval", async () => {
    const rule = bucketRule(10, 3); // 100 ms a token, 3 at once
    const t = 1_000_000;
    const first = await Promise.all([0, 1, 2, 3].map(() => h.store.take("k", t, rule)));
    expect(first.filter((d) => d.allowed)).toHaveLength(3);
    const refused = first.find((d) => !d.allowed)!;
    expect(refused.retryAfterMs).toBeCloseTo(100, 5);
    expect((await h.store.take("k", t + 50, rule)).allowed).toBe(false);
    expect((await h.store.take("k", t + 100, rule)).allowed).toBe(true);
    expect((await h.store.take("other", t, rule)).allowed).toBe(true);
  });

  it("fixed-window counters count per name and window", async () => {
    expect(await h.store.count("a", 60_000)).toBe(0);
    const counts = await Promise.all([1, 2, 3, 4, 5].map(() => h.store.increment("a", 60_000, 60_000)));
    expect([...counts].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(await h.store.count("a", 60_000)).toBe(5);
    expect(await h.store.count("a", 120_000)).toBe(0);
    expect(await h.store.count("b", 60_000)).toBe(0);
  });
}
