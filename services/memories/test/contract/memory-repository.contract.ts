import { parseFilter } from "@engram/filters";
import type { MemoryRecord } from "@engram/memory-model";
import type { MemoryRepository } from "../../src/app/ports";
import { contentKey } from "../../src/domain/memory";

/**
 * The behaviour every MemoryRepository adapter must show (embedded SQLite +
 * in-memory engine; MongoDB records + Qdrant search). `make` returns a fresh,
 * empty store; `reopen` (optional) closes it and opens the same data again.
 */
export interface MemoryStoreHarness {
  repo: MemoryRepository;
  reopen?(): Promise<MemoryRepository>;
  cleanup(): Promise<void>;
}

const NOW = "2026-11-20T10:00:00.000Z";
let seq = 0;

export function memory(over: Partial<MemoryRecord> & Pick<MemoryRecord, "content">): MemoryRecord {
  seq++;
  const at = new Date(Date.parse("2026-11-01T00:00:00.000Z") + seq * 60_000).toISOString();
  return {
    id: `m_contract${String(seq).padStart(6, "0")}`,
    tenantId: "t1",
    namespace: "ns1",
    isStatic: false,
    isForgotten: false,
    version: 1,
    isLatest: true,
    relations: {},
    sources: [],
    bucketKeys: [],
    createdAt: at,
    updatedAt: at,
    ...over,
  };
}

