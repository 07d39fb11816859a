import { prng } from "@engram/testing";
import { parseStoredTerms } from "../src/engine/analysis";
import { BulkLoad } from "../src/engine/bulk-load";
import { Partition } from "../src/engine/partition";
import { SearchEngine } from "../src/engine/search-engine";
import { type EngineRecord, partitionKey } from "../src/engine/types";

/** Everything a search reads from a partition, block stats only as far as the list reaches. */
function snapshot(p: Partition) {
  return {
    termText: p.termText,
    dict: [...p.dict],
    slots: p.slots,
    live: p.live,
    dead: p.dead,
    totalLen: p.totalLen,
    rids: Array.from(p.rids.subarray(0, p.slots)),
    lens: Array.from(p.lens.subarray(0, p.slots)),
    alive: Array.from(p.alive.subarray(0, p.slots)),
    seq: Array.from({ length: p.slots }, (_, s) => Array.from(p.termsOf(s))),
    slotOf: [...p.slotOf].sort((a, b) => a[0] - b[0]),
    postings: p.postings.map((q) => ({
      docs: Array.from(q.docs.subarray(0, q.n)),
      tfs: Array.from(q.tfs.subarray(0, q.n)),
      n: q.n,
      df: q.df,
      maxTf: q.maxTf,
      mins: [q.min1, q.min2, q.min3],
      blocks: q.blocks ? Array.from(q.blocks.subarray(0, 4 * Math.ceil(q.n / 64))) : null,
    })),
    vectors: [...p.vectors].map(([m, b]) => [m, b.rows, Array.from(b.data.subarray(0, b.rows * b.dims)), Array.from(b.rowSlot.subarray(0, b.rows))]),
  };
}

describe("BulkLoad", () => {
  it("builds the same partition as adding the records one by one (stored analyses, term lists, repeated rids, vectors)", () => {
    const rand = prng(5);
    for (let round = 0; round < 12; round++) {
      const vocab = Array.from({ length: 5 + Math.floor(rand() * 300) }, (_, i) => (i % 50 === 7 ? `é${i}ß` : `t${i}`));
      const records = Array.from({ length: 20 + Math.floor(rand() * 700) }, () => {
        const terms = Array.from({ length: Math.floor(rand() * 150) }, () => vocab[Math.floor(vocab.length * rand() ** 2)]!);
        if (rand() < 0.05) terms.push(...Array.from({ length: 70 }, () => "t0"));
        const rid = 1 + Math.floor(rand() * 600);
        const stored = rand() < 0.7;
        // Stored analyses as parseStoredTerms reads them: empty terms from doubled, leading or trailing spaces included.
        const text = stored ? (rand() < 0.05 ? ` ${terms.join("  ")} ` : terms.join(" ")) : undefined;
        const vector = rand() < 0.5 ? Float32Array.from([rand(), rand(), rand()]) : undefined;
        return { rid, text, terms, vector, model: rand() < 0.8 ? "m" : "other" };
      });
      const one = new Partition("p", new Set(["m"]));
      const bulk = new Partition("p", new Set(["m"]));
      const loader = new BulkLoad(bulk);
      for (const r of records) {
        one.add(r.rid, r.text !== undefined ? parseStoredTerms(r.text) : r.terms, r.vector, r.model);
        loader.push(r.rid, r.text ?? r.terms, r.vector, r.model);
      }
      let steps = 0;
      for (const _ of loader.build(50)) steps++;
      expect(steps).toBeGreaterThan(0);
      // (Compared as JSON text: deep equality of thousands of arrays is slow; Infinity and null never mix here.)
      expect(JSON.stringify(snapshot(bulk))).toBe(JSON.stringify(snapshot(one)));
      // Both keep working the same after the load, compaction included.
      for (let i = 0; i < 300; i++) {
        const rid = 1 + Math.floor(rand() * 700);
        if (rand() < 0.5) {
          one.remove(rid);
          bulk.remove(rid);
        } else {
          const terms = Array.from({ length: Math.floor(rand() * 40) }, () => vocab[Math.floor(rand() * vocab.length)]!);
          one.add(rid, terms);
          bulk.add(rid, terms);
        }
      }
      // Compaction (now through the bulk loader) leaves what adding the live records anew would.
      const fresh = new Partition("p", new Set(["m"]));
      for (let slot = 0; slot < one.slots; slot++)
        if (one.alive[slot])
          fresh.add(
            one.rids[slot]!,
            Array.from(one.termsOf(slot), (id) => one.termText[id]!),
          );
      one.compact();
      bulk.compact();
      expect(JSON.stringify({ ...snapshot(one), vectors: [] })).toBe(JSON.stringify({ ...snapshot(fresh), vectors: [] }));
      expect(JSON.stringify(snapshot(bulk))).toBe(JSON.stringify(snapshot(one)));
    }
  });

  it("refuses a partition that already holds records", () => {
    const p = new Partition("p", new Set());
    p.add(1, ["a"]);
    expect(() => new BulkLoad(p)).toThrow();
  });
});

describe("SearchEngine.warm", () => {
  const P = partitionKey("t", "n");
  const records = (n: number, from = 1): EngineRecord[] =>
    Array.from({ length: n }, (_, i) => ({ rid: from + i, analyzed: `w${(from + i) % 97} common w${(from + i) % 13}` }));

  it("loads in slices, leaving the event loop free in between, and then answers like a load on first query", async () => {
    const store = records(20000);
    let loads = 0;
    const engine = new SearchEngine({
      load: () => {
        loads++;
        return store;
      },
    });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      const warming = engine.warm(P, 1);
      expect(engine.isWarming(P)).toBe(true);
      expect(engine.isLoaded(P)).toBe(false);
      await warming;
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
    expect(engine.isLoaded(P)).toBe(true);
    expect(loads).toBe(1);
    const reference = new SearchEngine({ load: () => store });
    const q = { partitions: [P], text: "w5 w7 common", denseWeight: 0, limit: 20 };
    expect(engine.search(q)).toEqual(reference.search(q));
    expect(loads).toBe(1);
  });

  it("applies the changes made while it loads, and gives way to a query that needs the partition at once", async () => {
    const store = records(5000);
    const engine = new SearchEngine({ load: () => [...store] });
    const warming = engine.warm(P, 0);
    await new Promise((resolve) => setImmediate(resolve));
    // A write reaches the store first, then the engine (as the chunk index does).
    const added = records(3, 100000).map((r) => ({ ...r, analyzed: "zebra stripes" }));
    store.push(...added);
    engine.upsert(P, added);
    store.splice(0, 10);
    engine.remove(
      P,
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
    await warming;
    const q = (text: string) => engine.search({ partitions: [P], text, denseWeight: 0, limit: 5000 }).map((h) => h.rid);
    expect(q("zebra")).toEqual([100000, 100001, 100002]);
    expect(q("common").length).toBe(4990);

    const other = new SearchEngine({ load: () => store });
    const second = other.warm(P, 0);
    expect(other.search({ partitions: [P], text: "zebra", denseWeight: 0, limit: 5 }).map((h) => h.rid)).toEqual([100000, 100001, 100002]);
    expect(other.isWarming(P)).toBe(false);
    await second;
    expect(other.isLoaded(P)).toBe(true);
  });
});
