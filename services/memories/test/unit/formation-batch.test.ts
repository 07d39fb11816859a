import fs from "node:fs";
import { HashingEmbedder } from "@engram/index";
import { OfflineMemoryRelator } from "@engram/nlp";
import type { MemoryRecord } from "@engram/memory-model";
import { type SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import { CreateMemoriesUseCase } from "../../src/app/create-memories.usecase";
import { FormMemoriesUseCase } from "../../src/app/form-memories.usecase";
import { MemoryWriter } from "../../src/app/memory-writer";
import type { MemoryRepository, MemoryWrite } from "../../src/app/ports";
import { Events, LineExtractor, logger, MapReader, mutex, NoBuckets, openStore, RuleRelator, tempDir, TestClock, WordClassifier } from "./helpers";

const T = "acme";
const NS = "notes";

/**
 * Batched memory formation: a document's facts are decided together outside
 * the namespace lock and written in one transaction, with the semantics of
 * deciding them one after the other.
 */
describe("batched memory formation", () => {
  let dir: string;
  let store: SqliteMemoryStore;
  let reader: MapReader;
  let events: Events;
  let clock: TestClock;
  let writes: MemoryWrite[];
  /** Runs before a write reaches the store (once), as another writer acting between the formation's reads and its write. */
  let beforeWrite: (() => Promise<void>) | undefined;
  /** Throws inside the store's transaction (on reading the n-th record's content there) once, as a crash in the middle of the write. */
  let crashAtRecord: number | undefined;

  /** The store as the formation sees it: writes counted, and the hooks above. */
  const repoOver = (inner: SqliteMemoryStore): MemoryRepository =>
    new Proxy(inner, {
      get(target, prop) {
        if (prop === "write")
          return async (w: MemoryWrite) => {
            writes.push(w);
            const hook = beforeWrite;
            beforeWrite = undefined;
            if (hook) await hook();
            if (crashAtRecord !== undefined && w.records.length >= crashAtRecord) {
              const at = crashAtRecord - 1;
              crashAtRecord = undefined;
              const records = w.records.map((m, i) =>
                i === at
                  ? new Proxy(m, {
                      get(r, p) {
                        // The content is first read inside the transaction, after the rows before this one were stored.
                        if (p === "content") throw new Error("the process died");
                        return Reflect.get(r, p) as unknown;
                      },
                    })
                  : m,
              );
              return target.write({ ...w, records });
            }
            return target.write(w);
          };
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });

  const formation = (s: SqliteMemoryStore, relator: RuleRelator | OfflineMemoryRelator) => {
    const repo = repoOver(s);
    const buckets = new NoBuckets();
    return new FormMemoriesUseCase({
      repo,
      writer: new MemoryWriter(repo, new HashingEmbedder(64)),
      reader,
      extractor: new LineExtractor(),
      relator,
      buckets,
      tags: buckets,
      events,
      clock,
      lock: mutex(),
      logger,
    });
  };
  const doc = (id: string, lines: string[]) =>
    reader.docs.set(id, { id, namespace: NS, chunks: [{ position: 0, content: lines.join("\n") }], createdAt: clock.now().toISOString(), generation: 1 });
  const run = (form: FormMemoriesUseCase, id: string) =>
    form.execute({ ref: { tenantId: T, namespace: NS, documentId: id, generation: 1 }, dreaming: "dynamic", lastAttempt: false });
  const all = async (s: SqliteMemoryStore = store): Promise<MemoryRecord[]> =>
    (await s.list({ tenantId: T, namespaces: [NS], sort: "createdAt", order: "asc", offset: 0, limit: 100, now: clock.now().toISOString(), allVersions: true }))
      .items;
  const byContent = (ms: MemoryRecord[], content: string) => ms.find((m) => m.content === content)!;

  beforeEach(() => {
    dir = tempDir();
    store = openStore(dir);
    reader = new MapReader();
    events = new Events();
    clock = new TestClock();
    writes = [];
    beforeWrite = undefined;
    crashAtRecord = undefined;
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("decides a document's facts in order, a later fact relating to an earlier one of the same document, and writes them in one write", async () => {
    // The rule sees the best candidate: a new home updates the old one, "again" duplicates, "named" extends.
    const relator = new RuleRelator((f, best) =>
      !best
        ? { kind: "unrelated" }
        : f.content.includes("lives in") && best.content.includes("lives in")
          ? { kind: "updates", targetId: best.id }
          : f.content.includes("again")
            ? { kind: "duplicate", targetId: best.id }
            : f.content.includes("named")
              ? { kind: "extends", targetId: best.id }
              : { kind: "unrelated" },
    );
    const form = formation(store, relator);
    doc("d_1", [
      "Sarah lives in Seattle",
      "Sarah has a dog",
      "Sarah has a dog",
      "Sarah lives in Portland",
      "Sarah lives in Denver",
      "Sarah has a dog again",
      "Sarah has a dog named Rex",
    ]);
    await expect(run(form, "d_1")).resolves.toBe("formed");
    // One write: every memory, every version and the formation marker together.
    expect(writes).toHaveLength(1);
    expect(writes[0]!.formation).toMatchObject({ documentId: "d_1", generation: 1 });
    const ms = await all();
    const seattle = byContent(ms, "Sarah lives in Seattle");
    const portland = byContent(ms, "Sarah lives in Portland");
    const denver = byContent(ms, "Sarah lives in Denver");
    const dog = byContent(ms, "Sarah has a dog");
    // The chain within the document: Seattle → Portland → Denver, only the last one latest.
    expect(seattle).toMatchObject({ version: 1, isLatest: false });
    expect(portland).toMatchObject({ version: 2, isLatest: false, parentMemoryId: seattle.id, relation: "updates" });
    expect(denver).toMatchObject({ version: 3, isLatest: true, parentMemoryId: portland.id, rootMemoryId: seattle.id });
    // The repeated line is skipped within the document; "again" found the dog (the best candidate) and added nothing new.
    expect(ms.filter((m) => m.content.startsWith("Sarah has a dog") && m.content !== "Sarah has a dog named Rex")).toHaveLength(1);
    expect(dog.sources).toEqual([{ documentId: "d_1", chunkPositions: [0] }]);
    expect(byContent(ms, "Sarah has a dog named Rex").relations).toEqual({ [dog.id]: "extends" });
    // The fourth fact's candidates were the document's own Seattle memory; the fifth's the Portland version, not Seattle.
    expect(relator.seen[2]!.map((c) => c.content)).toContain("Sarah lives in Seattle");
    expect(relator.seen[3]![0]!.content).toBe("Sarah lives in Portland");
    expect(relator.seen[3]!.map((c) => c.content)).not.toContain("Sarah lives in Seattle");
    expect(await store.isFormed(T, "d_1", 1)).toBe(true);
    expect(events.dones.map((r) => r.documentId)).toEqual(["d_1"]);
  });

  it("keeps the offline relator's decisions within a document: a correction updates the fact before it", async () => {
    const form = formation(store, new OfflineMemoryRelator());
    doc("d_1", ["Tomasz Weber lives in Leipzig.", "Tomasz Weber prefers meetings before 10am.", "Tomasz Weber now lives in Dresden."]);
    await run(form, "d_1");
    const ms = await all();
    const leipzig = byContent(ms, "Tomasz Weber lives in Leipzig.");
    expect(byContent(ms, "Tomasz Weber now lives in Dresden.")).toMatchObject({ version: 2, isLatest: true, parentMemoryId: leipzig.id });
    expect(leipzig.isLatest).toBe(false);
    expect(byContent(ms, "Tomasz Weber prefers meetings before 10am.").isLatest).toBe(true);
    expect(writes).toHaveLength(1);
  });

  it("decides again when another writer changed the namespace between its reads and its write", async () => {
    const relator = new RuleRelator((f, best) =>
      best && f.content.includes("lives in") && best.content.includes("lives in") ? { kind: "updates", targetId: best.id } : { kind: "unrelated" },
    );
    const form = formation(store, relator);
    // Another writer (the API, or another replica's formation) adds a memory the fact relates to after the formation read
    // the namespace (which then held nothing related): no memory the formation read changed, but its candidates did.
    const create = new CreateMemoriesUseCase({
      repo: store,
      writer: new MemoryWriter(store, new HashingEmbedder(64)),
      classifier: new WordClassifier(),
      buckets: new NoBuckets(),
      clock,
      lock: mutex(),
    });
    beforeWrite = async () => void (await create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Sarah lives in Seattle" }] }));
    doc("d_1", ["Sarah lives in Portland", "Sarah plays chess"]);
    await expect(run(form, "d_1")).resolves.toBe("formed");
    // The first write was refused (the namespace moved on); the second decided over the new memory.
    expect(writes).toHaveLength(2);
    expect(writes[0]!.expectNamespace).toEqual({ tenantId: T, namespace: NS, version: 0 });
    expect(writes[1]!.expectNamespace).toEqual({ tenantId: T, namespace: NS, version: 1 });
    const ms = await all();
    const seattle = byContent(ms, "Sarah lives in Seattle");
    expect(byContent(ms, "Sarah lives in Portland")).toMatchObject({ version: 2, parentMemoryId: seattle.id, isLatest: true });
    expect(seattle.isLatest).toBe(false);
    // Asked again only for the fact whose candidates changed: Portland twice (no candidate, then Seattle); chess once (its
    // candidate, the document's own Portland memory, is the same in both decisions).
    expect(relator.seen.map((c) => c.map((x) => x.content))).toEqual([[], ["Sarah lives in Portland"], ["Sarah lives in Seattle"]]);
    expect(
      ms
        .filter((m) => m.isLatest)
        .map((m) => m.content)
        .sort(),
    ).toEqual(["Sarah lives in Portland", "Sarah plays chess"]);
  });

  it("redoes the decision when a memory it relates to changed meanwhile (its version moved), never overwriting the change", async () => {
    const relator = new RuleRelator((f, best) => (best && f.content.includes("lives in") ? { kind: "updates", targetId: best.id } : { kind: "unrelated" }));
    doc("d_0", ["Sarah lives in Seattle"]);
    await run(formation(store, relator), "d_0");
    const seattle = byContent(await all(), "Sarah lives in Seattle");
    // Another replica's formation makes a new version of the memory this one is about to update.
    const other = formation(store, relator);
    beforeWrite = async () => {
      doc("d_other", ["Sarah lives in Austin"]);
      await run(other, "d_other");
    };
    doc("d_1", ["Sarah lives in Portland"]);
    writes = [];
    await run(formation(store, relator), "d_1");
    const ms = await all();
    const austin = byContent(ms, "Sarah lives in Austin");
    expect(austin).toMatchObject({ version: 2, parentMemoryId: seattle.id, isLatest: false });
    expect(byContent(ms, "Sarah lives in Portland")).toMatchObject({ version: 3, parentMemoryId: austin.id, isLatest: true });
    expect(ms.filter((m) => m.isLatest && m.content.includes("lives in"))).toHaveLength(1);
  });

  it("a crash in the middle of the document's write leaves nothing of it; after the restart the redelivered event forms it once", async () => {
    const relator = new RuleRelator(() => ({ kind: "unrelated" }));
    doc("d_1", ["Ada lives in Lyon.", "Ada works as a pilot.", "Ada owns a grey cat.", "Ada speaks Finnish."]);
    // The transaction has stored some of the rows when the process dies.
    crashAtRecord = 3;
    await expect(run(formation(store, relator), "d_1")).rejects.toThrow("the process died");
    expect(writes).toHaveLength(1);
    expect(writes[0]!.records).toHaveLength(4);
    await store.close();

    // The restart: the store opens from disk; the bus delivers the event again.
    store = openStore(dir);
    expect(await all(store)).toEqual([]);
    expect(await store.isFormed(T, "d_1", 1)).toBe(false);
    await expect(run(formation(store, relator), "d_1")).resolves.toBe("formed");
    await expect(run(formation(store, relator), "d_1")).resolves.toBe("already-formed");
    expect((await all(store)).map((m) => m.content).sort()).toEqual([
      "Ada lives in Lyon.",
      "Ada owns a grey cat.",
      "Ada speaks Finnish.",
      "Ada works as a pilot.",
    ]);
    expect(events.dones).toHaveLength(2);
    expect(events.failures).toEqual([]);
  });
});
