import { analyze } from "../src/text";
import { analyzeForStorage, parseStoredTerms } from "../src/engine/analysis";
import { SearchEngine } from "../src/engine/search-engine";
import { type EngineQuery, type EngineRecord, partitionKey } from "../src/engine/types";
import { Bm25Index } from "../../../bench/src/quality/bm25";

const P1 = partitionKey("t1", "ns1");
const P2 = partitionKey("t1", "ns2");
const P3 = partitionKey("t2", "ns1");

function unit(xs: number[]): Float32Array {
  const v = Float32Array.from(xs);
  const n = Math.hypot(...xs);
  return v.map((x) => x / n);
}

/** An engine over an in-memory "store" (partition -> records), counting loads. */
function setup(initial: Record<string, EngineRecord[]> = {}) {
  const store = new Map<string, EngineRecord[]>(Object.entries(initial));
  const loads: string[] = [];
  const engine = new SearchEngine({
    load: (p) => {
      loads.push(p);
      return store.get(p) ?? [];
    },
  });
  const q = (text: string, more: Partial<EngineQuery> = {}) => engine.search({ partitions: [P1], text, denseWeight: 0, limit: 10, ...more });
  return { engine, store, loads, q };
}

describe("analyzeForStorage", () => {
  it("keeps the analysed terms in text order and loads back without re-analysis", () => {
    const text = "Running dogs chased the running cats";
    expect(analyzeForStorage(text)).toBe("run dog chase run cat");
    expect(parseStoredTerms(analyzeForStorage(text))).toEqual(analyze(text));
    expect(parseStoredTerms("")).toEqual([]);
  });
});

