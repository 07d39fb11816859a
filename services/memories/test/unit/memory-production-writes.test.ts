import type { MemoryRecord } from "@engram/memory-model";
import { type AnyBulkWriteOperation, type Document, type IndexSpec, MongoServerError } from "@engram/storage/mongo";
import { Aggregator, Query, update as mingoUpdate, updateMany as mingoUpdateMany, updateOne as mingoUpdateOne } from "mingo";
import { encodeVector, fromMemoryDoc, type MemoryDoc, toMemoryDoc } from "../../src/adapters/production/memory-doc";
import {
  CHAIN_ROOT_BACKFILL,
  contentGuardId,
  FORMATION_INDEXES,
  type FindSpec,
  type GuardDoc,
  guardWrites,
  latestDuplicatesPipeline,
  memoryQueries,
  memoryWriteOp,
  memoryWriteOps,
  namespaceGuardId,
  ONE_LATEST_PER_CHAIN,
  sourceGuardId,
} from "../../src/adapters/production/memory-queries";
import type { FormationDoc } from "../../src/adapters/production/memory.mongo-qdrant";
import { outcomeOf, writeTransaction, type WriteTxSteps } from "../../src/adapters/production/memory-write";
import type { MemoryWrite, WriteOutcome } from "../../src/app/ports";
import { contentKey } from "../../src/domain/memory";
import { memory } from "../contract/memory-repository.contract";
import { type GuardedStore, memoryWriteGuardsContract } from "../contract/memory-write-guards.contract";

/**
 * The production memory store's write path without a server: its
 * transaction (writeTransaction) runs on documents in memory, its filters
 * and updates evaluated by mingo (a JavaScript implementation of MongoDB's
 * query and update language), the unique indexes (partial ones included)
 * enforced after each operation as the server does, a refused transaction
 * rolled back. The write guards' contract runs on it; the MongoDB suite runs
 * the same contract on a real server where one runs.
 */

const NOW = "2026-11-20T10:00:00.000Z";

const duplicateKey = (index: string) => new MongoServerError({ message: `E11000 duplicate key error collection index: ${index}`, code: 11000 });

/** Top-level equalities of a filter: what an upsert's inserted document takes from it. */
const equalities = (filter: Document): Document =>
  Object.fromEntries(Object.entries(filter).filter(([k, v]) => !k.startsWith("$") && !(v !== null && typeof v === "object" && !Array.isArray(v))));

function run<T>(spec: FindSpec, docs: T[]): T[] {
  let cursor = new Query(spec.filter).find<T>(docs);
  if (spec.sort) cursor = cursor.sort(spec.sort);
  if (spec.skip) cursor = cursor.skip(spec.skip);
  if (spec.limit !== undefined) cursor = cursor.limit(spec.limit);
  return cursor.all();
}

/** One collection's documents, with its unique indexes enforced after every operation. */
class MingoCollection<T extends { _id: string }> {
  docs: T[] = [];
  private n = 0;
  constructor(private readonly unique: IndexSpec[] = []) {}

  find(filter: Document): T[] {
    return new Query(filter).find<T>(this.docs).all();
  }

  insert(doc: T): void {
    if (this.docs.some((d) => d._id === doc._id)) throw duplicateKey("_id_");
    this.guarded(() => this.docs.push(doc));
  }

  /** updateOne, with upsert: an inserted document takes the filter's equalities and $setOnInsert (mingo has no upsert). */
  update(filter: Document, update: Document, upsert = false): number {
    return this.guarded(() => {
      const { $setOnInsert, ...ops } = update;
      const matched = mingoUpdateOne(this.docs as unknown as Document[], filter, ops).matchedCount;
      if (matched === 0 && upsert) {
        const doc = { _id: `auto_${++this.n}`, ...equalities(filter), ...($setOnInsert as Document | undefined) } as Document;
        if (Object.keys(ops).length) mingoUpdate(doc, ops);
        this.docs.push(doc as T);
      }
      return matched;
    });
  }

  delete(filter: Document): number {
    const gone = new Set(this.find(filter));
    this.docs = this.docs.filter((d) => !gone.has(d));
    return gone.size;
  }

