import { prng } from "@engram/testing";
import fs from "node:fs";
import { type FilterExpr, parseFilter } from "@engram/filters";
import type { MemoryListQuery, MemoryRecord, MemorySearchQuery } from "@engram/memory-model";
import type { JsonObject } from "@engram/kernel";
import { BSON } from "@engram/storage/mongo";
import { Query } from "mingo";
import { updateMany } from "mingo/updater";
import type { SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import { decodeVector, encodeVector, fromMemoryDoc, type MemoryDoc, searchRecordOf, toMemoryDoc } from "../../src/adapters/production/memory-doc";
import {
  acceptsMemory,
  changedSinceMirror,
  type FindSpec,
  handBack,
  markIndexed,
  MEMORY_INDEXES,
  memoryQueries,
  mergeSearchHits,
  moveNamespacesUpdate,
  type ReconcileCursor,
  searchFetchSize,
  selection,
  unindexedPage,
} from "../../src/adapters/production/memory-queries";
import type { MemorySearchHit } from "../../src/adapters/production/memory-search.qdrant";
import { contentKey } from "../../src/domain/memory";
import { createProductionMemoryStoreFromConfig } from "../../src/production-store";
import { logger, openStore, tempDir } from "./helpers";
import { memory } from "../contract/memory-repository.contract";

/**
 * Checks of the production memory store that need no server: the record
 * survives the BSON round trip (vector included), the MongoDB queries it
 * builds (evaluated by mingo, a JavaScript implementation of MongoDB's query
 * language) select and order what the embedded store answers, and the
 * decisions of the search merge and the reconciler. The contract suite runs
 * the store itself against MongoDB and Qdrant.
 */
const viaBson = (d: MemoryDoc): MemoryDoc => BSON.deserialize(BSON.serialize(d)) as MemoryDoc;

const NOW = "2026-11-20T10:00:00.000Z";
const T0 = Date.parse("2026-11-01T00:00:00.000Z");
const minute = (i: number) => new Date(T0 + i * 60_000).toISOString();

/** The contract's record builder with a caller-given id and the base time. */
const base = (over: Partial<MemoryRecord> & Pick<MemoryRecord, "id" | "content">): MemoryRecord =>
  memory({ createdAt: minute(0), updatedAt: minute(0), ...over });

/** Evaluates a find with mingo over documents: selection, order, paging. */
function run(spec: FindSpec, docs: MemoryDoc[]): MemoryDoc[] {
  let cursor = new Query(spec.filter).find<MemoryDoc>(docs);
  if (spec.sort) cursor = cursor.sort(spec.sort);
  if (spec.skip) cursor = cursor.skip(spec.skip);
  if (spec.limit !== undefined) cursor = cursor.limit(spec.limit);
  return cursor.all();
}
const plain = (d: MemoryDoc) => d as unknown as Record<string, unknown>;
const count = (spec: FindSpec, docs: MemoryDoc[]) => new Query(spec.filter).find(docs).all().length;

describe("production memory document", () => {
  const full = base({
    id: "m_full",
    tenantId: "acme",
    namespace: "ns.x",
    content: "Dana prefers the window seat!",
    metadata: { "a.b": 1, $c: ["x", "Y"], flag: true, none: null, obj: { $in: [1] }, z: -0 },
    isStatic: true,
    isForgotten: true,
    forgottenAt: NOW,
    forgetAfter: "2026-12-01T00:00:00.000Z",
    forgetReason: "asked",
    forgetBatchId: "fb_1",
    temporalContext: { documentDate: "2026-10-01T00:00:00.000Z", eventDates: ["2026-09-30", "2026-10-02T08:00:00Z"] },
    version: 3,
    isLatest: false,
    parentMemoryId: "m_parent",
    rootMemoryId: "m_root",
    relation: "updates",
    relations: { m_root: "updates", m_parent: "updates", m_other: "extends", m_z: "derives" },
    sources: [
      { documentId: "d_1", chunkPositions: [0, 2, 7] },
      { documentId: "d_2", chunkPositions: [] },
    ],
    isInference: false,
    bucketKeys: ["prefs", "travel"],
    filepath: "/notes/travel.md",
    createdAt: minute(1),
    updatedAt: minute(2),
  });

  it("round-trips every field of a record through BSON, and stores no undefined or null field", () => {
    const doc = toMemoryDoc(full, "rev-1");
    expect(fromMemoryDoc(viaBson(doc))).toEqual(full);
    // Key order of metadata and relations survives too (they are arrays of entries).
    const back = fromMemoryDoc(viaBson(doc));
    expect(JSON.stringify([back.metadata, back.relations])).toBe(JSON.stringify([full.metadata, full.relations]));
    expect(Object.is(fromMemoryDoc(viaBson(doc)).metadata!.z, -0)).toBe(true);

    const bare = base({ id: "m_bare", content: "Bare" });
    const bareDoc = toMemoryDoc(bare, "rev-2");
    expect(Object.values(bareDoc as Record<string, unknown>).includes(undefined)).toBe(false);
    expect(Object.values(BSON.deserialize(BSON.serialize(bareDoc))).includes(null)).toBe(false);
    expect(fromMemoryDoc(viaBson(bareDoc))).toEqual(bare);
    expect(Object.keys(fromMemoryDoc(viaBson(bareDoc))).sort()).toEqual(Object.keys(bare).sort());
    // Empty metadata is kept as empty (not dropped), absent stays absent.
    expect(fromMemoryDoc(viaBson(toMemoryDoc({ ...bare, metadata: {} }, "r"))).metadata).toEqual({});
    expect("metadata" in fromMemoryDoc(viaBson(bareDoc))).toBe(false);
  });

  it("adds the content key, the distinct source document ids, metadata entries, the write's rev and an unindexed mark", () => {
    const doc = toMemoryDoc({ ...full, sources: [...full.sources, { documentId: "d_1", chunkPositions: [9] }] }, "rev-9");
    expect(doc).toMatchObject({
      _id: "m_full",
      contentKey: contentKey(full.content),
      sourceDocumentIds: ["d_1", "d_2"],
      rev: "rev-9",
      indexed: false,
    });
    expect(doc.contentKey).toBe("dana prefers the window seat");
    expect(doc.meta?.find((e) => e.k === "a.b")).toEqual({ k: "a.b", a: false, v: 1, n: 1 });
    expect(doc.relations).toEqual([
      { id: "m_root", kind: "updates" },
      { id: "m_parent", kind: "updates" },
      { id: "m_other", kind: "extends" },
      { id: "m_z", kind: "derives" },
    ]);
    expect("indexedAt" in doc).toBe(false);
  });

  it("stores the embedding as a BSON float32 vector that reads back bit for bit", () => {
    const v = new Float32Array([0, -0, 1.5, -2.25, 1e-30, 3.4028234663852886e38, Math.fround(Math.PI), -1e-7]);
    const bin = encodeVector(v);
    expect(bin.sub_type).toBe(9);
    const back = decodeVector(viaBson(toMemoryDoc(full, "r", { vector: bin, model: "m-1" })).vector!);
    expect(back).toBeInstanceOf(Float32Array);
    expect(Buffer.from(back.buffer, back.byteOffset, back.byteLength).equals(Buffer.from(v.buffer))).toBe(true);
    expect(Object.is(back[1], -0)).toBe(true);
    // A 384-dimension embedding takes 4 bytes per element plus the vector header.
    const big = new Float32Array(384).map((_, i) => Math.sin(i));
    expect(encodeVector(big).length()).toBe(384 * 4 + 2);
    expect(Array.from(decodeVector(BSON.deserialize(BSON.serialize({ v: encodeVector(big) })).v))).toEqual(Array.from(big));
  });

  it("gives Qdrant the searched fields and the stored vector, only when it has the collection's size", () => {
    const v = new Float32Array([0.5, -0.5, 0.25, 1]);
    const doc = viaBson(toMemoryDoc(full, "r", { vector: encodeVector(v), model: "openai:x:4" }));
    const rec = searchRecordOf(doc, 4);
    expect(rec).toEqual({
      id: full.id,
      tenantId: full.tenantId,
      namespace: full.namespace,
      content: full.content,
      metadata: full.metadata,
      isStatic: true,
      isForgotten: true,
      forgetAfter: full.forgetAfter,
      isLatest: false,
      createdAt: full.createdAt,
      updatedAt: full.updatedAt,
      vector: v,
      model: "openai:x:4",
    });
    const other = searchRecordOf(doc, 8);
    expect("vector" in other || "model" in other).toBe(false);
    const bare = searchRecordOf(viaBson(toMemoryDoc(base({ id: "m_b", content: "b" }), "r")), 4);
    expect(Object.keys(bare).sort()).toEqual(["content", "createdAt", "id", "isForgotten", "isLatest", "isStatic", "namespace", "tenantId", "updatedAt"]);
  });
});

describe("production memory queries against the embedded store", () => {
  let dir: string;
  let sqlite: SqliteMemoryStore;
  let records: MemoryRecord[];
  let docs: MemoryDoc[];

  beforeAll(async () => {
    dir = tempDir();
    sqlite = openStore(dir);
    // Seeded (mulberry32), so a failure reproduces.
    const rand = prng(11);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const contents = ["Alice likes tea", "alice likes TEA.", "Alice  likes tea!", "Bob drives a van", "Carol is in Rome", "Dan plays chess"];
    records = [];
    const roots: MemoryRecord[] = [];
    const chains = new Set<string>();
    for (let i = 0; i < 320; i++) {
      const metadata: JsonObject = {};
      if (rand() < 0.8) metadata.type = pick(["note", "Note", "email", "chat"]);
      if (rand() < 0.6) metadata.priority = pick([1, 5, "3", -2, 0, 7.5, "x"]);
      if (rand() < 0.5) metadata.tags = pick([["work"], ["home", "Work"], [], ["a.b", "x"]]);
      const chainOf = rand() < 0.3 && roots.length ? pick(roots) : undefined;
      const forgotten = rand() < 0.15;
      const r = base({
        id: `m_${String(i).padStart(4, "0")}${pick(["a", "B", "c"])}`,
        tenantId: pick(["t1", "t1", "t2"]),
        namespace: pick(["ns1", "ns2", "ns3"]),
        content: `${pick(contents)}${rand() < 0.5 ? "" : ` #${i % 7}`}`,
        metadata: rand() < 0.1 ? undefined : metadata,
        isStatic: rand() < 0.3,
        isForgotten: forgotten,
        ...(forgotten ? { forgottenAt: NOW } : {}),
        // Distinct expiry times around NOW (every 7th minute of a window from 10 days before to 10 days after).
        ...(rand() < 0.35 ? { forgetAfter: new Date(Date.parse(NOW) + (i - 160) * 90 * 60_000 + 7_000).toISOString() } : {}),
        isLatest: rand() < 0.75,
        ...(chainOf
          ? { version: 2 + (i % 4), rootMemoryId: chainOf.id, parentMemoryId: chainOf.id, relation: "updates" as const, tenantId: chainOf.tenantId }
          : {}),
        sources: rand() < 0.6 ? [{ documentId: pick(["d1", "d2", "d3"]), chunkPositions: [i % 3] }] : [],
        createdAt: minute(i),
        // Distinct, and not in creation order.
        updatedAt: minute(1000 + ((i * 37) % 320)),
      });
      if (!chainOf && rand() < 0.4) roots.push(r);
      // One latest version per chain (the stores' invariant): a later one drawn latest is a superseded one.
      const chain = r.rootMemoryId ?? r.id;
      records.push(r.isLatest && chains.has(chain) ? { ...r, isLatest: false } : r);
      if (r.isLatest) chains.add(chain);
    }
    // Expiring exactly at a reference time the queries use (at `now` a memory counts as expired).
    records.push(base({ id: "m_edge1", content: "Edge one", forgetAfter: NOW, createdAt: minute(400), updatedAt: minute(2000) }));
    records.push(
      base({
        id: "m_edge2",
        content: "Edge two",
        namespace: "ns2",
        isStatic: true,
        forgetAfter: "2026-11-12T00:00:00.000Z",
        createdAt: minute(401),
        updatedAt: minute(2001),
      }),
    );
    // Inserted in creation order: the embedded store's insertion order (its tie-break) is creation order then.
    await sqlite.write({ records });
    docs = records.map((r) => viaBson(toMemoryDoc(r, "rev-0")));
  });

  afterAll(async () => {
    await sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const filters: (FilterExpr | undefined)[] = [
    undefined,
    parseFilter({ AND: [{ key: "type", value: "note", ignoreCase: true }] }),
    parseFilter({
      OR: [
        { key: "tags", value: "work" },
        { filterType: "numeric", key: "priority", value: 2, numericOperator: ">" },
      ],
    }),
    parseFilter({
      AND: [
        { filterType: "array_contains", key: "tags", value: "WORK", ignoreCase: true },
        { key: "type", value: "chat", negate: true },
      ],
    }),
    parseFilter({ AND: [{ filterType: "numeric", key: "priority", value: 0, numericOperator: "<=", negate: true }] }),
  ];

  const listQueries: Partial<MemoryListQuery>[] = [
    {},
    { tenantId: "t2" },
    { namespaces: ["ns1"] },
    { namespaces: ["ns2", "ns3"], order: "desc" },
    { sort: "updatedAt" },
    { sort: "updatedAt", order: "desc", offset: 5, limit: 7 },
    { offset: 3, limit: 4 },
    { offset: 10_000 },
    { allVersions: true },
    { includeForgotten: true, sort: "updatedAt" },
    { allVersions: true, includeForgotten: true, order: "desc" },
    { isStatic: true },
    { isStatic: false, namespaces: ["ns1", "ns3"] },
    { now: "2026-11-10T00:00:00.000Z" },
    { now: "2026-11-30T00:00:00.000Z", includeForgotten: false },
    ...filters.slice(1).map((filter) => ({ filter })),
    { filter: filters[2], allVersions: true, includeForgotten: true, sort: "updatedAt", order: "desc", offset: 2, limit: 5 },
  ];

  it.each(listQueries.map((q, i) => [i, q] as const))("list query %d: the page and total the embedded listing answers", async (_i, over) => {
    const q: MemoryListQuery = { tenantId: "t1", sort: "createdAt", order: "asc", offset: 0, limit: 1000, now: NOW, ...over };
    const expected = await sqlite.list(q);
    const spec = memoryQueries.list(q);
    expect(run(spec, docs).map((d) => d._id)).toEqual(expected.items.map((m) => m.id));
    expect(count(spec, docs)).toBe(expected.total);
    // The listing is not vacuous: every query's selection holds records (paging may take them all away).
    expect(count({ filter: spec.filter }, docs)).toBeGreaterThan(0);
    // The records come back exactly as the embedded store holds them.
    expect(run(spec, docs).map(fromMemoryDoc)).toEqual(expected.items);
  });

  it("selects, as a query, exactly the memories acceptsMemory accepts (search's check on MongoDB's records)", () => {
    let accepted = 0;
    for (const filter of filters)
      for (const over of [{}, { includeForgotten: true }, { isStatic: true }, { allVersions: true }, { namespaces: ["ns2"] }, { tenantId: "t2" }]) {
        const q = { tenantId: "t1", now: NOW, filter, ...over };
        const query = new Query(selection(q));
        for (const [i, d] of docs.entries()) {
          const yes = acceptsMemory(records[i]!, q);
          if (yes) accepted++;
          expect({ id: d._id, q, selected: query.test(plain(d)) }).toEqual({ id: d._id, q, selected: yes });
        }
      }
    expect(accepted).toBeGreaterThan(100);
  });

  it("finds by content key in the embedded store's order: latest first, then most recently changed, only in the scope", async () => {
    const keys = [...new Set(records.map((r) => `${r.tenantId}\u0000${r.namespace}\u0000${contentKey(r.content)}`))];
    expect(keys.length).toBeGreaterThan(20);
    for (const k of keys) {
      const [tenantId, namespace, key] = k.split("\u0000") as [string, string, string];
      const expected = await sqlite.findByContentKey(tenantId, namespace, key);
      expect(expected.length).toBeGreaterThan(0);
      expect(run(memoryQueries.byContentKey(tenantId, namespace, key), docs).map((d) => d._id)).toEqual(expected.map((m) => m.id));
    }
  });

  it("finds every memory of a source document, and by id only within the tenant", async () => {
    for (const tenantId of ["t1", "t2", "t3"])
      for (const documentId of ["d1", "d2", "d3", "d4"]) {
        const expected = await sqlite.findByDocument(tenantId, documentId);
        expect(run(memoryQueries.byDocument(tenantId, documentId), docs).map((d) => d._id)).toEqual(expected.map((m) => m.id));
      }
    for (const r of records.slice(0, 40)) {
      expect(run(memoryQueries.byId(r.tenantId, r.id), docs).map(fromMemoryDoc)).toEqual([r]);
      expect(run(memoryQueries.byId(r.tenantId === "t1" ? "t2" : "t1", r.id), docs)).toEqual([]);
    }
  });

  it("lists expired, not yet forgotten memories of every tenant, soonest first, up to the limit", async () => {
    for (const now of [NOW, "2026-11-12T00:00:00.000Z", "2026-11-29T00:00:00.000Z", "2026-01-01T00:00:00.000Z"])
      for (const limit of [1, 5, 1000]) {
        const expected = await sqlite.findExpired(now, limit);
        expect(run(memoryQueries.expired(now, limit), docs).map((d) => d._id)).toEqual(expected.map((m) => m.id));
      }
    expect((await sqlite.findExpired(NOW, 1000)).length).toBeGreaterThan(10);
  });

  it("reads chains oldest first, and memories by id in the tenant and namespace", async () => {
    const roots = [...new Set(records.flatMap((r) => (r.rootMemoryId ? [r.rootMemoryId] : [])))];
    expect(roots.length).toBeGreaterThan(5);
    for (const tenantId of ["t1", "t2"])
      for (const ids of [roots.slice(0, 1), roots.slice(0, 4), roots, [...roots.slice(2, 5), "m_unknown"]]) {
        const expected = await sqlite.chains(tenantId, ids);
        const got = run(memoryQueries.chains(tenantId, ids), docs);
        // Oldest first is the contract (the embedded store leaves the order of equal versions to SQLite's plan;
        // this store orders them by creation).
        expect(got.map((d) => d.version)).toEqual(expected.map((m) => m.version));
        expect(got.map((d) => d._id).sort()).toEqual(expected.map((m) => m.id).sort());
        const key = (d: MemoryDoc) => `${String(d.version).padStart(6, "0")} ${d.createdAt}`;
        expect(got.map(key)).toEqual(got.map(key).sort());
      }
    const ids = records.filter((_, i) => i % 9 === 0).map((r) => r.id);
    for (const [tenantId, namespace] of [
      ["t1", undefined],
      ["t1", "ns2"],
      ["t2", undefined],
    ] as const) {
      const expected = await sqlite.getMany(tenantId, ids, namespace);
      const found = new Set(run(memoryQueries.many(tenantId, ids, namespace), docs).map((d) => d._id));
      expect(ids.filter((id) => found.has(id))).toEqual(expected.map((m) => m.id));
      expect(expected.length).toBeGreaterThan(0);
    }
  });

  it("names the tenant's namespaces", async () => {
    for (const tenantId of ["t1", "t2", "t3"]) {
      const found = [
        ...new Set(
          new Query(memoryQueries.namespaces(tenantId))
            .find<MemoryDoc>(docs)
            .all()
            .map((d) => d.namespace),
        ),
      ].sort();
      expect(found).toEqual(await sqlite.namespaces(tenantId));
    }
  });

  it("keeps each partial index's query inside the index's filter (so the planner can use it)", () => {
    const partial = (name: string) => new Query(MEMORY_INDEXES.find((i) => i.name === name)!.partialFilterExpression!);
    const expired = run(memoryQueries.expired("2027-01-01T00:00:00.000Z", 1000), docs);
    expect(expired.length).toBeGreaterThan(10);
    expect(expired.every((d) => partial("expiring").test(plain(d)))).toBe(true);
    const unindexed = run(unindexedPage(1000), docs);
    expect(unindexed.length).toBe(docs.length);
    expect(unindexed.every((d) => partial("unindexed").test(plain(d)))).toBe(true);
  });
});

describe("search merge", () => {
  const q: MemorySearchQuery = { tenantId: "t1", namespaces: ["ns1"], text: "x", limit: 3, now: NOW };
  const hit = (id: string, score: number): MemorySearchHit => ({
    id,
    namespace: "ns1",
    score,
    similarity: score / 10,
    ownSimilarity: score / 10,
    keywordScore: score,
    vectorScore: 0,
  });
  const rec = (id: string, over: Partial<MemoryRecord> = {}) => base({ id, content: id, ...over });

  it("keeps Qdrant's order and scores, drops hits MongoDB no longer confirms, and stops at the limit", () => {
    const records = new Map(
      [
        rec("a"),
        rec("b", { isLatest: false }), // superseded after Qdrant was written
        rec("c", { isForgotten: true, forgottenAt: NOW }),
        rec("d", { forgetAfter: NOW }), // expired at `now`
        rec("e", { namespace: "ns2" }),
        rec("f", { tenantId: "t2" }),
        rec("g"),
        rec("h"),
        rec("i"),
      ].map((m) => [m.id, m]),
    );
    const hits = ["a", "b", "c", "d", "missing", "e", "f", "g", "a", "h", "i"].map((id, n) => hit(id, 20 - n));
    const out = mergeSearchHits(hits, records, q);
    expect(out.map((h) => [h.memory.id, h.score, h.similarity])).toEqual([
      ["a", 20, 2],
      ["g", 13, 1.3],
      ["h", 11, 1.1],
    ]);
    expect(out[0]!.memory).toBe(records.get("a"));
    // Asked for forgotten and expired ones, they stay; every namespace when none is given.
    expect(mergeSearchHits(hits, records, { ...q, includeForgotten: true, namespaces: undefined, limit: 10 }).map((h) => h.memory.id)).toEqual([
      "a",
      "c",
      "d",
      "e",
      "g",
      "h",
      "i",
    ]);
    expect(mergeSearchHits(hits, records, { ...q, isStatic: true })).toEqual([]);
  });

  it("asks Qdrant for a few more candidates than the limit", () => {
    expect(searchFetchSize(0)).toBe(0);
    expect(searchFetchSize(1)).toBe(6);
    expect(searchFetchSize(10)).toBe(15);
    expect(searchFetchSize(100)).toBe(125);
  });
});

describe("reconciler decisions", () => {
  const doc = (id: string, updatedAt: string, rev: string) => viaBson(toMemoryDoc(base({ id, content: id, updatedAt }), rev));
  const ids = (ds: MemoryDoc[]) => ds.map((d) => d._id);
  const mark = (collection: MemoryDoc[], d: Pick<MemoryDoc, "_id" | "rev">) => {
    const op = markIndexed(d, NOW);
    // Updates the documents of the array in place, as the server would.
    return updateMany(collection as unknown as Record<string, unknown>[], op.filter, op.update).matchedCount;
  };

  it("picks written records until their own version is marked; a version rewritten meanwhile stays picked and is mirrored again", () => {
    const collection = [doc("m_x", minute(1), "w1"), doc("m_y", minute(2), "w1"), doc("m_z", minute(3), "w0")];
    mark(collection, collection[2]!);
    expect(ids(run(unindexedPage(10), collection))).toEqual(["m_x", "m_y"]);
    // The write w1 mirrors x and y; before it marks them, a write w2 rewrites y.
    const mirrored = collection.slice(0, 2).map((d) => ({ _id: d._id, rev: d.rev }));
    collection[1] = doc("m_y", minute(4), "w2");
    expect(mirrored.map((d) => mark(collection, d))).toEqual([1, 0]);
    expect(collection[0]).toMatchObject({ indexed: true, indexedAt: NOW });
    expect(collection[1]).toMatchObject({ indexed: false, rev: "w2" });
    expect(changedSinceMirror(mirrored, collection)).toEqual(["m_y"]);
    expect(ids(run(unindexedPage(10), collection))).toEqual(["m_y"]);
    // Mirrored again from its current document, it is marked.
    expect(mark(collection, collection[1]!)).toBe(1);
    expect(run(unindexedPage(10), collection)).toEqual([]);
    expect(changedSinceMirror([{ _id: "m_y", rev: "w2" }], collection)).toEqual([]);
    // A record that is gone needs nothing.
    expect(changedSinceMirror([{ _id: "m_gone", rev: "w1" }], collection)).toEqual([]);
  });

  it("a mirror that gives up hands the memory back: no mark in flight can claim it, the reconciler picks it up", () => {
    const collection = [doc("m_x", minute(1), "w5"), doc("m_y", minute(2), "w1")];
    // w5's mirror marked x (Qdrant may since have received an older version from a mirror that then gave up).
    mark(collection, collection[0]!);
    expect(run(unindexedPage(10), collection).map((d) => d._id)).toEqual(["m_y"]);
    const back = handBack(["m_x"], "h1");
    expect(updateMany(collection as unknown as Record<string, unknown>[], back.filter, back.update).matchedCount).toBe(1);
    expect(ids(run(unindexedPage(10), collection))).toEqual(["m_x", "m_y"]);
    expect(collection[0]).toMatchObject({ rev: "h1", indexed: false, content: "m_x" });
    // A mirror of w5 still in flight can no longer mark it; only a mirror of the handed-back document can.
    expect(mark(collection, { _id: "m_x", rev: "w5" })).toBe(0);
    expect(changedSinceMirror([{ _id: "m_x", rev: "w5" }], collection)).toEqual(["m_x"]);
    expect(mark(collection, collection[0]!)).toBe(1);
    expect(ids(run(unindexedPage(10), collection))).toEqual(["m_y"]);
  });

  it("a namespace move hands the moved records (every version, only the tenant's sources) to the reconciler", () => {
    const at = (id: string, namespace: string, tenantId = "t1") =>
      viaBson(toMemoryDoc(base({ id, content: id, namespace, tenantId, updatedAt: minute(1) }), "w1"));
    const collection = [at("m_a", "old"), at("m_b", "older"), at("m_c", "kept"), at("m_d", "old", "t2"), at("m_e", "new")];
    for (const d of collection) mark(collection, d);
    expect(run(unindexedPage(10), collection)).toEqual([]);
    const op = moveNamespacesUpdate("t1", ["old", "older"], "new", "mv1");
    expect(updateMany(collection as unknown as Record<string, unknown>[], op.filter, op.update).matchedCount).toBe(2);
    expect(ids(run(unindexedPage(10), collection))).toEqual(["m_a", "m_b"]);
    expect(collection.map((d) => [d._id, d.namespace, d.indexed])).toEqual([
      ["m_a", "new", false],
      ["m_b", "new", false],
      ["m_c", "kept", true],
      ["m_d", "old", true],
      ["m_e", "new", true],
    ]);
    // A mirror of the version before the move, still in flight, cannot mark it; the reconciler's mirror of the moved one can.
    expect(mark(collection, { _id: "m_a", rev: "w1" })).toBe(0);
    expect(searchRecordOf(collection[0]!, 16).namespace).toBe("new");
    expect(mark(collection, collection[0]!)).toBe(1);
    expect(ids(run(unindexedPage(10), collection))).toEqual(["m_b"]);
  });

  it("walks every unindexed record once per pass, in order, even when none gets marked (failures do not hold the pass)", () => {
    const collection = [
      doc("m_b", minute(5), "w"),
      doc("m_a", minute(5), "w"),
      doc("m_c", minute(5), "w"),
      doc("m_d", minute(1), "w"),
      doc("m_e", minute(9), "w"),
      doc("m_f", minute(7), "w"),
      doc("m_g", minute(7), "w"),
    ];
    mark(collection, collection[5]!);
    const seen: string[] = [];
    let after: ReconcileCursor | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = run(unindexedPage(2, after), collection);
      if (page.length === 0) break;
      seen.push(...ids(page));
      const last = page[page.length - 1]!;
      after = { updatedAt: last.updatedAt, id: last._id };
    }
    expect(seen).toEqual(["m_d", "m_a", "m_b", "m_c", "m_g", "m_e"]);
  });
});

describe("production store configuration", () => {
  const config = {
    MONGO_DB: "engram",
    QDRANT_URL: "http://127.0.0.1:1",
    QDRANT_COLLECTION_PREFIX: "engram",
    QDRANT_INDEXED_METADATA_KEYS: [],
    QDRANT_TIMEOUT_MS: 1000,
    QDRANT_FUSION: "weighted" as const,
    EMBEDDER: "hashing" as const,
    MEMORY_EMBEDDER: "auto" as const,
    LOCAL_EMBED_THREADS: 1,
    EMBEDDING_TIMEOUT_MS: 1000,
    EMBEDDING_MAX_RETRIES: 0,
    EMBED_BATCH_SIZE: 8,
  };

  it("refuses to start without MONGO_URL, or without a known vector size, before connecting anywhere", async () => {
    await expect(createProductionMemoryStoreFromConfig(config, logger)).rejects.toThrow(/MONGO_URL is required/);
    const openai = {
      ...config,
      MONGO_URL: "mongodb://127.0.0.1:1/?replicaSet=rs0",
      EMBEDDER: "openai" as const,
      EMBEDDING_BASE_URL: "http://127.0.0.1:1/v1",
      EMBEDDING_MODEL: "m",
    };
    await expect(createProductionMemoryStoreFromConfig(openai, logger)).rejects.toThrow(/EMBEDDING_DIMENSIONS is required/);
  });
});
