import fs from "node:fs";
import { PartitionBudget, SearchEngine } from "@engram/index";
import { CreateMemoriesUseCase } from "../../src/app/create-memories.usecase";
import { UpdateMemoryUseCase } from "../../src/app/update-memory.usecase";
import { SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import { mutex, NoBuckets, tempDir, TestClock, WordClassifier, writerFor } from "./helpers";

const T = "acme";
const ANIMALS = ["walrus", "heron", "otter", "badger", "lynx"];

/** The embedded memory store within a memory budget (INDEX_MEMORY_BUDGET_MB): partitions dropped and read back, answers unchanged. */
describe("memory store within a memory budget", () => {
  let dir: string;
  let store: SqliteMemoryStore;
  let budget: PartitionBudget;
  const clock = new TestClock();

  const open = () => new SqliteMemoryStore(dir, { engine: (load) => new SearchEngine({ load }), vectors: false, budget });
  const useCases = () => {
    const lock = mutex();
    const writer = writerFor(store);
    return {
      create: new CreateMemoriesUseCase({ repo: store, writer, classifier: new WordClassifier(), buckets: new NoBuckets(), clock, lock }),
      update: new UpdateMemoryUseCase({ repo: store, writer, clock, lock }),
    };
  };
  const search = (ns: string, text: string) =>
    store.search({ tenantId: T, namespaces: [ns], text, limit: 10, now: clock.now().toISOString() }).then((hits) => hits.map((h) => h.memory.content));
  const listed = (namespaces?: string[]) =>
    store
      .list({ tenantId: T, ...(namespaces ? { namespaces } : {}), sort: "createdAt", order: "asc", offset: 0, limit: 100, now: clock.now().toISOString() })
      .then((r) => r.items.map((m) => m.content).sort());

  beforeEach(() => {
    dir = tempDir();
    budget = new PartitionBudget(1); // one byte: only the current operation's partitions stay
    store = open();
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("drops the least recently used partitions, reads them back with the same answers, and keeps versions right across a drop", async () => {
    const { create, update } = useCases();
    for (const [n, animal] of ANIMALS.entries())
      await create.execute({ tenantId: T, namespace: `ns${n}`, memories: [1, 2, 3].map((k) => ({ content: `The ${animal} number ${k} swims at dawn.` })) });
    const first: string[][] = [];
    for (const [n, animal] of ANIMALS.entries()) {
      first.push(await search(`ns${n}`, `${animal} number 2`));
      expect(budget.stats().partitions).toBe(1);
    }
    expect(first.map((hits) => hits[0])).toEqual(ANIMALS.map((a) => `The ${a} number 2 swims at dawn.`));
    expect(budget.stats().evictions).toBeGreaterThanOrEqual(4);

    // Read back after a drop: the same answers.
    expect(await search("ns0", "walrus number 2")).toEqual(first[0]);
    // A new version of a memory whose partition is not in memory: the old one is no longer the latest, once read back.
    const [old] = (await store.search({ tenantId: T, namespaces: ["ns1"], text: "heron number 3", limit: 1, now: clock.now().toISOString() })).map(
      (h) => h.memory,
    );
    await search("ns4", "lynx"); // ns1 dropped
    await update.execute({ tenantId: T, namespace: "ns1", selector: { id: old!.id }, newContent: "The heron number 3 now swims at dusk." });
    await search("ns4", "lynx"); // ns1 dropped again
    expect(await search("ns1", "heron number 3 swims")).toEqual(expect.arrayContaining(["The heron number 3 now swims at dusk."]));
    expect(await search("ns1", "heron number 3 swims")).not.toContain("The heron number 3 swims at dawn.");
    // A list over every container of the tenant holds them all for its duration, then the next operation drops them.
    expect(await listed()).toHaveLength(15);
    await search("ns2", "otter");
    expect(budget.stats().partitions).toBe(1);
  });

  it("warms the most recently written partitions at start while the budget has room", async () => {
    const { create } = useCases();
    for (const [n, animal] of ANIMALS.entries()) await create.execute({ tenantId: T, namespace: `ns${n}`, memories: [{ content: `The ${animal} is here.` }] });
    await store.close();
    budget = new PartitionBudget(1);
    store = open();
    await store.warm(0);
    expect(budget.stats().partitions).toBe(1);
    expect(await listed(["ns4"])).toEqual(["The lynx is here."]);
    expect(budget.stats().evictions).toBe(0); // ns4, the last written, was the one warmed
  });
});