  /** Runs a change; when it breaks a unique index the collection is as before and E11000 is thrown. */
  private guarded<R>(change: () => R): R {
    const before = this.docs.map((d) => ({ ...d }));
    const result = change();
    for (const ix of this.unique) {
      const fields = Object.keys(ix.key);
      const covered = ix.partialFilterExpression ? this.find(ix.partialFilterExpression) : this.docs;
      const seen = new Set<string>();
      for (const d of covered) {
        const key = JSON.stringify(fields.map((f) => (d as Record<string, unknown>)[f] ?? null));
        if (seen.has(key)) {
          this.docs = before;
          throw duplicateKey(ix.name);
        }
        seen.add(key);
      }
    }
    return result;
  }
}

/** The production store's collections in memory, written through the store's own write transaction. */
class MingoMemoryStore implements GuardedStore {
  readonly memories = new MingoCollection<MemoryDoc>([ONE_LATEST_PER_CHAIN]);
  readonly formations = new MingoCollection<FormationDoc & { _id: string }>(FORMATION_INDEXES);
  readonly guards = new MingoCollection<GuardDoc>();
  private revs = 0;

  private steps(): WriteTxSteps {
    return {
      findGuard: async (id) => this.guards.find({ _id: id })[0] ?? null,
      upsertGuard: async (id, update) => void this.guards.update({ _id: id }, update, true),
      updateGuard: async (id, update) => {
        this.guards.update({ _id: id }, update, true);
        return this.guards.find({ _id: id })[0]!;
      },
      countFormations: async (filter) => this.formations.find(filter).length,
      upsertFormation: async (filter, update) => void this.formations.update(filter, update, true),
      storedVectors: async (ids) => this.memories.find({ _id: { $in: ids } }),
      bulkMemories: async (ops: AnyBulkWriteOperation<MemoryDoc>[]) => {
        let matchedCount = 0;
        for (const op of ops) {
          if ("insertOne" in op) this.memories.insert(op.insertOne.document as MemoryDoc);
          else if ("updateOne" in op) matchedCount += this.memories.update(op.updateOne.filter as Document, op.updateOne.update as Document);
          else throw new Error(`unexpected operation ${Object.keys(op).join()}`);
        }
        return { matchedCount };
      },
      countMemories: async (filter) => this.memories.find(filter).length,
    };
  }

  /** A transaction: everything as before when it throws. */
  private async transaction<R>(fn: () => Promise<R>): Promise<R> {
    const saved = [this.memories, this.formations, this.guards].map((c) => [c, c.docs.map((d) => ({ ...d }))] as const);
    try {
      return await fn();
    } catch (err) {
      for (const [c, docs] of saved) (c as MingoCollection<{ _id: string }>).docs = docs;
      throw err;
    }
  }

  async write(w: MemoryWrite): Promise<WriteOutcome> {
    const records = [...new Map(w.records.map((m) => [m.id, m])).values()];
    const rev = `rev_${++this.revs}`;
    return (await outcomeOf(() => this.transaction(() => writeTransaction(this.steps(), w, records, new Map(), rev, new Date().toISOString())))).outcome;
  }

  async findById(tenantId: string, id: string): Promise<MemoryRecord | undefined> {
    return run(memoryQueries.byId(tenantId, id), this.memories.docs).map(fromMemoryDoc)[0];
  }

  async getMany(tenantId: string, ids: string[], namespace?: string): Promise<MemoryRecord[]> {
    const found = new Map(run(memoryQueries.many(tenantId, ids, namespace), this.memories.docs).map((d) => [d._id, fromMemoryDoc(d)]));
    return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
  }

  async findByDocument(tenantId: string, documentId: string): Promise<MemoryRecord[]> {
    return run(memoryQueries.byDocument(tenantId, documentId), this.memories.docs).map(fromMemoryDoc);
  }

  async chains(tenantId: string, rootIds: string[]): Promise<MemoryRecord[]> {
    return run(memoryQueries.chains(tenantId, rootIds), this.memories.docs).map(fromMemoryDoc);
  }

  async isFormed(tenantId: string, documentId: string, generation: number): Promise<boolean> {
    return this.formations.find({ tenantId, documentId, generation }).length > 0;
  }

  async pruneTombstones(before: string): Promise<number> {
    const pruned = this.guards.delete(guardWrites.prunedTombstones(before));
    this.guards.delete(guardWrites.prunedGuards(before));
    return pruned;
  }
}

