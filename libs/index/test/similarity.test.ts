import { SearchEngine } from "../src/engine/search-engine";
import { analyzeForStorage } from "../src/engine/analysis";
import { calibrate, EVIDENCE_AT_DEFAULT_THRESHOLD, informationWeight, ownEvidence, rankedSimilarities, similarityTerms, termCoverage } from "../src/similarity";

/** Memories of one container, searched as recall does offline (keyword side only). */
function engineOver(texts: string[]): SearchEngine {
  return new SearchEngine({ load: () => texts.map((t, i) => ({ rid: i + 1, analyzed: analyzeForStorage(t) })) });
}
const search = (e: SearchEngine, q: string) => e.search({ partitions: ["p"], text: q, denseWeight: 0, limit: 10 });

describe("similarity rule", () => {
  it("weighs a word by its surprisal in general English: rare words and unknown names outweigh common ones", () => {
    expect(informationWeight("penicillin")).toBeGreaterThan(informationWeight("medicine"));
    expect(informationWeight("medicine")).toBeGreaterThan(informationWeight("take"));
    expect(informationWeight("zyxwvutq")).toBeGreaterThanOrEqual(informationWeight("penicillin"));
    expect(informationWeight("the")).toBeGreaterThanOrEqual(0);
  });

  it("query terms: distinct stems, stop words out, repeated words count again", () => {
    const terms = similarityTerms("Coffee, coffee and the coffees!");
    expect(terms).toHaveLength(1);
    expect(terms[0]!.term).toBe("coffe");
    expect(terms[0]!.weight).toBeCloseTo(3 * Math.max(informationWeight("coffee"), informationWeight("coffees")) ** 2, 9);
    expect(similarityTerms("the of and")).toEqual([]);
  });

  it("coverage is the weighted share of the query held by the record", () => {
    const terms = [
      { term: "a", weight: 1 },
      { term: "b", weight: 3 },
    ];
    expect(termCoverage(terms, () => true)).toBe(1);
    expect(termCoverage(terms, (t) => t === "b")).toBe(0.75);
    expect(termCoverage(terms, () => false)).toBe(0);
    expect(termCoverage([], () => true)).toBe(0);
    expect(ownEvidence(0.4, 0.7)).toBe(0.7);
    expect(ownEvidence(0.4, undefined)).toBe(0.4);
    expect(ownEvidence(0.4, -0.2)).toBe(0.4);
    expect(ownEvidence(0, 1.0000001)).toBe(1);
  });

  it("calibration is monotone from 0 to 1 and puts the default threshold at the chosen evidence", () => {
    expect(calibrate(0)).toBe(0);
    expect(calibrate(1)).toBe(1);
    expect(calibrate(EVIDENCE_AT_DEFAULT_THRESHOLD)).toBeCloseTo(0.6, 12);
    let last = 0;
    for (let e = 0.01; e <= 1; e += 0.01) {
      expect(calibrate(e)).toBeGreaterThan(last);
      last = calibrate(e);
    }
    expect(calibrate(-1)).toBe(0);
    expect(calibrate(2)).toBe(1);
  });

  it("a result ranked below a strong one shares its evidence in proportion to its fused score", () => {
    const sims = rankedSimilarities([
      { evidence: 1, score: 1 },
      { evidence: 0.1, score: 0.5 },
      { evidence: 0.9, score: 0.25 },
      { evidence: 0, score: 0.9 },
    ]);
    expect(sims[0]).toBe(1);
    expect(sims[1]).toBeCloseTo(calibrate(0.5), 12);
    expect(sims[2]).toBeCloseTo(calibrate(0.9), 12);
    // Holding nothing of the query itself (found through feedback terms or the dense side): nothing shared.
    expect(sims[3]).toBe(0);
    expect(rankedSimilarities([])).toEqual([]);
  });
});

describe("similarity at the default threshold (0.6), offline", () => {
  const ilse = engineOver([
    "Ilse Marr is allergic to penicillin.",
    "Ilse Marr is training for the Lisbon half marathon in March.",
    "Ilse Marr drinks her coffee black.",
  ]);

  it.each([
    ["what medicine is Ilse allergic to", "penicillin"],
    ["which race is Ilse training for", "marathon"],
    ["how does Ilse take her coffee", "coffee"],
  ])("the memory that answers %p clears it, ranked first", (q, word) => {
    const hits = search(ilse, q);
    expect(hits[0]!.rid).toBe(["penicillin", "marathon", "coffee"].indexOf(word) + 1);
    expect(hits[0]!.similarity).toBeGreaterThanOrEqual(0.6);
  });

  it("a question about someone the container never mentions does not", () => {
    for (const q of ["what medicine is Tomasz Weber allergic to", "where does Caroline paint on weekends"]) {
      for (const h of search(ilse, q)) expect(h.similarity).toBeLessThan(0.6);
    }
  });

  it("weighs words for the container: the subject every record names clears nothing by itself, and counts in a large one", () => {
    // In Ilse's container every record names her: a question that matches only her name finds nothing.
    for (const h of search(ilse, "what is Ilse's favourite colour")) expect(h.similarity).toBeLessThan(0.6);
    // Among 2,000 unrelated records her name tells her record apart, and the answer clears the threshold there too.
    const filler = Array.from({ length: 2000 }, (_, i) => `Record ${i} notes the weather in town ${i % 37} and a meeting about budget ${i % 11}.`);
    const big = engineOver(["Ilse Marr is allergic to penicillin.", ...filler]);
    const large = search(big, "what medicine is Ilse allergic to")[0]!;
    expect(large.rid).toBe(1);
    expect(large.similarity).toBeGreaterThanOrEqual(search(ilse, "what medicine is Ilse allergic to")[0]!.similarity);
    expect(large.similarity).toBeGreaterThanOrEqual(0.6);
  });
});
