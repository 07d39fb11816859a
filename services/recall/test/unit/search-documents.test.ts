import type { ChunkHit, ChunkIndex, ChunkSearchQuery } from "@engram/index";
import { HashingEmbedder } from "@engram/index";
import { InvalidArgumentError } from "@engram/kernel";
import { SearchDocumentsUseCase } from "../../src/app/search-documents.usecase";

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

describe("SearchDocumentsUseCase", () => {
  const hits = [hit("a", 0, 0.9), hit("b", 2, 0.8), hit("a", 3, 0.7), hit("c", 0, 0.3), hit("b", 1, 0.2)];

  it("groups hits by document, best chunk first, drops those below the threshold and applies the limit", async () => {
    const index = new FakeIndex(hits);
    const uc = new SearchDocumentsUseCase(index as unknown as ChunkIndex, new HashingEmbedder(32));
    const res = await uc.execute({ tenantId: "t", namespaces: ["n"], q: "  query  ", limit: 2, threshold: 0.25, documentId: "a" });
    expect(res.map((d) => [d.documentId, d.similarity, d.chunks.map((c) => c.chunk.position)])).toEqual([
      ["a", 0.9, [0, 3]],
      ["b", 0.8, [2]],
    ]);
    const q = index.queries[0]!;
    expect(q).toMatchObject({ tenantId: "t", namespaces: ["n"], text: "query", documentId: "a" });
    expect(q.limit).toBeGreaterThanOrEqual(10);
    expect(q.vector).toHaveLength(32);
  });

  it("rejects an empty query", async () => {
    const uc = new SearchDocumentsUseCase(new FakeIndex(hits) as unknown as ChunkIndex, new HashingEmbedder(32));
    await expect(uc.execute({ tenantId: "t", q: "   ", limit: 5, threshold: 0 })).rejects.toThrow(InvalidArgumentError);
  });
});
