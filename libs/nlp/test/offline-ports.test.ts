import {
  type ExtractedFact,
  OfflineAggregator,
  OfflineBucketClassifier,
  OfflineMemoryRelator,
  OfflineQueryRewriter,
  OfflineReranker,
  type RelationCandidate,
} from "../src";

const fact = (content: string, extra: Partial<ExtractedFact> = {}): ExtractedFact => ({
  content,
  isStatic: true,
  eventDates: [],
  isInference: false,
  chunkPositions: [0],
  ...extra,
});
const cand = (id: string, content: string, similarity = 0.8): RelationCandidate => ({ id, content, similarity, isStatic: true });

describe("OfflineMemoryRelator", () => {
  const relator = new OfflineMemoryRelator();
  it.each([
    ["Sarah lives in Portland.", "Sarah lives in Portland.", "duplicate"],
    ["Sarah is living in Portland.", "Sarah lives in Portland", "duplicate"],
    ["Sarah lives in Portland.", "Sarah lives in Seattle.", "updates"],
    ["John now prefers light mode.", "John prefers dark mode.", "updates"],
    ["Sarah works at Microsoft.", "Sarah works at Google.", "updates"],
    ["Sarah no longer eats meat.", "Sarah eats meat.", "updates"],
    ["Sarah's favourite colour is green.", "Sarah's favourite colour is blue.", "updates"],
    ["Sarah moved to Portland on 2026-11-01.", "Sarah lives in Seattle.", "updates"],
    ["Sarah is a pediatric nurse at St. Mary's hospital.", "Sarah is a nurse.", "extends"],
    ["Sarah lives in Portland with her husband Tom.", "Sarah lives in Portland.", "extends"],
    ["Sarah is allergic to shellfish.", "Sarah is allergic to peanuts.", "extends"],
    ["Sarah loves jazz.", "Tom works at Google.", "unrelated"],
    ["Tom lives in Portland.", "Sarah lives in Seattle.", "unrelated"],
  ])("%s | %s → %s", async (f, c, kind) => {
    const d = await relator.relate(fact(f), [cand("m1", c)]);
    expect(d.kind).toBe(kind);
    expect(d.targetId).toBe(kind === "unrelated" ? undefined : "m1");
  });

  it("relates an inference to the memory it derives from", async () => {
    const d = await relator.relate(fact("Sarah lives in Denver.", { isInference: true }), [cand("m1", "Sarah moved to Denver on 2026-10-05.")]);
    expect(d).toEqual({ kind: "derives", targetId: "m1" });
  });

  it("picks the strongest relation among candidates, then the most similar", async () => {
    const d = await relator.relate(fact("Sarah lives in Portland."), [
      cand("a", "Sarah loves Portland's food carts.", 0.9),
      cand("b", "Sarah lives in Seattle.", 0.7),
      cand("c", "Sarah lives in Portland.", 0.6),
    ]);
    expect(d).toEqual({ kind: "duplicate", targetId: "c" });
    expect(await relator.relate(fact("Sarah lives in Portland."), [])).toEqual({ kind: "unrelated" });
  });

  it("uses the given subjects", async () => {
    const d = await relator.relate(fact("She lives in Portland now.", { subject: "sarah" }), [{ ...cand("m", "Sarah lives in Seattle."), subject: "sarah" }]);
    expect(d).toEqual({ kind: "updates", targetId: "m" });
  });
});

