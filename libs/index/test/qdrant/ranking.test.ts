import { HashingEmbedder } from "../../src/embedder";
import { idf } from "../../src/engine/retrieve";
import { SearchEngine } from "../../src/engine/search-engine";
import type { EngineRecord } from "../../src/engine/types";
import { agreement, fuseRankings, type RankedId, selectHits } from "../../src/qdrant/ranking";
import { ownEvidence, rankedSimilarities, scopedTerms, similarityTerms, termCoverage } from "../../src/similarity";
import { documentSparseVector, querySparseVector, termId } from "../../src/qdrant/sparse";
import { analyze } from "../../src/text";

const embedder = new HashingEmbedder(64);
const WORDS = ["orbit", "comet", "planet", "moon", "rocket", "launch", "gravity", "station", "crew", "engine", "fuel", "signal"];

/** A small deterministic corpus: record i mixes a few words, repeated differently. */
function corpus(n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: 3 + (i % 7) }, (_, j) => WORDS[(i * 5 + j * j + (i >> 2)) % WORDS.length]!)
      .concat(i % 3 === 0 ? ["the", "launches"] : [])
      .join(" "),
  );
}

function engineOver(texts: string[]) {
  const records: EngineRecord[] = texts.map((text, i) => ({ rid: i + 1, text, vector: embedder.embedOne(text), model: "m" }));
  // First pass only (no RM3 feedback): the ranking a sparse BM25 query reproduces.
  return new SearchEngine({ load: () => records, ranking: { feedbackDocs: 0 } });
}

const idOf = (rid: number) => String(rid).padStart(4, "0");

describe("sparse vectors", () => {
  it("term ids are FNV-1a 32-bit, stable and unsigned", () => {
    expect(termId("a")).toBe(0xe40c292c);
    expect(termId("")).toBe(0x811c9dc5);
    expect(termId("orbit")).toBe(termId("orbit"));
    for (const w of WORDS) {
      expect(Number.isInteger(termId(w))).toBe(true);
      expect(termId(w)).toBeGreaterThanOrEqual(0);
      expect(termId(w)).toBeLessThan(2 ** 32);
    }
  });

  it("documents: unique sorted indices, BM25 saturation that grows with tf and falls with length", () => {
    const p = { k1: 1.2, b: 0.75, avgLength: 4 };
    const v = documentSparseVector(["orbit", "comet", "orbit", "orbit"], p);
    expect(v.indices).toEqual([...v.indices].sort((a, b) => a - b));
    expect(new Set(v.indices).size).toBe(2);
    const norm = 1.2 * (1 - 0.75 + (0.75 * 4) / 4);
    const at = (vec: { indices: number[]; values: number[] }, t: string) => vec.values[vec.indices.indexOf(termId(t))]!;
    expect(at(v, "orbit")).toBeCloseTo(3 / (3 + norm), 12);
    expect(at(v, "comet")).toBeCloseTo(1 / (1 + norm), 12);
    const longer = documentSparseVector(["orbit", "comet", "moon", "moon", "moon", "moon", "moon", "moon"], p);
    expect(at(longer, "comet")).toBeLessThan(at(v, "comet"));
    for (const x of [...v.values, ...longer.values]) expect(x).toBeGreaterThan(0);
    expect(documentSparseVector([], p)).toEqual({ indices: [], values: [] });
  });

  it("queries: each distinct stem weighted by its count", () => {
    const q = querySparseVector(analyze("orbit orbits of the comet"));
    expect(q.indices.length).toBe(2);
    expect(q.values[q.indices.indexOf(termId("orbit"))]).toBe(2);
    expect(q.values[q.indices.indexOf(termId("comet"))]).toBe(1);
  });

  it("with Qdrant's idf applied to the query, the dot product is the embedded engine's BM25 score", () => {
    const texts = corpus(60);
    const engine = engineOver(texts);
    const analyzed = texts.map((t) => analyze(t));
    const avgLength = analyzed.reduce((s, a) => s + a.length, 0) / analyzed.length;
    const docs = analyzed.map((a) => documentSparseVector(a, { k1: 1.2, b: 0.75, avgLength }));
    const df = (id: number) => docs.filter((d) => d.indices.includes(id)).length;
    for (const query of ["orbit comet", "rocket launch crew", "gravity gravity station", "fuel signal engine moon"]) {
      const q = querySparseVector(analyze(query));
      const hits = engine.search({ partitions: ["p"], text: query, denseWeight: 0, limit: 1000 });
      expect(hits.length).toBeGreaterThan(5);
      for (const h of hits) {
        const d = docs[h.rid - 1]!;
        let score = 0;
        q.indices.forEach((id, k) => {
          const j = d.indices.indexOf(id);
          if (j >= 0) score += q.values[k]! * idf(texts.length, df(id)) * d.values[j]!;
        });
        expect(score).toBeCloseTo(h.keywordScore, 6);
      }
    }
  });
});

