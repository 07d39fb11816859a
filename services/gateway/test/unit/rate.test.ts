import { CachedUsage, withinQuota } from "../../src/guards/quota";
import { bucketRule, retryAfterSeconds, takeToken, windowOf } from "../../src/guards/rate";

describe("takeToken (token bucket as GCRA, fake clock)", () => {
  it("allows the burst at once, then one per interval, and says when to retry", () => {
    const rule = bucketRule(2, 3); // a token every 500 ms, 3 at once
    let tat: number | undefined;
    const t = 10_000;
    const take = (now: number) => {
      const d = takeToken(tat, now, rule);
      tat = d.tat;
      return d;
    };
    expect([take(t), take(t), take(t)].map((d) => d.allowed)).toEqual([true, true, true]);
    const refused = take(t);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 500 });
    expect(take(t + 499).allowed).toBe(false);
    expect(take(t + 500).allowed).toBe(true);
    expect(take(t + 500).allowed).toBe(false);
    // Idle long enough: full again, never more than the burst.
    expect([take(t + 60_000), take(t + 60_000), take(t + 60_000), take(t + 60_000)].map((d) => d.allowed)).toEqual([true, true, true, false]);
  });

  it("a steady rate at the limit is always allowed", () => {
    const rule = bucketRule(10, 1);
    let tat: number | undefined;
    for (let i = 0; i < 100; i++) {
      const d = takeToken(tat, 5000 + i * 100, rule);
      expect(d.allowed).toBe(true);
      tat = d.tat;
    }
  });
});

describe("windowOf / retryAfterSeconds", () => {
  it("aligns fixed windows and rounds Retry-After up to whole seconds", () => {
    expect(windowOf(125_500, 60_000)).toEqual({ start: 120_000, endsInMs: 54_500 });
    expect(retryAfterSeconds(54_500)).toBe(55);
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(0)).toBe(1);
  });
});

describe("quotas", () => {
  it("withinQuota: 0 is unlimited", () => {
    expect(withinQuota(9, 1, 10)).toBe(true);
    expect(withinQuota(10, 1, 10)).toBe(false);
    expect(withinQuota(5, 6, 10)).toBe(false);
    expect(withinQuota(1e9, 1, 0)).toBe(true);
  });

  it("CachedUsage reuses a count for its lifetime and adds the writes it admitted", async () => {
    let asked = 0;
    const usage = new CachedUsage({ documents: async () => (asked++, 7), memories: async () => 0 }, 1000);
    expect(await usage.used("documents", "acme", 0)).toBe(7);
    usage.admit("documents", "acme", 2);
    expect(await usage.used("documents", "acme", 999)).toBe(9);
    expect(asked).toBe(1);
    expect(await usage.used("documents", "acme", 1000)).toBe(7);
    expect(asked).toBe(2);
    expect(await usage.used("documents", "beta", 1000)).toBe(7);
  });
});