memoryWriteGuardsContract("production write path on documents in memory (mingo)", async () => ({ repo: new MingoMemoryStore(), cleanup: async () => {} }));

describe("production memory writes, evaluated by mingo", () => {
  const vector = (seed: number) => ({ vector: encodeVector(new Float32Array([seed, seed / 2, -seed])), model: "m-1" });
  const full = memory({
    content: "Nia sails on Sundays",
    metadata: { boat: "Albatross" },
    forgetAfter: "2026-12-01T00:00:00.000Z",
    forgetReason: "seasonal",
    temporalContext: { eventDates: ["Sundays"] },
    relations: { m_other: "extends" },
    sources: [{ documentId: "d1", chunkPositions: [0] }],
    isInference: false,
    filepath: "/notes/sail.md",
  });

  it("updates exactly to the new version, unsetting what it lacks, keeping the stored embedding unless a new one comes", () => {
    const stored = { ...toMemoryDoc(full, "rev_1", vector(1)), indexed: true, indexedAt: NOW, lockRev: "rev_0" };
    // Forgotten, with its expiry, metadata, dates and relations cleared.
    const next: MemoryRecord = {
      ...full,
      metadata: undefined,
      forgetAfter: undefined,
      forgetReason: "asked",
      temporalContext: undefined,
      relations: {},
      isForgotten: true,
      forgottenAt: NOW,
      updatedAt: NOW,
    };
    for (const k of Object.keys(next) as (keyof MemoryRecord)[]) if (next[k] === undefined) delete next[k];
    const collection = [{ ...stored }];
    const op = memoryWriteOp(toMemoryDoc(next, "rev_2", vector(1)), full.updatedAt);
    if (!("updateOne" in op)) throw new Error("expected a conditional update");
    expect(mingoUpdateOne(collection, op.updateOne.filter as Document, op.updateOne.update as Document).matchedCount).toBe(1);
    const after = collection[0]!;
    expect(fromMemoryDoc(after)).toEqual(next);
    expect(after).toMatchObject({ rev: "rev_2", indexed: false, chainRoot: full.id, vector: stored.vector, model: "m-1" });
    expect("indexedAt" in after || "lockRev" in after || "meta" in after || "forgetAfter" in after).toBe(false);
    // The embedding was not sent again; a re-worded version sends its new one.
    expect(JSON.stringify(op.updateOne.update)).not.toContain("vector");
    const reworded = memoryWriteOp(toMemoryDoc({ ...next, content: "Nia sails daily" }, "rev_3", vector(2)), next.updatedAt, true);
    if (!("updateOne" in reworded)) throw new Error("expected a conditional update");
    mingoUpdateOne(collection, reworded.updateOne.filter as Document, reworded.updateOne.update as Document);
    expect(collection[0]).toMatchObject({ content: "Nia sails daily", vector: vector(2).vector });
    // Only the version read matches: another updatedAt, tenant or namespace matches nothing.
    for (const over of [{ updatedAt: "2026-11-20T10:00:00.001Z" }, { tenantId: "t2" }, { namespace: "ns2" }]) {
      const stale = memoryWriteOp(toMemoryDoc({ ...next, ...over }, "rev_4"), over.updatedAt ?? "2026-11-20T10:00:00.000Z");
      if (!("updateOne" in stale)) throw new Error("expected a conditional update");
      expect(mingoUpdateOne([{ ...after }], stale.updateOne.filter as Document, stale.updateOne.update as Document).matchedCount).toBe(0);
    }
    // Without an expectation, an insert (which a stored id refuses).
    expect(Object.keys(memoryWriteOp(toMemoryDoc(full, "rev_5"), undefined))).toEqual(["insertOne"]);
  });

  it("orders a write's operations: conditional updates (demotions), then locks on expected memories it leaves as they are, then inserts", () => {
    const v1 = memory({ content: "Oli is 40" });
    const v2 = memory({ content: "Oli is 41", version: 2, rootMemoryId: v1.id, parentMemoryId: v1.id, relation: "updates" });
    const other = memory({ content: "Oli has a cat" });
    const { ops, conditional } = memoryWriteOps(
      [toMemoryDoc(v2, "r"), toMemoryDoc({ ...v1, isLatest: false, updatedAt: NOW }, "r")],
      [
        { id: v1.id, updatedAt: v1.updatedAt },
        { id: other.id, updatedAt: other.updatedAt },
      ],
      "r",
    );
    expect(ops.map((op) => Object.keys(op)[0])).toEqual(["updateOne", "updateOne", "insertOne"]);
    expect(conditional).toBe(2);
    expect(ops[1]).toEqual({ updateOne: { filter: { _id: other.id, updatedAt: other.updatedAt }, update: { $set: { lockRev: "r" } } } });
  });

  it("covers latest versions with a chain root in the unique index: two latest of a chain collide, forgotten or not", () => {
    const covered = new Query(ONE_LATEST_PER_CHAIN.partialFilterExpression!);
    const v1 = toMemoryDoc(memory({ content: "Pat is 20" }), "r");
    const v2 = toMemoryDoc(memory({ content: "Pat is 21", version: 2, rootMemoryId: v1._id }), "r");
    expect([v1, v2].map((d) => d.chainRoot)).toEqual([v1._id, v1._id]);
    expect(covered.test({ ...v1, isForgotten: true })).toBe(true);
    expect(covered.test({ ...v1, isLatest: false })).toBe(false);
    const { chainRoot: _none, ...older } = v1;
    expect(covered.test(older)).toBe(false);
    const collection = new MingoCollection<MemoryDoc>([ONE_LATEST_PER_CHAIN]);
    collection.insert(v1);
    expect(() => collection.insert(v2)).toThrow(/E11000/);
    expect(collection.update({ _id: v1._id }, { $set: { isLatest: false } })).toBe(1);
    collection.insert(v2);
    expect(() => collection.update({ _id: v1._id }, { $set: { isLatest: true, isForgotten: true } })).toThrow(/E11000/);
    expect(collection.docs.map((d) => [d._id, d.isLatest])).toEqual([
      [v1._id, false],
      [v2._id, true],
    ]);
  });

  it("touches the guard of every absence a write decides on, and keeps the highest tombstone", async () => {
    const store = new MingoMemoryStore();
    const a = memory({ content: "Quin rows", sources: [{ documentId: "d1", chunkPositions: [0] }] });
    const unique = { tenantId: "t1", namespace: "ns1", contentKey: contentKey(a.content), now: NOW };
    expect(await store.write({ records: [a], source: { tenantId: "t1", documentId: "d1", generation: 1 }, expectNoDuplicate: [unique] })).toBe("written");
    expect(store.guards.docs.map((g) => g._id).sort()).toEqual([contentGuardId(unique), sourceGuardId("t1", "d1"), namespaceGuardId("t1", "ns1")].sort());
    expect(store.guards.docs.every((g) => g.tenantId === "t1" && typeof g.touchedAt === "string")).toBe(true);
    const retire = (generation: number, at: string) =>
      store.write({
        records: [{ ...a, sources: [], isForgotten: true, forgottenAt: at, updatedAt: at }],
        expect: [{ id: a.id, updatedAt: a.updatedAt }],
        retire: { tenantId: "t1", documentId: "d1", generation, at },
      });
    expect(await retire(3, "2026-11-20T11:00:00.000Z")).toBe("written");
    // A later retire of an older generation (a withdrawn event delivered late) lowers nothing.
    expect(await store.write({ records: [], retire: { tenantId: "t1", documentId: "d1", generation: 2, at: "2026-11-20T09:00:00.000Z" } })).toBe("written");
    expect(store.guards.find({ _id: sourceGuardId("t1", "d1") })[0]).toMatchObject({
      documentId: "d1",
      deletedGeneration: 3,
      deletedAt: "2026-11-20T11:00:00.000Z",
    });
    // A refused write leaves no trace, its guard touches included.
    const before = JSON.stringify(store.guards.docs);
    expect(await store.write({ records: [memory({ content: "x" })], source: { tenantId: "t1", documentId: "d1", generation: 3 } })).toBe("source-deleted");
    expect(
      await store.write({
        records: [memory({ content: "Quin rows" })],
        expectNoDuplicate: [{ ...unique, contentKey: "other" }],
        retire: { tenantId: "t1", documentId: "d9", generation: 1, at: NOW },
        expect: [{ id: "m_missing", updatedAt: NOW }],
      }),
    ).toBe("conflict");
    expect(JSON.stringify(store.guards.docs)).toBe(before);
  });

  it("counts every write of a namespace on its guard, stamps the memories with the count, and refuses a write expecting an older count", async () => {
    const store = new MingoMemoryStore();
    const counter = () => store.guards.find({ _id: namespaceGuardId("t1", "ns1") })[0]?.version ?? 0;
    const a = memory({ content: "Ove bakes bread" });
    const b = memory({ content: "Ove bakes rye bread" });
    expect(await store.write({ records: [a], expectNamespace: { tenantId: "t1", namespace: "ns1", version: 0 } })).toBe("written");
    expect(await store.write({ records: [b] })).toBe("written");
    expect(counter()).toBe(2);
    expect(store.memories.docs.map((d) => [d._id, d.nsVersion])).toEqual([
      [a.id, 1],
      [b.id, 2],
    ]);
    // A write decided on what the namespace held at 1 (before b) is refused, and leaves no trace.
    const before = JSON.stringify([store.guards.docs, store.memories.docs]);
    const c = memory({ content: "Ove bakes sourdough" });
    expect(await store.write({ records: [c], expectNamespace: { tenantId: "t1", namespace: "ns1", version: 1 } })).toBe("conflict");
    expect(JSON.stringify([store.guards.docs, store.memories.docs])).toBe(before);
    // What changed since 1, as changesSince reads it; a write at the current count goes through, also one without memories.
    expect(run(memoryQueries.changedSince("t1", "ns1", 1), store.memories.docs).map((d) => d._id)).toEqual([b.id]);
    expect(await store.write({ records: [c], expectNamespace: { tenantId: "t1", namespace: "ns1", version: 2 } })).toBe("written");
    expect(await store.write({ records: [], expectNamespace: { tenantId: "t1", namespace: "ns1", version: 3 } })).toBe("written");
    expect(counter()).toBe(3);
    // The counters are never pruned (a counter that started again could repeat a version a reader holds).
    await store.pruneTombstones("2999-01-01T00:00:00.000Z");
    expect(counter()).toBe(3);
  });

  it("gives older documents their chain root, and finds the versions to demote as the embedded upgrade does", () => {
    const raw = (m: MemoryRecord) => {
      const { chainRoot: _omitted, ...doc } = toMemoryDoc(m, "rev-old");
      return doc as MemoryDoc;
    };
    // The embedded upgrade test's rows: v1 latest again beside v2; two v2s of w (the newer one stays).
    const v1 = memory({ id: "m_v1", content: "Ann is in Rome", isForgotten: true, updatedAt: "2026-11-03T00:00:00.000Z" });
    const v2 = memory({ id: "m_v2", content: "Ann is in Oslo", version: 2, rootMemoryId: "m_v1", updatedAt: "2026-11-02T00:00:00.000Z" });
    const w1 = memory({ id: "m_w1", content: "Bo is 30", isLatest: false });
    const w2a = memory({ id: "m_w2a", content: "Bo is 31", version: 2, rootMemoryId: "m_w1", updatedAt: "2026-11-02T00:00:00.000Z" });
    const w2b = memory({ id: "m_w2b", content: "Bo is 32", version: 2, rootMemoryId: "m_w1", updatedAt: "2026-11-02T00:00:01.000Z" });
    const single = memory({ id: "m_s", content: "Cy is 50" });
    const docs = [v1, v2, w1, w2a, w2b, single].map(raw);
    const demote = (new Aggregator(latestDuplicatesPipeline()).run(docs) as { demote: string[] }[]).flatMap((g) => g.demote).sort();
    expect(demote).toEqual(["m_v1", "m_w2a"]);
    expect(
      mingoUpdateMany(docs as unknown as Document[], CHAIN_ROOT_BACKFILL.filter, CHAIN_ROOT_BACKFILL.update as Parameters<typeof mingoUpdateMany>[2])
        .matchedCount,
    ).toBe(6);
    expect(docs.map((d) => d.chainRoot)).toEqual(["m_v1", "m_v1", "m_w1", "m_w1", "m_w1", "m_s"]);
    expect(new Query(CHAIN_ROOT_BACKFILL.filter).find(docs).all()).toEqual([]);
  });
});
