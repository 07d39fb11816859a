import fs from "node:fs";
import { KeyedMutex } from "../../src/app/keyed-mutex";
import { NamespaceMemoriesUseCase } from "../../src/app/namespace-memories.usecase";
import type { SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import { openStore, tempDir, TestClock } from "./helpers";
import { memory as contractMemory } from "../contract/memory-repository.contract";

/** A memory of tenant t1 in tag "alpha" unless `over` says otherwise. */
const memory = (over: Parameters<typeof contractMemory>[0]) => contractMemory({ namespace: "alpha", ...over });

describe("NamespaceMemoriesUseCase (container tags' memories)", () => {
  let dir: string;
  let store: SqliteMemoryStore;
  let uc: NamespaceMemoriesUseCase;
  const clock = new TestClock();
  beforeEach(() => {
    dir = tempDir();
    store = openStore(dir);
    uc = new NamespaceMemoriesUseCase({ repo: store, clock, lock: new KeyedMutex() });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("counts latest, not forgotten memories per tag with their latest change, within the tenant", async () => {
    const a1 = memory({ content: "Alpha one" });
    const a2 = memory({ content: "Alpha two", isLatest: false });
    const a3 = memory({ content: "Alpha three" });
    const b1 = memory({ content: "Beta one", namespace: "beta", isForgotten: true, forgottenAt: a3.updatedAt });
    const c1 = memory({ content: "Gamma one", namespace: "gamma" });
    const other = memory({ content: "Other tenant", tenantId: "t2" });
    await store.write({ records: [a1, a2, a3, b1, c1, other] });
    expect(await uc.counts("t1")).toEqual([
      { namespace: "alpha", memoryCount: 2, lastActivityAt: a3.updatedAt },
      { namespace: "gamma", memoryCount: 1, lastActivityAt: c1.updatedAt },
    ]);
    expect(await uc.counts("t1", ["gamma", "beta", "nothing"])).toEqual([{ namespace: "gamma", memoryCount: 1, lastActivityAt: c1.updatedAt }]);
    expect(await uc.counts("t3")).toEqual([]);
    await expect(uc.counts("t1", ["bad tag!"])).rejects.toThrow(/containerTag/);
  });

  it("forgets every active memory of one tag (more than a page) with one batch id, and nothing elsewhere", async () => {
    const many = Array.from({ length: 1203 }, (_, i) => memory({ content: `Fact ${i}` }));
    const kept = memory({ content: "Kept in beta", namespace: "beta" });
    const otherTenant = memory({ content: "Same tag, other tenant", tenantId: "t2" });
    await store.write({ records: [...many, kept, otherTenant] });
    expect(await uc.forgetAll("t1", "alpha", "tag deleted")).toBe(1203);
    expect(await uc.counts("t1")).toEqual([{ namespace: "beta", memoryCount: 1, lastActivityAt: kept.updatedAt }]);
    const forgotten = await store.getMany("t1", [many[0]!.id, many[1202]!.id]);
    expect(forgotten.every((m) => m.isForgotten && m.forgetReason === "tag deleted")).toBe(true);
    expect(new Set(forgotten.map((m) => m.forgetBatchId)).size).toBe(1);
    expect((await store.findById("t2", otherTenant.id))!.isForgotten).toBe(false);
    expect(await uc.forgetAll("t1", "alpha")).toBe(0);
  });
});
