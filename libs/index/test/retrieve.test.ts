import { prng } from "@engram/testing";
import { BLOCK, Partition } from "../src/engine/partition";
import { collectionStats, documentFrequency, idf, retrievalCounters, retrieveTopK, scoreGrid, termScore, type WeightedTerm } from "../src/engine/retrieve";
import { TopK } from "../src/engine/top-k";
import { SearchEngine } from "../src/engine/search-engine";
import { partitionKey } from "../src/engine/types";

const PARAMS = { k1: 1.2, b: 0.75 };

interface Ranked {
  part: number;
  slot: number;
  score: number;
}

/** Term frequencies of every slot (term id -> tf), computed once per partition state. */
const tfCache = new WeakMap<Partition, { version: number; tfs: Map<number, number>[] }>();
function slotTfs(part: Partition): Map<number, number>[] {
  const c = tfCache.get(part);
  if (c && c.version === part.version) return c.tfs;
  const tfs = Array.from({ length: part.slots }, (_, slot) => {
    const m = new Map<number, number>();
    for (const id of part.termsOf(slot)) m.set(id, (m.get(id) ?? 0) + 1);
    return m;
  });
  tfCache.set(part, { version: part.version, tfs });
  return tfs;
}

/** Exhaustive BM25: every live record holding a positively weighted term, scored term by term, sorted, cut at k. */
function exhaustive(parts: Partition[], terms: readonly WeightedTerm[], k: number, accept?: (rid: number) => boolean): Ranked[] {
  const stats = collectionStats(parts);
  const c1 = PARAMS.k1 * (1 - PARAMS.b);
  const c2 = stats.avgLen > 0 ? (PARAMS.k1 * PARAMS.b) / stats.avgLen : 0;
  let total = 0;
  for (const t of terms) if (t.weight > 0) total += t.weight;
  const m = scoreGrid(total);
  const out: Ranked[] = [];
  parts.forEach((part, pi) => {
    const tfs = slotTfs(part);
    const ids = terms.map((t) => (t.weight > 0 ? (part.dict.get(t.term) ?? -1) : -1));
    for (let slot = 0; slot < part.slots; slot++) {
      if (!part.alive[slot]) continue;
      const norm = c1 + c2 * part.lens[slot]!;
      let score = 0;
      let matched = false;
      terms.forEach((t, i) => {
        const tf = ids[i]! < 0 ? 0 : (tfs[slot]!.get(ids[i]!) ?? 0);
        if (tf === 0) return;
        matched = true;
        score += termScore(t.weight, Math.min(tf, 0xffff), norm, m);
      });
      if (matched && (!accept || accept(part.rids[slot]!))) out.push({ part: pi, slot, score });
    }
  });
  return out.sort((a, b) => b.score - a.score || a.part - b.part || a.slot - b.slot).slice(0, k);
}

/** A random collection: Zipf-like vocabulary, varied lengths, repeated terms, duplicate records (ties), edits. */
function randomParts(rand: () => number, records: number, partitions: number, vocab: number): { parts: Partition[]; words: string[] } {
  const words = Array.from({ length: vocab }, (_, i) => `w${i}`);
  const word = () => words[Math.min(vocab - 1, Math.floor(vocab * rand() ** 2.5))]!;
  const parts = Array.from({ length: partitions }, (_, i) => new Partition(`p${i}`, new Set()));
  const made: string[][] = [];
  let rid = 1;
  for (let r = 0; r < records; r++) {
    const part = parts[Math.floor(rand() * partitions)]!;
    let terms: string[];
    const kind = rand();
    if (kind < 0.05 && made.length > 0)
      terms = made[Math.floor(rand() * made.length)]!; // duplicate: an exact tie
    else if (kind < 0.08)
      terms = Array.from({ length: 1 + Math.floor(rand() * 300) }, () => "w0"); // very high tf
    else terms = Array.from({ length: Math.floor(rand() * 120) }, word);
    made.push(terms);
    part.add(rid++, terms);
  }
  // Removals and replacements (tombstones; compaction when enough die).
  for (const part of parts) {
    const rids = [...part.slotOf.keys()];
    for (const r of rids) {
      const x = rand();
      if (x < 0.1) part.remove(r);
      else if (x < 0.15) part.add(r, Array.from({ length: Math.floor(rand() * 80) }, word));
    }
    if (rand() < 0.5 && part.needsCompaction()) part.compact();
  }
  return { parts, words };
}