export function memoryRepositoryContract(name: string, make: () => Promise<MemoryStoreHarness>): void {
  describe(`MemoryRepository contract: ${name}`, () => {
    let h: MemoryStoreHarness;
    let repo: MemoryRepository;
    beforeEach(async () => {
      h = await make();
      repo = h.repo;
    });
    afterEach(async () => {
      await h.cleanup();
    });

    /** A change of a stored memory, conditional on the version read (`stored`), as every change is. */
    const change = (stored: MemoryRecord, next: MemoryRecord) => repo.write({ records: [next], expect: [{ id: stored.id, updatedAt: stored.updatedAt }] });
    const search = (text: string, over: Partial<Parameters<MemoryRepository["search"]>[0]> = {}) =>
      repo.search({ tenantId: "t1", namespaces: ["ns1"], text, limit: 10, now: NOW, ...over }).then((hits) => hits.map((x) => x.memory.content));

    it("writes records that read back by id, in request order, within tenant and namespace", async () => {
      const a = memory({ content: "Alice works at Acme Corporation", metadata: { team: "sales" } });
      const b = memory({ content: "Alice lives in Lisbon", isStatic: true, temporalContext: { documentDate: "2026-10-01T00:00:00.000Z" } });
      const other = memory({ content: "Bob works at Initech", tenantId: "t2" });
      expect(await repo.write({ records: [a, b, other] })).toBe("written");
      expect(await repo.findById("t1", a.id)).toEqual(a);
      expect(await repo.findById("t2", a.id)).toBeUndefined();
      expect((await repo.getMany("t1", [b.id, "m_unknown", a.id])).map((m) => m.id)).toEqual([b.id, a.id]);
      expect(await repo.getMany("t1", [a.id], "other-ns")).toEqual([]);
      expect(await repo.getMany("t1", [other.id])).toEqual([]);
      expect(await repo.namespaces("t1")).toEqual(["ns1"]);
      expect(await repo.namespaces("t3")).toEqual([]);
    });

    it("purges every row of one tenant (searched, listed and formed before), leaving other tenants whole", async () => {
      const a = memory({ content: "Grace plays the violin", sources: [{ documentId: "d1", chunkPositions: [0] }] });
      const b = memory({ content: "Grace plays the violin well", namespace: "ns2", isForgotten: true, forgottenAt: NOW });
      const other = memory({ content: "Grace plays the violin too", tenantId: "t2" });
      await repo.write({ records: [a, b, other], formation: { tenantId: "t1", documentId: "d1", generation: 1 } });
      // Loaded into the search side first: the purge must reach it too.
      expect(await search("violin")).toEqual([a.content]);
      expect(await repo.purgeTenant("t1")).toBe(2);
      expect(await search("violin")).toEqual([]);
      expect(await repo.findById("t1", a.id)).toBeUndefined();
      expect(await repo.findByDocument("t1", "d1")).toEqual([]);
      expect(await repo.namespaces("t1")).toEqual([]);
      const all = { tenantId: "t1", namespaces: ["ns1", "ns2"], sort: "createdAt" as const, order: "asc" as const, offset: 0, limit: 10, now: NOW };
      expect((await repo.list(all)).items).toEqual([]);
      expect((await repo.list({ ...all, includeForgotten: true })).items).toEqual([]);
      expect(await repo.isFormed("t1", "d1", 1)).toBe(false);
      expect(await search("violin", { tenantId: "t2", namespaces: ["ns1"] })).toEqual([other.content]);
      expect(await repo.purgeTenant("t1")).toBe(0);
      // The tenant starts over: new memories are searchable.
      const again = memory({ content: "Grace plays the cello" });
      await repo.write({ records: [again] });
      expect(await search("cello")).toEqual([again.content]);
      if (h.reopen) {
        repo = await h.reopen();
        expect(await repo.findById("t1", a.id)).toBeUndefined();
        expect(await repo.findById("t2", other.id)).toEqual(other);
      }
    });

    it("moves every row of the source namespaces into the target, searchable there, other tenants untouched", async () => {
      const a = memory({ content: "Iris bakes sourdough", namespace: "src1" });
      const b = memory({ content: "Iris bakes rye bread", namespace: "src2", isForgotten: true, forgottenAt: NOW });
      const t = memory({ content: "Iris bakes baguettes", namespace: "dst" });
      const other = memory({ content: "Iris bakes sourdough too", namespace: "src1", tenantId: "t2" });
      await repo.write({ records: [a, b, t, other] });
      // Loaded into the search side first: the move must reach it too.
      expect(await search("bakes", { namespaces: ["src1"] })).toEqual([a.content]);
      expect(await repo.moveNamespaces("t1", ["src1", "src2", "dst"], "dst")).toBe(2);
      expect(await search("bakes", { namespaces: ["src1"] })).toEqual([]);
      expect((await search("bakes", { namespaces: ["dst"] })).sort()).toEqual([t.content, a.content].sort());
      expect((await repo.findById("t1", b.id))?.namespace).toBe("dst");
      expect((await repo.namespaces("t1")).sort()).toEqual(["dst"]);
      expect((await repo.findById("t2", other.id))?.namespace).toBe("src1");
      expect(await repo.moveNamespaces("t1", ["src1"], "dst")).toBe(0);
    });

    it("replaces a record by id and keeps the stored fields exactly", async () => {
      const a = memory({ content: "Carol prefers tea", sources: [{ documentId: "d1", chunkPositions: [0, 2] }] });
      await repo.write({ records: [a] });
      const changed: MemoryRecord = {
        ...a,
        isForgotten: true,
        forgottenAt: NOW,
        forgetReason: "asked",
        forgetBatchId: "fb_1",
        relations: { m_x: "extends" },
        isInference: false,
        bucketKeys: ["prefs"],
        filepath: "/notes/a.md",
        updatedAt: NOW,
      };
      expect(await change(a, changed)).toBe("written");
      expect(await repo.findById("t1", a.id)).toEqual(changed);
    });

    it("refuses a write whose expected updatedAt no longer matches, writing nothing", async () => {
      const a = memory({ content: "Dave drives a red car" });
      await repo.write({ records: [a] });
      const b = memory({ content: "Dave drives a blue car" });
      const ok = await repo.write({ records: [b, { ...a, isLatest: false }], expect: [{ id: a.id, updatedAt: "1999-01-01T00:00:00.000Z" }] });
      expect(ok).toBe("conflict");
      expect(await repo.findById("t1", b.id)).toBeUndefined();
      expect((await repo.findById("t1", a.id))!.isLatest).toBe(true);
      expect(await repo.write({ records: [b], expect: [{ id: a.id, updatedAt: a.updatedAt }] })).toBe("written");
      const c = memory({ content: "Dave drives a green car" });
      expect(await repo.write({ records: [c], expect: [{ id: "m_missing", updatedAt: a.updatedAt }] })).toBe("conflict");
      expect(await repo.findById("t1", c.id)).toBeUndefined();
    });

    it("finds by normalised content, latest versions first, only in the namespace", async () => {
      const v1 = memory({ content: "Erin's favourite colour is green." });
      const v2 = memory({ content: "Erin's favourite colour is green", isLatest: true, version: 2, parentMemoryId: v1.id, rootMemoryId: v1.id });
      await repo.write({ records: [{ ...v1, isLatest: false }, v2] });
      await repo.write({ records: [memory({ content: "Erin's favourite colour is green", namespace: "ns2" })] });
      const found = await repo.findByContentKey("t1", "ns1", contentKey("  ERIN'S favourite   colour is green!"));
      expect(found.map((m) => m.id)).toEqual([v2.id, v1.id]);
      expect(await repo.findByContentKey("t2", "ns1", contentKey(v1.content))).toEqual([]);
    });

    it("finds every memory of a source document, following source changes", async () => {
      const a = memory({ content: "Frank joined in 2020", sources: [{ documentId: "d1", chunkPositions: [0] }] });
      const b = memory({
        content: "Frank leads the data team",
        sources: [
          { documentId: "d1", chunkPositions: [1] },
          { documentId: "d2", chunkPositions: [] },
        ],
      });
      const c = memory({ content: "Unrelated", tenantId: "t2", sources: [{ documentId: "d1", chunkPositions: [] }] });
      await repo.write({ records: [a, b, c] });
      expect((await repo.findByDocument("t1", "d1")).map((m) => m.id).sort()).toEqual([a.id, b.id].sort());
      expect((await repo.findByDocument("t1", "d2")).map((m) => m.id)).toEqual([b.id]);
      await change(b, { ...b, sources: [{ documentId: "d2", chunkPositions: [] }] });
      expect((await repo.findByDocument("t1", "d1")).map((m) => m.id)).toEqual([a.id]);
      expect((await repo.findByDocument("t2", "d1")).map((m) => m.id)).toEqual([c.id]);
    });

    it("lists expired, not yet forgotten memories by expiry time, up to the limit", async () => {
      const soon = memory({ content: "Gina is in Paris this week", forgetAfter: "2026-11-19T00:00:00.000Z" });
      const sooner = memory({ content: "Gina has a cold", forgetAfter: "2026-11-18T00:00:00.000Z", tenantId: "t2" });
      const later = memory({ content: "Gina's lease ends", forgetAfter: "2027-01-01T00:00:00.000Z" });
      const done = memory({ content: "Gina's old task", forgetAfter: "2026-11-01T00:00:00.000Z", isForgotten: true, forgottenAt: NOW });
      await repo.write({ records: [soon, sooner, later, done] });
      expect((await repo.findExpired(NOW, 10)).map((m) => m.id)).toEqual([sooner.id, soon.id]);
      expect((await repo.findExpired(NOW, 1)).map((m) => m.id)).toEqual([sooner.id]);
    });

    it("marks a document generation formed in the same write", async () => {
      expect(await repo.isFormed("t1", "d1", 1)).toBe(false);
      await repo.write({ records: [memory({ content: "Hank likes jazz" })], formation: { tenantId: "t1", documentId: "d1", generation: 1 } });
      expect(await repo.isFormed("t1", "d1", 1)).toBe(true);
      expect(await repo.isFormed("t1", "d1", 2)).toBe(false);
      expect(await repo.isFormed("t2", "d1", 1)).toBe(false);
      await repo.write({ records: [], formation: { tenantId: "t1", documentId: "d1", generation: 1 } });
      expect(await repo.isFormed("t1", "d1", 1)).toBe(true);
    });

    it("searches active latest memories of the scope, best match first, as soon as the write returns", async () => {
      await repo.write({
        records: [
          memory({ content: "Iris plays the cello in an orchestra" }),
          memory({ content: "Iris adopted a cat named Miso" }),
          memory({ content: "Jack plays football on Sundays" }),
          memory({ content: "Iris plays the cello", tenantId: "t2" }),
          memory({ content: "Iris plays the cello in a quartet", namespace: "ns2" }),
        ],
      });
      const hits = await repo.search({ tenantId: "t1", namespaces: ["ns1"], text: "Which instrument does Iris play? cello", limit: 10, now: NOW });
      expect(hits[0]!.memory.content).toBe("Iris plays the cello in an orchestra");
      expect(hits.every((x) => x.memory.tenantId === "t1" && x.memory.namespace === "ns1")).toBe(true);
      expect(hits.every((x) => x.similarity >= 0 && x.similarity <= 1)).toBe(true);
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
      // Every namespace of the tenant when none is given; never another tenant's.
      const all = await repo.search({ tenantId: "t1", text: "cello", limit: 10, now: NOW });
      expect(all.map((x) => x.memory.namespace).sort()).toEqual(["ns1", "ns2"]);
      expect(await search("   ")).toEqual([]);
    });

    it("leaves out forgotten, expired and superseded memories unless asked, and filters static and metadata", async () => {
      const v1 = memory({ content: "Kate works at Globex", metadata: { source: "crm" } });
      const v2 = memory({
        content: "Kate works at Umbrella",
        version: 2,
        parentMemoryId: v1.id,
        rootMemoryId: v1.id,
        relation: "updates",
        metadata: { source: "crm" },
      });
      const gone = memory({ content: "Kate works weekends", isForgotten: true, forgottenAt: NOW });
      const expired = memory({ content: "Kate works from Rome this week", forgetAfter: "2026-11-19T00:00:00.000Z" });
      const trait = memory({ content: "Kate works best in the morning", isStatic: true, metadata: { source: "chat", level: 3 } });
      await repo.write({ records: [{ ...v1, isLatest: false }, v2, gone, expired, trait] });
      expect((await search("Kate works")).sort()).toEqual(["Kate works at Umbrella", "Kate works best in the morning"]);
      expect((await search("Kate works", { includeForgotten: true })).sort()).toEqual(
        ["Kate works at Umbrella", "Kate works best in the morning", "Kate works from Rome this week", "Kate works weekends"].sort(),
      );
      expect(await search("Kate works", { isStatic: true })).toEqual(["Kate works best in the morning"]);
      expect(await search("Kate works", { isStatic: false })).toEqual(["Kate works at Umbrella"]);
      expect(await search("Kate works", { filter: parseFilter({ AND: [{ key: "source", value: "CHAT", ignoreCase: true }] }) })).toEqual([
        "Kate works best in the morning",
      ]);
      expect(await search("Kate works", { filter: parseFilter({ AND: [{ filterType: "numeric", key: "level", value: "2", numericOperator: ">" }] }) })).toEqual(
        ["Kate works best in the morning"],
      );
      expect(await search("Kate works", { filter: parseFilter({ AND: [{ key: "source", value: "chat", negate: true }] }) })).toEqual([
        "Kate works at Umbrella",
      ]);
    });

    it("follows changes: a re-worded memory is found by its new words only", async () => {
      const a = memory({ content: "Liam owns a sailboat" });
      await repo.write({ records: [a] });
      expect(await search("sailboat")).toEqual(["Liam owns a sailboat"]);
      await change(a, { ...a, content: "Liam owns a motorbike", updatedAt: NOW });
      expect(await search("sailboat")).toEqual([]);
      expect(await search("motorbike")).toEqual(["Liam owns a motorbike"]);
    });

    it("returns every version of a chain, oldest first", async () => {
      const v1 = memory({ content: "Mia is 30" });
      const v2 = memory({ content: "Mia is 31", version: 2, parentMemoryId: v1.id, rootMemoryId: v1.id, relation: "updates" });
      const v3 = memory({ content: "Mia is 32", version: 3, parentMemoryId: v2.id, rootMemoryId: v1.id, relation: "updates" });
      await repo.write({ records: [{ ...v1, isLatest: false }, { ...v2, isLatest: false }, v3, memory({ content: "Other" })] });
      expect((await repo.chains("t1", [v1.id])).map((m) => m.version)).toEqual([1, 2, 3]);
      expect(await repo.chains("t2", [v1.id])).toEqual([]);
      expect(await repo.chains("t1", [])).toEqual([]);
    });

    it("lists with paging, sort, totals, versions, forgotten and filters, within the tenant", async () => {
      const made: MemoryRecord[] = [];
      for (let i = 0; i < 7; i++) made.push(memory({ content: `Fact number ${i}`, metadata: { parity: i % 2 === 0 ? "even" : "odd" } }));
      const old = memory({ content: "Old version", isLatest: false });
      const forgotten = memory({ content: "Forgotten fact", isForgotten: true, forgottenAt: NOW });
      await repo.write({ records: [...made, old, forgotten, memory({ content: "Fact of t2", tenantId: "t2" })] });
      const base = { tenantId: "t1", namespaces: ["ns1"], sort: "createdAt" as const, order: "asc" as const, offset: 0, limit: 3, now: NOW };
      const page1 = await repo.list(base);
      expect(page1.total).toBe(7);
      expect(page1.items.map((m) => m.content)).toEqual(["Fact number 0", "Fact number 1", "Fact number 2"]);
      const page3 = await repo.list({ ...base, offset: 6 });
      expect(page3.items.map((m) => m.content)).toEqual(["Fact number 6"]);
      const desc = await repo.list({ ...base, order: "desc" });
      expect(desc.items.map((m) => m.content)).toEqual(["Fact number 6", "Fact number 5", "Fact number 4"]);
      expect((await repo.list({ ...base, allVersions: true, limit: 100 })).total).toBe(8);
      expect((await repo.list({ ...base, includeForgotten: true, limit: 100 })).total).toBe(8);
      const odd = await repo.list({ ...base, limit: 100, filter: parseFilter({ AND: [{ key: "parity", value: "odd" }] }) });
      expect(odd.items.map((m) => m.content)).toEqual(["Fact number 1", "Fact number 3", "Fact number 5"]);
      expect((await repo.list({ ...base, tenantId: "t2", namespaces: undefined, limit: 100 })).items.map((m) => m.content)).toEqual(["Fact of t2"]);
      // Without a count: the same pages, and the total is where the page ends.
      for (const q of [base, { ...base, offset: 2 }, { ...base, order: "desc" as const }, { ...base, offset: 6 }]) {
        const counted = await repo.list(q);
        const paged = await repo.list({ ...q, countTotal: false });
        expect(paged.items.map((m) => m.id)).toEqual(counted.items.map((m) => m.id));
        expect(paged.total).toBe(q.offset + counted.items.length);
      }
    });

    it("a walk through the pages sees each memory once, in order, across runs of equal times; filtered pages are full", async () => {
      const records: MemoryRecord[] = [];
      for (let i = 0; i < 40; i++) {
        const at = new Date(Date.parse(NOW) - (i < 15 ? 3 : i < 35 ? 2 : 1) * 60_000).toISOString();
        records.push(memory({ content: `Tied fact ${i}`, createdAt: at, updatedAt: at, metadata: { team: i % 4 ? "red" : "blue" } }));
      }
      await repo.write({ records });
      const inOrder = (list: MemoryRecord[], dir: 1 | -1) =>
        [...list].sort((x, y) => dir * (x.createdAt < y.createdAt ? -1 : x.createdAt > y.createdAt ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
      for (const [order, dir] of [["asc", 1] as const, ["desc", -1] as const])
        for (const filter of [undefined, parseFilter({ key: "team", value: "red" })]) {
          const seen: MemoryRecord[] = [];
          const totals = new Set<number>();
          for (let offset = 0; ; offset += 6) {
            const page = await repo.list({
              tenantId: "t1",
              namespaces: ["ns1"],
              sort: "createdAt",
              order,
              offset,
              limit: 6,
              now: NOW,
              ...(filter ? { filter } : {}),
            });
            seen.push(...page.items);
            totals.add(page.total);
            if (page.items.length < 6) break;
          }
          const wanted = inOrder(filter ? records.filter((r) => r.metadata?.team === "red") : records, dir);
          expect(seen.map((m) => m.id)).toEqual(wanted.map((m) => m.id));
          expect([...totals]).toEqual([wanted.length]);
        }
    });

    it("lists across namespaces without a count: the same merged page as with one", async () => {
      const records: MemoryRecord[] = [];
      for (let i = 0; i < 12; i++) {
        const at = new Date(Date.parse(NOW) - (12 - i) * 60_000).toISOString();
        records.push(memory({ content: `Spread fact ${i}`, namespace: i % 3 === 0 ? "ns2" : "ns1", createdAt: at, updatedAt: at }));
      }
      await repo.write({ records });
      const q = { tenantId: "t1", namespaces: ["ns1", "ns2"], sort: "updatedAt" as const, order: "desc" as const, offset: 1, limit: 4, now: NOW };
      const counted = await repo.list(q);
      expect(counted.total).toBe(12);
      const paged = await repo.list({ ...q, countTotal: false });
      expect(paged.items.map((m) => m.content)).toEqual(["Spread fact 10", "Spread fact 9", "Spread fact 8", "Spread fact 7"]);
      expect(paged.items.map((m) => m.id)).toEqual(counted.items.map((m) => m.id));
      expect(paged.total).toBe(5);
    });

    it("keeps each memory's sources in order with their positions as they are gained, changed and dropped, across a restart", async () => {
      const src = (documentId: string, ...chunkPositions: number[]) => ({ documentId, chunkPositions });
      const a = memory({ content: "Olga collects stamps", sources: [src("d3", 2), src("d1", 0)] });
      await repo.write({ records: [a] });
      const gained = { ...a, sources: [src("d3", 2), src("d1", 0), src("d2", 1, 4)] };
      await change(a, gained);
      expect((await repo.findById("t1", a.id))?.sources).toEqual(gained.sources);
      const changed = { ...a, sources: [src("d1", 0, 5), src("d2", 1, 4)] };
      await change(a, changed);
      expect((await repo.findById("t1", a.id))?.sources).toEqual(changed.sources);
      // One source at a time, as formation adds them: every one kept, in the order gained.
      let many = changed;
      for (let i = 0; i < 120; i++) {
        many = { ...many, sources: [...many.sources, src(`x${i}`, i % 3)] };
        await change(a, many);
      }
      expect((await repo.findById("t1", a.id))?.sources).toEqual(many.sources);
      expect((await repo.findByDocument("t1", "x77")).map((m) => m.id)).toEqual([a.id]);
      if (!h.reopen) return;
      repo = await h.reopen();
      expect(await repo.findById("t1", a.id)).toEqual(many);
      // A write before anything loaded the memory's scope still changes only what changed.
      const later = { ...many, sources: [...many.sources.filter((s) => s.documentId !== "d2"), src("d0")] };
      await change(a, later);
      expect((await repo.findById("t1", a.id))?.sources).toEqual(later.sources);
      expect((await repo.search({ tenantId: "t1", namespaces: ["ns1"], text: "stamps", limit: 5, now: NOW }))[0]?.memory.sources).toEqual(later.sources);
      expect(await repo.findByDocument("t1", "d2")).toEqual([]);
    });

    it("keeps everything across a restart", async () => {
      if (!h.reopen) return;
      const a = memory({ content: "Nora studies astronomy", sources: [{ documentId: "d9", chunkPositions: [3] }] });
      await repo.write({ records: [a], formation: { tenantId: "t1", documentId: "d9", generation: 2 } });
      repo = await h.reopen();
      expect(await repo.findById("t1", a.id)).toEqual(a);
      expect(await repo.isFormed("t1", "d9", 2)).toBe(true);
      expect(await search("astronomy")).toEqual(["Nora studies astronomy"]);
    });
  });
}