describe("OfflineReranker", () => {
  const reranker = new OfflineReranker();
  it("orders by phrase, coverage and proximity, returning every item with a score in [0, 1]", async () => {
    const items = [
      { id: "far", text: "Sarah visited Paris. Years later, in a different story entirely, a dog was adopted by a family in Ohio." },
      { id: "none", text: "The quarterly budget review is on Tuesday." },
      { id: "exact", text: "Sarah adopted a dog named Rex last spring." },
      { id: "partial", text: "Sarah likes dogs." },
    ];
    const out = await reranker.rerank("Sarah adopted a dog", items);
    expect(out.map((o) => o.id)).toEqual(["exact", "far", "partial", "none"]);
    expect(out).toHaveLength(4);
    for (const o of out) expect(o.score).toBeGreaterThanOrEqual(0);
    for (const o of out) expect(o.score).toBeLessThanOrEqual(1);
    expect(out.find((o) => o.id === "none")!.score).toBe(0);
    expect(out[0]!.score).toBeGreaterThan(0.8);
  });
  it("prefers the focused text and weights rare query terms", async () => {
    const out = await reranker.rerank("peanut allergy", [
      { id: "long", text: `Sarah has a peanut allergy. ${"She talked about many other things at length. ".repeat(20)}` },
      { id: "short", text: "Sarah has a peanut allergy." },
      { id: "common", text: "Peanut butter sandwiches are popular." },
    ]);
    expect(out.map((o) => o.id)).toEqual(["short", "long", "common"]);
  });
  it("handles empty input", async () => {
    expect(await reranker.rerank("anything", [])).toEqual([]);
    expect(await reranker.rerank("", [{ id: "a", text: "x" }])).toEqual([{ id: "a", score: 0 }]);
  });
});

describe("OfflineQueryRewriter", () => {
  const rewriter = new OfflineQueryRewriter();
  it.each([
    ["Can you tell me where Sarah lives?", "where Sarah lives"],
    ["What do I know about Sarah's allergies?", "Sarah's allergies"],
    ["hey, do you remember what my sister's name is?", "what my sister's name is"],
    ["Please find everything about the Portland trip, thanks!", "the Portland trip"],
    ["I'd like to know when Tom's birthday is", "when Tom's birthday is"],
    ["What's John's favourite colour?", "What is John's favourite colour"],
    ["Tell me about it", "it"],
    ["who won't eat meat", "who will not eat meat"],
  ])("%s → %s", async (q, expected) => {
    expect(await rewriter.rewrite(q)).toBe(expected);
  });
  it("never drops a content word", async () => {
    const { analyze } = await import("@engram/index");
    for (const q of ["Can you remind me about the dentist appointment next Tuesday?", "find Sarah", "tell me what Amy said about the marathon", "remind me"]) {
      const out = await rewriter.rewrite(q);
      const kept = new Set(analyze(out));
      const content = analyze(q).filter((s) => !["remind", "find", "tell"].includes(s));
      for (const s of content) expect(kept.has(s)).toBe(true);
      expect(out.length).toBeGreaterThan(0);
    }
  });
});

describe("OfflineAggregator", () => {
  it("combines memories about the same subject with their sources", async () => {
    const out = await new OfflineAggregator().aggregate("Sarah", [
      { id: "1", content: "Sarah lives in Portland." },
      { id: "2", content: "Tom plays the cello." },
      { id: "3", content: "Sarah works as a nurse." },
      { id: "4", content: "Sarah has a sister named Amy." },
      { id: "5", content: "Sarah lives in Portland." },
    ]);
    expect(out).toEqual([{ content: "Sarah: lives in Portland; works as a nurse; has a sister named Amy", sourceIds: ["1", "3", "4", "5"] }]);
  });
  it("returns nothing for fewer than two related memories", async () => {
    expect(await new OfflineAggregator().aggregate("q", [{ id: "1", content: "Sarah lives in Portland." }])).toEqual([]);
  });
});

describe("OfflineBucketClassifier", () => {
  const buckets = [
    { key: "work", description: "Job, employer, career and colleagues" },
    { key: "health", description: "Allergies, medical conditions, diet" },
    { key: "travel", description: "Trips and places visited" },
  ];
  it("assigns zero, one or several buckets per text", async () => {
    const out = await new OfflineBucketClassifier().classify(
      ["Sarah works at Google as an engineer.", "Sarah is allergic to peanuts.", "Sarah flew to Tokyo for a work conference.", "Sarah likes the colour blue."],
      buckets,
    );
    expect(out).toEqual([["work"], ["health"], ["work", "travel"], []]);
  });
  it("returns one empty list per text without buckets", async () => {
    expect(await new OfflineBucketClassifier().classify(["a", "b"], [])).toEqual([[], []]);
  });
});
