import type { ChunkHit, ChunkIndex, ChunkSearchQuery } from "@engram/index";
import { HashingEmbedder } from "@engram/index";
import { InvalidArgumentError } from "@engram/kernel";
import type { QueryRewriter } from "@engram/nlp";
import { QueryPreparer } from "../../src/app/query";
import { SearchDocumentsUseCase } from "../../src/app/search-documents.usecase";

const rewriter: QueryRewriter = { id: "identity", rewrite: async (q) => q };

function hit(documentId: string, position: number, similarity: number): ChunkHit {
  return {
    chunk: {
      id: `c_${documentId}_${position}`,
      tenantId: "t",
      namespace: "n",
      documentId,
      position,
      content: `${documentId} chunk ${position}`,
      startOffset: 0,
      endOffset: 1,
      tokenCount: 1,
      document: { createdAt: "2024-01-01T00:00:00.000Z", updatedAt: "2024-01-01T00:00:00.000Z" },
      createdAt: "2024-01-01T00:00:00.000Z",
    },
    score: similarity,
    similarity,
    keywordScore: 0,
    vectorScore: similarity,
  };
}

class FakeIndex {
  queries: ChunkSearchQuery[] = [];
  constructor(private readonly hits: ChunkHit[]) {}
  async search(q: ChunkSearchQuery): Promise<ChunkHit[]> {
    this.queries.push(q);
    return this.hits;
  }
}

/** The hashing embedder for chunks and memories alike (no dense side). */
function hashingOnly() {
  const e = new HashingEmbedder(32);
  return { chunks: e, memories: e };
}

const noLookup = {
  get: async (): Promise<undefined> => {
    throw new Error("no lookup expected");
  },
};

const atPath = (h: ChunkHit, filepath: string | undefined): ChunkHit => ({ ...h, chunk: { ...h.chunk, document: { ...h.chunk.document, filepath } } });

describe("SearchDocumentsUseCase", () => {
  const hits = [hit("a", 0, 0.9), hit("b", 2, 0.8), hit("a", 3, 0.7), hit("c", 0, 0.3), hit("b", 1, 0.2)];

  it("groups hits by document, best chunk first, drops those below the threshold and applies the limit", async () => {
    const index = new FakeIndex(hits);
    const uc = new SearchDocumentsUseCase(index as unknown as ChunkIndex, noLookup);
    const query = await new QueryPreparer(hashingOnly(), rewriter).prepare("  query  ", false);
    const res = await uc.execute({ tenantId: "t", namespaces: ["n"], query, limit: 2, threshold: 0.25, documentId: "a", perDocument: Infinity });
    expect(res.map((d) => [d.documentId, d.similarity, d.chunks.map((c) => c.chunk.position)])).toEqual([
      ["a", 0.9, [0, 3]],
      ["b", 0.8, [2]],
    ]);
    const q = index.queries[0]!;
    expect(q).toMatchObject({ tenantId: "t", namespaces: ["n"], text: "query", documentId: "a", denseWeight: 0 });
    expect(q.limit).toBeGreaterThanOrEqual(10);
    // The hashing embedder carries no semantics: no query vector is computed.
    expect(q.vector).toHaveLength(0);
  });

  it("keeps the best chunk per document by default and asks the index to read back only the chunks kept", async () => {
    const index = new FakeIndex(hits);
    const uc = new SearchDocumentsUseCase(index as unknown as ChunkIndex, noLookup);
    const query = await new QueryPreparer(hashingOnly(), rewriter).prepare("query", false);
    const res = await uc.execute({ tenantId: "t", query, limit: 3, threshold: 0.25 });
    expect(res.map((d) => [d.documentId, d.chunks.map((c) => c.chunk.position)])).toEqual([
      ["a", [0]],
      ["b", [2]],
      ["c", [0]],
    ]);
    expect(index.queries[0]).toMatchObject({ limit: 50, minSimilarity: 0.25, group: { documents: 3, chunksPerDocument: 1 } });
    await uc.execute({ tenantId: "t", query, limit: 20, threshold: 0, perDocument: Infinity });
    expect(index.queries[1]).toMatchObject({ limit: 100, minSimilarity: 0, group: { documents: 20, chunksPerDocument: Infinity } });
  });

  it("hands the filepath to the index and trusts the chunks that carry one: no document is looked up", async () => {
    const index = new FakeIndex([atPath(hit("a", 0, 0.9), "notes/a.md"), atPath(hit("b", 0, 0.8), "notes/deep/b.md")]);
    const uc = new SearchDocumentsUseCase(index as unknown as ChunkIndex, noLookup);
    const query = await new QueryPreparer(hashingOnly(), rewriter).prepare("query", false);
    const res = await uc.execute({ tenantId: "t", query, limit: 3, threshold: 0, filepath: "notes/" });
    expect(res.map((d) => d.documentId)).toEqual(["a", "b"]);
    // The index ranks as many chunks as without a filepath: it filters before top-k.
    expect(index.queries[0]).toMatchObject({ filepath: "notes/", limit: 50, group: { documents: 3, chunksPerDocument: 1 } });
  });

  it("checks chunks without a stored filepath (written before the index kept one) with their document, once each", async () => {
    const index = new FakeIndex([atPath(hit("a", 0, 0.9), "notes/a.md"), hit("old1", 0, 0.8), hit("old1", 1, 0.7), hit("old2", 0, 0.6)]);
    const looked: string[] = [];
    const lookup = {
      get: async (_t: string, namespace: string, id: string) => {
        looked.push(id);
        return { id, namespace, createdAt: "", updatedAt: "", filepath: id === "old1" ? "notes/old1.md" : "elsewhere/old2.md" };
      },
    };
    const uc = new SearchDocumentsUseCase(index as unknown as ChunkIndex, lookup);
    const query = await new QueryPreparer(hashingOnly(), rewriter).prepare("query", false);
    const res = await uc.execute({ tenantId: "t", query, limit: 5, threshold: 0, filepath: "notes/", perDocument: Infinity });
    expect(res.map((d) => [d.documentId, d.chunks.length])).toEqual([
      ["a", 1],
      ["old1", 2],
    ]);
    expect(looked.sort()).toEqual(["old1", "old2"]);
    // Without a filepath in the query nothing is checked.
    expect((await new SearchDocumentsUseCase(index as unknown as ChunkIndex, noLookup).execute({ tenantId: "t", query, limit: 5, threshold: 0 })).length).toBe(
      3,
    );
  });
});

describe("QueryPreparer", () => {
  it("rejects an empty query", async () => {
    await expect(new QueryPreparer(hashingOnly(), rewriter).prepare("   ", false)).rejects.toThrow(InvalidArgumentError);
  });

  it("searches the rewritten text only when asked, and keeps the original when the rewrite is empty", async () => {
    const p = new QueryPreparer(hashingOnly(), { id: "test", rewrite: async (q) => (q.includes("blank") ? "  " : `rewritten ${q}`) });
    expect((await p.prepare("rate limits", false)).text).toBe("rate limits");
    expect((await p.prepare("rate limits", true)).text).toBe("rewritten rate limits");
    expect((await p.prepare("blank", true)).text).toBe("blank");
  });
});