describe("SearchEngine", () => {
  it("loads a partition lazily, once, and only the partitions a query names", () => {
    const { engine, loads } = setup({ [P1]: [{ rid: 1, text: "alpha" }], [P2]: [{ rid: 2, text: "alpha" }] });
    expect(loads).toEqual([]);
    engine.search({ partitions: [P1], text: "alpha", denseWeight: 0, limit: 5 });
    engine.search({ partitions: [P1], text: "alpha beta", denseWeight: 0, limit: 5 });
    expect(loads).toEqual([P1]);
    expect(engine.isLoaded(P2)).toBe(false);
    engine.evict(P1);
    engine.search({ partitions: [P1], text: "alpha", denseWeight: 0, limit: 5 });
    expect(loads).toEqual([P1, P1]);
  });

  it("ranks by BM25 like the reference implementation (rare terms and term frequency win)", () => {
    const docs = [
      "the cat sat on the mat",
      "a dog and a cat and another cat",
      "dogs are loyal animals that love walks",
      "a zebra is a striped animal",
      "cat food prices rose sharply this year for cat owners and cat shelters",
      "nothing relevant here at all",
    ];
    const { q } = setup({ [P1]: docs.map((text, i) => ({ rid: i + 1, text })) });
    const ref = new Bm25Index(
      docs.map((text, i) => ({ id: String(i + 1), text })),
      { k1: 1.2, b: 0.75, stopWords: new Set(["the", "a", "and", "on", "are", "that", "is", "this", "for", "at", "all", "here"]), stem: true },
    );
    for (const query of ["cat", "zebra cat", "dog animal", "striped zebra"]) {
      const got = q(query).map((h) => String(h.rid));
      const want = ref.search(query, 10).map((h) => h.id);
      expect(got.slice(0, 2)).toEqual(want.slice(0, 2));
    }
    expect(q("zebra")[0]!.rid).toBe(4);
    expect(q("nonexistentword")).toEqual([]);
  });

  it("never returns records of a partition the query does not name; multi-partition queries merge with shared statistics", () => {
    const { engine } = setup({
      [P1]: [{ rid: 1, text: "launch code nightingale" }],
      [P2]: [{ rid: 2, text: "launch code nightingale copy" }],
      [P3]: [{ rid: 3, text: "launch code nightingale" }],
    });
    const s = (partitions: string[]) => engine.search({ partitions, text: "nightingale launch", denseWeight: 0, limit: 10 }).map((h) => h.rid);
    expect(s([P1])).toEqual([1]);
    expect(s([P3])).toEqual([3]);
    expect(s([P1, P2]).sort()).toEqual([1, 2]);
    expect(s([partitionKey("t9", "ns1")])).toEqual([]);
    expect(s([])).toEqual([]);
    // The shorter record ranks first whichever partition order the query lists.
    expect(s([P2, P1])[0]).toBe(1);
  });

  it("ranks across partitions with summed statistics (a term rare overall beats one common overall)", () => {
    // In P1 alone "alpha" and "beta" are equally rare; P2 is full of "alpha", so across both "beta" is rarer.
    const p2 = Array.from({ length: 20 }, (_, i) => ({ rid: 100 + i, text: `alpha filler${i}` }));
    const { engine } = setup({
      [P1]: [
        { rid: 1, text: "alpha gamma" },
        { rid: 2, text: "beta gamma" },
      ],
      [P2]: p2,
    });
    const alone = engine.search({ partitions: [P1], text: "alpha beta", denseWeight: 0, limit: 2 });
    expect(alone[0]!.score).toBeCloseTo(alone[1]!.score, 12);
    const both = engine.search({ partitions: [P1, P2], text: "alpha beta", denseWeight: 0, limit: 30 });
    expect(both[0]!.rid).toBe(2);
    expect(both.findIndex((h) => h.rid === 1)).toBeGreaterThan(0);
  });

  it("upsert replaces a record's terms; remove tombstones it; statistics follow", () => {
    const { engine, q } = setup({
      [P1]: [
        { rid: 1, text: "zebras graze on savanna grass" },
        { rid: 2, text: "lions hunt at dusk" },
      ],
    });
    expect(q("zebra").map((h) => h.rid)).toEqual([1]);
    engine.upsert(P1, [{ rid: 1, text: "penguins swim in cold water" }]);
    expect(q("zebra")).toEqual([]);
    expect(q("penguin").map((h) => h.rid)).toEqual([1]);
    engine.remove(P1, [2, 999]);
    expect(q("lion")).toEqual([]);
    engine.upsert(P1, [{ rid: 3, analyzed: analyzeForStorage("lions again") }]);
    expect(q("lion").map((h) => h.rid)).toEqual([3]);
  });

  it("upserts into a partition not loaded yet are left to the loader (no double counting)", () => {
    const { engine, store, q } = setup();
    store.set(P1, [{ rid: 1, text: "kiwi fruit" }]);
    engine.upsert(P1, [{ rid: 1, text: "kiwi fruit" }]);
    const hits = q("kiwi");
    expect(hits.map((h) => h.rid)).toEqual([1]);
  });

  it("compacts after many removals and keeps answering the same", () => {
    const records = Array.from({ length: 400 }, (_, i) => ({ rid: i + 1, text: `record ${i} ${(i + 1) % 2 ? "odd" : "even"} common words here` }));
    const { engine, q } = setup({ [P1]: records });
    const before = q("odd common", { limit: 500 }).length;
    expect(before).toBe(400);
    engine.remove(
      P1,
      records.filter((r) => r.rid % 2 === 0).map((r) => r.rid),
    );
    const mem = engine.memoryBytes();
    const after = q("odd common", { limit: 500 });
    expect(after).toHaveLength(200);
    expect(after.every((h) => h.rid % 2 === 1)).toBe(true);
    // Compaction ran: the tombstoned half is gone from memory.
    expect(mem).toBeLessThan(0.8 * setupBytes(records));
    expect(q("even")).toEqual([]);
  });

  it("compacts a large partition in the background: searches keep answering right meanwhile, changes made during the copy survive the swap", async () => {
    // 32 dimensions of incommensurable frequencies: every record's vector is its own nearest.
    const vec = (i: number) => unit(Array.from({ length: 32 }, (_, k) => Math.sin(i * Math.sqrt(k + 2) + k)));
    const records = Array.from({ length: 3000 }, (_, i) => ({
      rid: i + 1,
      text: `record ${i} ${(i + 1) % 2 ? "odd" : "even"} common words here`,
      vector: vec(i),
      model: "m",
    }));
    const store = new Map([[P1, records as EngineRecord[]]]);
    const engine = new SearchEngine({ load: (p) => store.get(p) ?? [], compactInPlaceBelow: 100, compactionSliceMs: 0 });
    const q = (text: string, more: Partial<EngineQuery> = {}) => engine.search({ partitions: [P1], text, denseWeight: 0, limit: 5000, ...more });
    expect(q("odd common")).toHaveLength(3000);
    // A dense query first: the partition keeps the model's vectors (a later one would reload it from the store).
    expect(engine.search({ partitions: [P1], text: "zzz", vector: vec(4), model: "m", denseWeight: 1, limit: 1 })[0]?.rid).toBe(5);
    const bytes = engine.partitionBytes(P1);
    // Removing the even half leaves 1500 dead slots against 1500 live: compaction starts, in the background.
    engine.remove(
      P1,
      records.filter((r) => r.rid % 2 === 0).map((r) => r.rid),
    );
    expect(engine.isCompacting(P1)).toBe(true);
    const during = q("odd common");
    expect(during).toHaveLength(1500);
    expect(during.every((h) => h.rid % 2 === 1)).toBe(true);
    // Changes while the copy is built: an upsert of a removed rid, a new record, a removal, a replaced text.
    engine.upsert(P1, [
      { rid: 2, text: "resurrected even record", vector: vec(2), model: "m" },
      { rid: 9001, text: "brand new odd walrus", vector: vec(9001), model: "m" },
      { rid: 1, text: "record zero now about herons", vector: vec(1), model: "m" },
    ]);
    engine.remove(P1, [3]);
    expect(engine.isCompacting(P1)).toBe(true);
    await engine.compacted(P1);
    expect(engine.isCompacting(P1)).toBe(false);
    expect(engine.compactionCount()).toBe(1);
    expect(engine.partitionBytes(P1)).toBeLessThan(0.8 * bytes);
    const after = q("odd common");
    expect(after.map((h) => h.rid).sort((a, b) => a - b)).toEqual(
      records
        .filter((r) => r.rid % 2 === 1 && r.rid !== 3 && r.rid !== 1)
        .map((r) => r.rid)
        .concat(9001),
    );
    expect(q("resurrected").map((h) => h.rid)).toEqual([2]);
    expect(q("walrus").map((h) => h.rid)).toEqual([9001]);
    expect(q("herons").map((h) => h.rid)).toEqual([1]);
    expect(q("even")).toEqual([{ ...q("even")[0]!, rid: 2 }]);
    // The vectors came along: the dense side finds a record by its vector alone.
    const nearest = (i: number) => engine.search({ partitions: [P1], text: "zzz", vector: vec(i), model: "m", denseWeight: 1, limit: 1 })[0]?.rid;
    expect([nearest(9001), nearest(4), nearest(2998)]).toEqual([9001, 5, 2999]);
  });

  it("a background compaction overtaken by an eviction is dropped; the reload serves the store's records", async () => {
    const records = Array.from({ length: 400 }, (_, i) => ({ rid: i + 1, text: `item ${i} shared` }));
    const store = new Map([[P1, records as EngineRecord[]]]);
    const engine = new SearchEngine({ load: (p) => store.get(p) ?? [], compactInPlaceBelow: 10, compactionSliceMs: 0 });
    expect(engine.search({ partitions: [P1], text: "shared", denseWeight: 0, limit: 1000 })).toHaveLength(400);
    engine.remove(
      P1,
      records.slice(0, 300).map((r) => r.rid),
    );
    store.set(P1, records.slice(300));
    expect(engine.isCompacting(P1)).toBe(true);
    engine.evict(P1);
    await engine.compacted(P1);
    expect(engine.compactionCount()).toBe(0);
    expect(engine.search({ partitions: [P1], text: "shared", denseWeight: 0, limit: 1000 })).toHaveLength(100);
  });

  it("applies accept while generating candidates, so `limit` accepted hits come back when they exist", () => {
    // 300 strong matches rejected by the filter, 5 weak ones accepted.
    const records = [
      ...Array.from({ length: 300 }, (_, i) => ({ rid: i + 1, text: "quantum quantum quantum physics" })),
      ...Array.from({ length: 5 }, (_, i) => ({ rid: 1000 + i, text: `quantum mention in a much longer text about cooking number ${i} and more words` })),
    ];
    const { q } = setup({ [P1]: records });
    const hits = q("quantum physics", { limit: 3, accept: (rid) => rid >= 1000 });
    expect(hits).toHaveLength(3);
    expect(hits.every((h) => h.rid >= 1000)).toBe(true);
    expect(q("quantum physics", { limit: 10, accept: (rid) => rid >= 1000 })).toHaveLength(5);
    expect(q("quantum physics", { limit: 3, accept: () => false })).toEqual([]);
  });

  it("dense side compares only vectors of the query's model, only when the dense weight is positive", () => {
    const a = unit([1, 0, 0]);
    const b = unit([0, 1, 0]);
    const { engine, q } = setup({
      [P1]: [
        { rid: 1, text: "first record", vector: a, model: "m1" },
        { rid: 2, text: "second record", vector: a, model: "m2" },
        { rid: 3, text: "third record", vector: b, model: "m1" },
      ],
    });
    const dense = q("zzz", { vector: a, model: "m1", denseWeight: 1 });
    expect(dense.map((h) => h.rid)).toEqual([1]);
    expect(dense[0]!.vectorScore).toBeCloseTo(1, 5);
    expect(dense[0]!.keywordScore).toBe(0);
    expect(q("zzz", { vector: a, model: "m2", denseWeight: 1 }).map((h) => h.rid)).toEqual([2]);
    expect(q("zzz", { vector: a, model: "m1", denseWeight: 0 })).toEqual([]);
    expect(q("zzz", { vector: a, model: "m3", denseWeight: 1 })).toEqual([]);
    // Replaced records lose their vector.
    engine.upsert(P1, [{ rid: 1, text: "first record", vector: b, model: "m1" }]);
    expect(
      q("zzz", { vector: a, model: "m1", denseWeight: 1 })
        .map((h) => h.rid)
        .sort(),
    ).toEqual([]);
    expect(
      q("zzz", { vector: b, model: "m1", denseWeight: 1 })
        .map((h) => h.rid)
        .sort(),
    ).toEqual([1, 3]);
  });

  it("fuses keyword and dense rankings: the dense side orders records the keyword side cannot tell apart, and adds records it missed", () => {
    const q0 = unit([1, 0, 0]);
    const { q } = setup({
      [P1]: [
        { rid: 1, text: "solar panel efficiency", vector: unit([0, 0, 1]), model: "m" },
        { rid: 2, text: "solar panel efficiency", vector: unit([1, 0.1, 0]), model: "m" },
        { rid: 3, text: "photovoltaic output", vector: q0, model: "m" },
      ],
    });
    expect(q("solar panel").map((h) => h.rid)).toEqual([1, 2]);
    const hits = q("solar panel", { vector: q0, model: "m", denseWeight: 0.5 });
    expect(hits.map((h) => h.rid)).toEqual([2, 1, 3]);
    const hit3 = hits.find((h) => h.rid === 3)!;
    expect(hit3.keywordScore).toBe(0);
    expect(hit3.similarity).toBeCloseTo(1, 4);
  });

  describe("dense weight calibrated by the agreement of the two rankings", () => {
    // Keyword order (term frequency): 1, 2, 3; record 4 has no keyword match. Dense order: 4, 3, 2, 1.
    const q0 = unit([1, 0, 0]);
    const records: EngineRecord[] = [
      { rid: 1, text: "solar solar solar", vector: unit([0.2, 1, 0]), model: "m" },
      { rid: 2, text: "solar solar", vector: unit([1, 1, 0]), model: "m" },
      { rid: 3, text: "solar", vector: unit([1, 0.3, 0]), model: "m" },
      { rid: 4, text: "photovoltaic output", vector: q0, model: "m" },
    ];
    const search = (agreementDepth: number, denseWeight = 1) =>
      new SearchEngine({ load: () => records, ranking: { agreementDepth } }).search({
        partitions: [P1],
        text: "solar",
        vector: q0,
        model: "m",
        denseWeight,
        limit: 10,
      });
    const rrf = (keywordRank: number, denseRank: number, w: number) => 1 / (60 + keywordRank) + w / (60 + denseRank);

    it("keeps the whole weight when the dense top holds the keyword top (and with calibration off)", () => {
      const keywordOnly = new SearchEngine({ load: () => records }).search({ partitions: [P1], text: "solar", denseWeight: 0, limit: 10 });
      expect(keywordOnly.map((h) => h.rid)).toEqual([1, 2, 3]);
      // Depth 10: the keyword side found 3 records, all among the dense top 10 -> agreement 1.
      const full = search(10);
      const fixed = search(0);
      expect(full.map((h) => h.rid)).toEqual([1, 3, 2, 4]);
      expect(fixed.map((h) => h.rid)).toEqual([1, 3, 2, 4]);
      expect(full.map((h) => h.score)).toEqual(fixed.map((h) => h.score));
      expect(full[0]!.score).toBeCloseTo(rrf(1, 4, 1), 12);
      expect(full[3]!.score).toBeCloseTo(1 / 61, 12);
    });

    it("scales the weight by the shared share of the tops, down to 0 when they are disjoint", () => {
      // Depth 3: keyword top {1, 2, 3}, dense top {4, 3, 2}: 2 of 3 shared.
      const partial = search(3);
      expect(partial.map((h) => h.rid)).toEqual([1, 2, 3, 4]);
      expect(partial[0]!.score).toBeCloseTo(rrf(1, 4, 2 / 3), 12);
      expect(partial[1]!.score).toBeCloseTo(rrf(2, 3, 2 / 3), 12);
      expect(partial[3]!.score).toBeCloseTo(2 / 3 / 61, 12);
      // Depth 1: keyword top {1}, dense top {4}: nothing shared, the keyword ranking stands and the
      // record only the dense side found follows it (ordered by the dense ranking, not dropped).
      const none = search(1);
      expect(none.map((h) => h.rid)).toEqual([1, 2, 3, 4]);
      expect(none[0]!.score).toBeCloseTo(1 / 61, 12);
      expect(none[3]!.score).toBe(0);
      expect(none[3]!.vectorScore).toBeCloseTo(1, 5);
    });

    it("leaves the dense side alone when the keyword side finds nothing", () => {
      const hits = new SearchEngine({ load: () => records, ranking: { agreementDepth: 10 } }).search({
        partitions: [P1],
        text: "zzz",
        vector: q0,
        model: "m",
        denseWeight: 0.5,
        limit: 10,
      });
      expect(hits.map((h) => h.rid)).toEqual([4, 3, 2, 1]);
      expect(hits[0]!.score).toBeCloseTo(0.5 / 61, 12);
    });
  });

  it("pseudo-relevance feedback lifts a record that shares vocabulary with the best matches", () => {
    const records = [
      { rid: 1, text: "jaguar speed engine horsepower torque sedan" },
      { rid: 2, text: "jaguar engine horsepower torque coupe" },
      { rid: 3, text: "jaguar torque horsepower engine roadster" },
      // Tie on the query term alone (same length); 5 talks like the top records, 4 does not.
      { rid: 4, text: "jaguar rainforest predator spots prey river" },
      { rid: 5, text: "jaguar dealership engine horsepower torque service" },
      ...Array.from({ length: 40 }, (_, i) => ({ rid: 100 + i, text: `unrelated filler text number ${i}` })),
    ];
    const on = new SearchEngine({ load: () => records, ranking: { feedbackDocs: 3 } });
    const off = new SearchEngine({ load: () => records, ranking: { feedbackDocs: 0 } });
    const ranks = (e: SearchEngine) => e.search({ partitions: [P1], text: "jaguar speed", denseWeight: 0, limit: 10 }).map((h) => h.rid);
    const withFb = ranks(on);
    const without = ranks(off);
    expect(without[0]).toBe(1);
    expect(without.indexOf(4)).toBeLessThan(without.indexOf(5));
    expect(withFb[0]).toBe(1);
    expect(withFb.indexOf(5)).toBeLessThan(withFb.indexOf(4));
    expect(new Set(withFb)).toEqual(new Set(without));
  });

  it("similarity is in [0, 1]: 1 when every query term is present, lower when only common terms are; a result ranked next to a strong one shares its evidence", () => {
    const { engine, q } = setup({
      [P1]: [
        { rid: 1, text: "sarah was promoted to vp of product" },
        { rid: 2, text: "the product launch is next week" },
        { rid: 3, text: "product roadmap product owner product" },
      ],
    });
    const hits = q("sarah promoted product");
    expect(hits[0]!.rid).toBe(1);
    expect(hits[0]!.similarity).toBe(1);
    const weak = hits.find((h) => h.rid === 2)!;
    // On its own the record holds only the query's most common word: under the default threshold.
    const own = engine.similarity(P1, 2, "sarah promoted product")!;
    expect(own).toBeGreaterThan(0);
    expect(own).toBeLessThan(0.6);
    // Ranked below the record that holds all of it, it shares that evidence in proportion to its fused score.
    expect(weak.similarity).toBeGreaterThan(own);
    expect(weak.similarity).toBeLessThan(hits[0]!.similarity);
    for (const h of hits) expect(h.similarity).toBeLessThanOrEqual(1);
    expect(engine.similarity(P1, 1, "sarah promoted")).toBe(1);
    expect(engine.similarity(P1, 2, "sarah promoted")).toBe(0);
    expect(engine.similarity(P1, 99, "sarah")).toBeUndefined();
    expect(engine.similarity(P1, 1, "zzz", unit([1, 0]), "m")).toBe(0);
  });
});

function setupBytes(records: EngineRecord[]): number {
  const e = new SearchEngine({ load: () => records });
  e.search({ partitions: [P1], text: "x", denseWeight: 0, limit: 1 });
  return e.memoryBytes();
}
