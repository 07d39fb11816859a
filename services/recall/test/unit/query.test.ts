import { type Embedder, HashingEmbedder } from "@engram/index";
import type { QueryRewriter } from "@engram/nlp";
import { QueryPreparer } from "../../src/app/query";

/** A semantic embedder that records what it was asked to embed. */
function semantic(id: string): Embedder & { calls: string[][] } {
  const inner = new HashingEmbedder(16);
  const calls: string[][] = [];
  return {
    id,
    dimensions: 16,
    semantic: true,
    calls,
    embedOne: (t: string) => inner.embedOne(t),
    embed: async (texts: string[]) => {
      calls.push(texts);
      return texts.map((t) => inner.embedOne(t));
    },
  } as unknown as Embedder & { calls: string[][] };
}

const rewriter: QueryRewriter = { id: "none", rewrite: async (q: string) => q };

describe("QueryPreparer", () => {
  it("embeds a query only for the indexes it searches (a documents search never pays for the memory model)", async () => {
    const memories = semantic("local-model");
    const preparer = new QueryPreparer({ chunks: new HashingEmbedder(16), memories }, rewriter);

    const documentsOnly = await preparer.prepare("Where does Sarah live", false, { chunks: true, memories: false });
    expect(memories.calls).toEqual([]);
    expect(documentsOnly.memories.denseWeight).toBe(0);
    expect(documentsOnly.text).toBe("Where does Sarah live");

    const both = await preparer.prepare("Where does Sarah live", false);
    // The query, and its name run (a candidate subject) beside it.
    expect(memories.calls.flat().sort()).toEqual(["Sarah", "Where does Sarah live"].sort());
    expect(both.memories.denseWeight).toBeGreaterThan(0);
    expect(both.memories.subjects?.map((s) => s.terms)).toEqual([["sarah"]]);

    memories.calls.length = 0;
    const memoriesOnly = await preparer.prepare("Where does Sarah live", false, { chunks: false, memories: true });
    expect(memoriesOnly.memories.denseWeight).toBeGreaterThan(0);
    expect(memoriesOnly.denseWeight).toBe(0);
  });

  it("one semantic model for both indexes embeds the query once", async () => {
    const model = semantic("shared-model");
    const preparer = new QueryPreparer({ chunks: model, memories: model }, rewriter);
    const q = await preparer.prepare("ocean tides", false);
    expect(model.calls).toEqual([["ocean tides"]]);
    expect(q.memories.vector).toBe(q.vector);
    model.calls.length = 0;
    const docs = await preparer.prepare("ocean tides", false, { chunks: true, memories: false });
    expect(model.calls).toEqual([["ocean tides"]]);
    expect(docs.denseWeight).toBeGreaterThan(0);
  });
});
