import { knownStem, relatedStems } from "../src/lexicon";
import { capitalizedStems, stem } from "../src/text";
import { combinedEvidence, meaningEvidence, scopedTerms, specificity } from "../src/similarity";

const related = (record: string, query: string) => relatedStems(stem(record)).has(stem(query));

describe("words of related meaning (WordNet 3.1)", () => {
  it.each([
    ["hens", "animals"], // is-a, seven steps up
    ["alcohol", "drink"],
    ["son", "child"],
    ["allergic", "allergy"], // derivations, both ways
    ["allergy", "allergic"],
    ["photographer", "photography"],
    ["moved", "live"], // a plain implication WordNet lacks
  ])("%p relates to %p", (record, query) => {
    expect(related(record, query)).toBe(true);
  });

  it("reads a word in its most frequent part of speech and leaves out the general top of the hierarchy", () => {
    expect(related("keeps", "living")).toBe(false); // "keep" the verb, not the noun (a livelihood)
    for (const general of ["entity", "object", "whole", "abstraction"]) expect(related("hens", general)).toBe(false);
    expect(related("garden", "animals")).toBe(false);
  });

  it("knows words and not names", () => {
    expect(knownStem(stem("surgeon"))).toBe(true);
    expect(knownStem(stem("Horvat"))).toBe(false);
    expect(relatedStems("horvat").size).toBe(0);
  });
});

describe("weights that know the scope", () => {
  it("a word every record holds weighs next to nothing; one none holds keeps its weight; a lone record's words a third", () => {
    expect(specificity(6, 6)).toBeCloseTo(1 - 6 / 6.5, 12);
    expect(specificity(0, 6)).toBe(1);
    expect(specificity(1, 1)).toBeCloseTo(1 / 3, 12);
    expect(specificity(10, 1_000_000)).toBeGreaterThan(0.99);
    const terms = scopedTerms(
      [
        { term: "mirela", weight: 300 },
        { term: "live", weight: 60 },
      ],
      (t) => (t === "mirela" ? 6 : 0),
      6,
    );
    expect(terms[0]!.weight).toBeCloseTo(300 * (1 - 6 / 6.5), 9);
    expect(terms[1]!.weight).toBe(60);
  });

  it("meaning counts the cosine above the scope's baseline, and either kind of evidence suffices", () => {
    const c = { floor: 0.05, full: 0.3 };
    expect(meaningEvidence(0.55, 0.4, 6, c)).toBeCloseTo(1 - Math.exp(-(0.55 - 0.4 * (6 / 7) - 0.05) / 0.25), 9);
    expect(meaningEvidence(0.3, 0.4, 6, c)).toBe(0);
    // No scope, no baseline; the curve never reaches 1, so records that all mean the question keep their order.
    expect(meaningEvidence(0.9, 0.5, 0, c)).toBeCloseTo(1 - Math.exp(-0.85 / 0.25), 9);
    expect(meaningEvidence(0.9, 0, 0, c)).toBeGreaterThan(meaningEvidence(0.8, 0, 0, c));
    expect(meaningEvidence(0.9, 0, 0, c)).toBeLessThan(1);
    expect(combinedEvidence(0.5, 0.5)).toBeCloseTo(0.75, 12);
    expect(combinedEvidence(0, 0.4)).toBeCloseTo(0.4, 12);
  });

  it("names are the words a query capitalises inside a sentence", () => {
    expect([...capitalizedStems("where does Caroline paint on weekends")]).toEqual(["carolin"]);
    expect([...capitalizedStems("Where does she live? Ask Tomasz Weber.")]).toEqual(["tomasz", "weber"]);
    expect(capitalizedStems("where does john live").size).toBe(0);
  });
});
