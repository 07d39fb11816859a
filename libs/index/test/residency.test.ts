import { PartitionBudget, partitionBudget } from "../src/residency";

/** A partition of a given size that records its evictions. */
function resident(sizes: Map<string, number>, evicted: string[], id: string) {
  return { measure: () => sizes.get(id)!, evict: () => evicted.push(id) };
}

describe("PartitionBudget", () => {
  let t = 0;
  const clock = () => t;
  beforeEach(() => (t = 0));

  it("drops the least recently used partitions until the total fits, never those of the current operation", () => {
    const sizes = new Map([
      ["a", 40],
      ["b", 40],
      ["c", 40],
    ]);
    const evicted: string[] = [];
    const budget = new PartitionBudget(100, 1_000, clock);
    budget.use("a", resident(sizes, evicted, "a"));
    budget.use("b", resident(sizes, evicted, "b"));
    expect(budget.enforce(["b"])).toEqual([]);
    budget.use("a", resident(sizes, evicted, "a")); // a is now more recent than b
    budget.use("c", resident(sizes, evicted, "c"));
    expect(budget.enforce(["c"])).toEqual(["b"]);
    expect(evicted).toEqual(["b"]);
    expect(budget.stats()).toEqual({ limitBytes: 100, usedBytes: 80, partitions: 2, evictions: 1 });
    // One operation over more than the budget keeps all of its partitions (the budget is soft).
    sizes.set("b", 40);
    budget.use("b", resident(sizes, evicted, "b"));
    expect(budget.enforce(["a", "b", "c"])).toEqual([]);
    expect(budget.hasRoom()).toBe(false);
    // The next operation over one of them drops the oldest others until the total fits.
    expect(budget.enforce(["b"])).toEqual(["a"]);
    expect(budget.hasRoom()).toBe(true);
  });

  it("re-measures a partition in use at most once per interval, and forgets what its store dropped itself", () => {
    const sizes = new Map([["a", 10]]);
    const evicted: string[] = [];
    const budget = new PartitionBudget(100, 1_000, clock);
    budget.use("a", resident(sizes, evicted, "a"));
    sizes.set("a", 500);
    t = 500;
    budget.use("a", resident(sizes, evicted, "a"));
    expect(budget.stats().usedBytes).toBe(10);
    t = 1_000;
    budget.use("a", resident(sizes, evicted, "a"));
    expect(budget.stats().usedBytes).toBe(500);
    budget.forget("a");
    expect(budget.stats()).toMatchObject({ usedBytes: 0, partitions: 0 });
    expect(budget.enforce()).toEqual([]);
    expect(evicted).toEqual([]);
  });

  it("without a limit keeps everything and still reports sizes", () => {
    const budget = partitionBudget(0);
    const evicted: string[] = [];
    for (let i = 0; i < 10; i++) budget.use(`p${i}`, { measure: () => 1e9, evict: () => evicted.push(`p${i}`) });
    expect(budget.enforce()).toEqual([]);
    expect(budget.hasRoom()).toBe(true);
    expect(budget.stats()).toMatchObject({ limitBytes: 0, usedBytes: 1e10, partitions: 10 });
    expect(() => new PartitionBudget(-1)).toThrow(/memory budget/);
  });
});