describe("similarity", () => {
  it("equals the embedded engine's similarity, keyword-only and with a dense side (one rule for both adapters)", () => {
    const texts = corpus(50);
    const engine = engineOver(texts);
    const analyzed = texts.map((t) => new Set(analyze(t)));
    const vectors = texts.map((t) => embedder.embedOne(t));
    const agreements: number[] = [];
    for (const query of ["orbit comet planet", "rocket launched", "signal of the crew station", "moon"]) {
      // Weighed for the scope as both adapters weigh them: each term's document frequency among the texts.
      const terms = scopedTerms(similarityTerms(query), (t) => analyzed.filter((a) => a.has(t)).length, texts.length);
      for (const dense of [false, true]) {
        const qv = embedder.embedOne(query);
        const hits = engine.search({ partitions: ["p"], text: query, denseWeight: dense ? 0.5 : 0, vector: qv, model: "m", limit: 30 });
        expect(hits.length).toBeGreaterThan(0);
        // The cosine counts in proportion to the agreement of the two rankings' tops.
        const keyword: RankedId[] = engine
          .search({ partitions: ["p"], text: query, denseWeight: 0, limit: 200 })
          .map((h) => ({ id: idOf(h.rid), score: h.keywordScore }));
        const denseRanked: RankedId[] = vectors.map((v, i) => ({ id: idOf(i + 1), score: Array.from(v).reduce((s, x, j) => s + x * qv[j]!, 0) }));
        const agree = agreement(
          keyword,
          [...denseRanked].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)),
          10,
        );
        if (dense) agreements.push(agree);
        const evidence = hits.map((h) => {
          const cos = dense ? agree * Array.from(qv).reduce((s, x, i) => s + x * vectors[h.rid - 1]![i]!, 0) : undefined;
          return {
            evidence: ownEvidence(
              termCoverage(terms, (t) => analyzed[h.rid - 1]!.has(t)),
              cos,
            ),
            score: h.score,
          };
        });
        const want = rankedSimilarities(evidence);
        hits.forEach((h, i) => expect(h.similarity).toBeCloseTo(want[i]!, 6));
      }
    }
    // Some query had a partial agreement: the comparison covers the cosine's weighting, not only its presence.
    expect(agreements.some((a) => a > 0 && a < 1)).toBe(true);
  });
});

describe("fusion", () => {
  it("ranks as the embedded engine does from the same keyword and dense rankings", () => {
    const texts = corpus(80);
    const engine = engineOver(texts);
    const vectors = texts.map((t) => embedder.embedOne(t));
    let reordered = 0;
    for (const query of ["orbit comet", "rocket launch crew", "station fuel", "gravity moon planet signal"]) {
      const qv = embedder.embedOne(query);
      const keyword: RankedId[] = engine
        .search({ partitions: ["p"], text: query, denseWeight: 0, limit: 200 })
        .map((h) => ({ id: idOf(h.rid), score: h.keywordScore }));
      const dense: RankedId[] = vectors.map((v, i) => ({ id: idOf(i + 1), score: Array.from(v).reduce((s, x, j) => s + x * qv[j]!, 0) }));
      const want = engine.search({ partitions: ["p"], text: query, denseWeight: 0.5, vector: qv, model: "m", limit: 25 });
      const got = fuseRankings(keyword, dense, 0.5).slice(0, 25);
      expect(got.map((f) => f.id)).toEqual(want.map((h) => idOf(h.rid)));
      if (got.some((f, i) => f.id !== keyword[i]?.id)) reordered++;
      got.forEach((f, i) => {
        expect(f.score).toBeCloseTo(want[i]!.score, 12);
        expect(f.keywordScore).toBeCloseTo(want[i]!.keywordScore, 6);
        expect(f.vectorScore).toBeCloseTo(want[i]!.vectorScore, 6);
      });
    }
    // The dense side changed the order somewhere (the comparison covers more than the keyword ranking).
    expect(reordered).toBeGreaterThan(0);
  });

  it("keyword only without a dense list; dense-only records need cosine ≥ 0.15; equal scores share a rank", () => {
    const kw = [
      { id: "b", score: 2 },
      { id: "a", score: 3 },
      { id: "c", score: 2 },
    ];
    expect(fuseRankings(kw, undefined, 0.5).map((f) => [f.id, f.keywordRank])).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 2],
    ]);
    const fused = fuseRankings(
      kw,
      [
        { id: "x", score: 0.9 },
        { id: "y", score: 0.1 },
        { id: "a", score: 0.5 },
      ],
      0.5,
    );
    expect(fused.map((f) => f.id)).not.toContain("y");
    expect(fused.find((f) => f.id === "x")).toMatchObject({ keywordScore: 0, vectorScore: 0.9, keywordRank: 0, denseRank: 1 });
    // The dense top shares one of three keyword records: the dense weight is 0.5 × 1/3.
    const a = fused.find((f) => f.id === "a")!;
    expect(a.score).toBeCloseTo(1 / 61 + 0.5 / 3 / (60 + 2), 12);
    expect(agreement(kw, [], 10)).toBe(0);
    expect(agreement([], [{ id: "x", score: 1 }], 10)).toBe(1);
  });

  it("selectHits applies the threshold, then keeps the first documents and chunks per document in rank order", () => {
    const hits = [
      { d: "A", s: 0.9 },
      { d: "B", s: 0.4 },
      { d: "A", s: 0.8 },
      { d: "C", s: 0.7 },
      { d: "A", s: 0.7 },
      { d: "D", s: 0.95 },
    ];
    const sel = (min: number | undefined, group?: { documents: number; chunksPerDocument: number }) =>
      selectHits(
        hits,
        (h) => h.s,
        (h) => h.d,
        min,
        group,
      ).map((h) => `${h.d}${h.s}`);
    expect(sel(undefined)).toEqual(["A0.9", "B0.4", "A0.8", "C0.7", "A0.7", "D0.95"]);
    expect(sel(0.75)).toEqual(["A0.9", "A0.8", "D0.95"]);
    expect(sel(undefined, { documents: 2, chunksPerDocument: 1 })).toEqual(["A0.9", "B0.4"]);
    expect(sel(0.5, { documents: 2, chunksPerDocument: 2 })).toEqual(["A0.9", "A0.8", "C0.7"]);
    expect(sel(0.5, { documents: 10, chunksPerDocument: Infinity })).toEqual(["A0.9", "A0.8", "C0.7", "A0.7", "D0.95"]);
  });
});