function queryTerms(rand: () => number, parts: Partition[], words: string[]): WeightedTerm[] {
  const stats = collectionStats(parts);
  const counts = new Map<string, number>();
  const n = 1 + Math.floor(rand() * 10);
  for (let i = 0; i < n; i++) {
    const t = rand() < 0.05 ? `unknown${i}` : words[Math.floor(words.length * rand() ** 1.5)]!;
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return [...counts].map(([term, times]) => ({
    term,
    // Mostly the engine's own weights; sometimes arbitrary ones, zero or negative included (those are skipped).
    weight: rand() < 0.8 ? times * idf(stats.n, documentFrequency(parts, term)) : Math.round((rand() * 6 - 0.5) * 100) / 100,
  }));
}

describe("retrieveTopK (block-max MaxScore first pass)", () => {
  it("returns exactly what exhaustive BM25 returns on random collections and queries (records, scores, order, ties)", () => {
    const rand = prng(20240501);
    let compared = 0;
    retrievalCounters.probes = 0;
    for (let c = 0; c < 16; c++) {
      const records = [40, 300, 1500, 3000][c % 4]!;
      const { parts, words } = randomParts(rand, records, 1 + (c % 3), [20, 150, 800][c % 3]!);
      for (let q = 0; q < 25; q++) {
        const terms = queryTerms(rand, parts, words);
        const k = 1 + Math.floor(rand() * 80);
        const accept = rand() < 0.3 ? (rid: number) => rid % 3 !== 0 : undefined;
        const got = retrieveTopK(parts, terms, collectionStats(parts), PARAMS, k, accept).sorted();
        expect(got).toEqual(exhaustive(parts, terms, k, accept));
        compared++;
      }
    }
    expect(compared).toBe(400);
    // Both ways of adding a non-essential term ran (walking its postings, searching it per candidate).
    expect(retrievalCounters.probes).toBeGreaterThan(0);
  });

  it("keeps exact ties in slot order when more records tie than fit", () => {
    const part = new Partition("p", new Set());
    for (let i = 0; i < 3000; i++) part.add(i + 1, i % 10 === 0 ? ["alpha", "beta"] : ["gamma", "delta"]);
    const terms = [{ term: "alpha", weight: 2 }];
    const got = retrieveTopK([part], terms, collectionStats([part]), PARAMS, 7).sorted();
    expect(got.map((h) => h.slot)).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(new Set(got.map((h) => h.score)).size).toBe(1);
  });

  it("keeps per-block bounds across appends, removals and compaction", () => {
    const part = new Partition("p", new Set());
    for (let i = 0; i < 5 * BLOCK; i++) part.add(i + 1, i === 200 ? ["rare", "rare", "rare", "x"] : ["rare", ...Array.from({ length: 30 }, () => "filler")]);
    const p = part.postings[part.dict.get("rare")!]!;
    expect(p.blocks).not.toBeNull();
    // Block 3 holds slot 200 (tf 3, length 4) among tf-1 postings of length 31; block 0 only those.
    const block = (b: number) => Array.from(p.blocks!.subarray(4 * b, 4 * b + 4));
    expect(block(3)).toEqual([3, 31, 0xffff, 4]);
    expect(block(0)).toEqual([1, 31, 0xffff, 0xffff]);
    for (let i = 0; i < 5 * BLOCK; i += 2) part.remove(i + 1);
    part.compact();
    const q = part.postings[part.dict.get("rare")!]!;
    expect(q.n).toBe(q.df);
    const terms = [{ term: "rare", weight: 1.5 }];
    expect(retrieveTopK([part], terms, collectionStats([part]), PARAMS, 5).sorted()).toEqual(exhaustive([part], terms, 5));
  });

  it("skips postings it can prove cannot enter the top k", () => {
    const rand = prng(7);
    const part = new Partition("p", new Set());
    for (let i = 0; i < 20000; i++) {
      const terms = Array.from({ length: 20 + Math.floor(rand() * 40) }, () => (rand() < 0.5 ? "common" : `w${Math.floor(rand() * 500)}`));
      if (i % 997 === 0) terms.push("rare", "rare");
      part.add(i + 1, terms);
    }
    const stats = collectionStats([part]);
    const terms = ["common", "rare"].map((term) => ({ term, weight: idf(stats.n, documentFrequency([part], term)) }));
    const all = part.postings[part.dict.get("common")!]!.n + part.postings[part.dict.get("rare")!]!.n;
    retrievalCounters.postings = 0;
    const got = retrieveTopK([part], terms, stats, PARAMS, 10).sorted();
    expect(got).toEqual(exhaustive([part], terms, 10));
    expect(retrievalCounters.postings).toBeLessThan(all / 2);
  });
});

describe("TopK", () => {
  it("keeps the first k of (score desc, partition, slot) whatever the insertion order", () => {
    const rand = prng(3);
    for (let round = 0; round < 50; round++) {
      const entries = Array.from({ length: 200 }, (_, i) => ({ score: Math.floor(rand() * 8), part: Math.floor(i / 70), slot: i % 70 }));
      const shuffled = [...entries].sort(() => rand() - 0.5);
      const heap = new TopK(15);
      for (const e of shuffled) heap.push(e.score, e.part, e.slot);
      const want = [...entries].sort((a, b) => b.score - a.score || a.part - b.part || a.slot - b.slot).slice(0, 15);
      expect(heap.sorted()).toEqual(want);
    }
  });
});

describe("SearchEngine first pass", () => {
  it("ranks like exhaustive BM25 through the engine (feedback off)", () => {
    const rand = prng(11);
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`);
    const texts = Array.from({ length: 3000 }, () =>
      Array.from({ length: 5 + Math.floor(rand() * 60) }, () => words[Math.floor(300 * rand() ** 2)]!).join(" "),
    );
    const key = partitionKey("t", "n");
    const engine = new SearchEngine({ load: () => texts.map((text, i) => ({ rid: i + 1, analyzed: text })), ranking: { feedbackDocs: 0 } });
    const reference = new Partition(key, new Set());
    texts.forEach((t, i) => reference.add(i + 1, t.split(" ")));
    for (let q = 0; q < 30; q++) {
      const text = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => words[Math.floor(300 * rand() ** 1.5)]!).join(" ");
      const hits = engine.search({ partitions: [key], text, denseWeight: 0, limit: 20 });
      const stats = collectionStats([reference]);
      const counts = new Map<string, number>();
      for (const t of text.split(" ")) counts.set(t, (counts.get(t) ?? 0) + 1);
      const terms = [...counts].map(([term, n]) => ({ term, weight: n * idf(stats.n, documentFrequency([reference], term)) }));
      const want = exhaustive([reference], terms, 20);
      expect(hits.map((h) => [h.rid, h.keywordScore])).toEqual(want.map((w) => [reference.rids[w.slot], w.score]));
    }
  });
});
