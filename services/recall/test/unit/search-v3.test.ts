import type { ChunkHit, ChunkIndex, ChunkSearchQuery } from "@engram/index";
import { HashingEmbedder } from "@engram/index";
import type { QueryRewriter, Reranker } from "@engram/nlp";
import type { DocumentInfo, DocumentLookup } from "../../src/app/ports";
import { QueryPreparer } from "../../src/app/query";
import { SearchDocumentsUseCase } from "../../src/app/search-documents.usecase";
import { SearchV3UseCase, type SearchV3Query } from "../../src/app/search-v3.usecase";

const NOW = "2026-11-20T10:00:00.000Z";

function hit(documentId: string, similarity: number): ChunkHit {
  return {
    chunk: {
      id: `c_${documentId}`,
      tenantId: "t",
      namespace: "n",
      documentId,
      position: 0,
      content: `chunk of ${documentId}`,
      startOffset: 0,
      endOffset: 1,
      tokenCount: 1,
      document: { title: documentId, createdAt: NOW, updatedAt: NOW },
      createdAt: NOW,
    },
    score: similarity,
    similarity,
    keywordScore: similarity,
    vectorScore: 0,
  };
}

/**
 * POST /v3/search with includeFullDocs (issue #33): full documents are taken
 * in rank order under the answer's content budget, each whole or not at all.
 */
describe("SearchV3UseCase full documents under a content budget", () => {
  // D1 600 bytes, D2 500, D3 300 (two-byte characters), D4 a file: its text comes from its chunks.
  const contents: Record<string, string | undefined> = { D1: "a".repeat(600), D2: "b".repeat(500), D3: "é".repeat(150), D4: undefined };
  const lookups: { id: string; content: boolean }[] = [];
  const chunkIndex = {
    async search(_q: ChunkSearchQuery) {
      return [hit("D1", 0.9), hit("D2", 0.8), hit("D3", 0.7), hit("D4", 0.6)];
    },
    async listDocumentChunks(_t: string, _n: string, documentId: string) {
      return [hit(documentId, 1).chunk];
    },
  } as unknown as ChunkIndex;
  const lookup: DocumentLookup = {
    get: async (_t, namespace, id, opts) => {
      lookups.push({ id, content: opts?.content ?? false });
      const info: DocumentInfo = { id, namespace, createdAt: NOW, updatedAt: NOW, summary: `summary of ${id}` };
      return opts?.content && contents[id] !== undefined ? { ...info, content: contents[id] } : info;
    },
    close: () => undefined,
  };
  const rewriter: QueryRewriter = { id: "w", rewrite: async (q) => q };
  const reranker: Reranker = { id: "r", rerank: async (_q, items) => items.map((x, i) => ({ id: x.id, score: 1 - i / 10 })) };
  const useCase = (maxContentBytes: number) =>
    new SearchV3UseCase({
      chunks: chunkIndex,
      documents: new SearchDocumentsUseCase(chunkIndex, lookup),
      preparer: new QueryPreparer({ chunks: new HashingEmbedder(32), memories: new HashingEmbedder(32) }, rewriter),
      lookup,
      reranker,
      maxContentBytes,
    });
  const q = (over: Partial<SearchV3Query> = {}): SearchV3Query => ({
    tenantId: "t",
    namespaces: ["n"],
    q: "quarterly report",
    chunkThreshold: 0,
    onlyMatchingChunks: true,
    includeFullDocs: false,
    includeSummary: false,
    rerank: false,
    rewriteQuery: false,
    limit: 10,
    ...over,
  });

  beforeEach(() => (lookups.length = 0));

  it("takes contents in rank order while they fit, skips one that does not, and marks it", async () => {
    const out = await useCase(1000).execute(q({ includeFullDocs: true }));
    expect(out.results.map((r) => r.document.id)).toEqual(["D1", "D2", "D3", "D4"]);
    expect(out.results.map((r) => r.document.content)).toEqual([contents.D1, undefined, contents.D3, "chunk of D4"]);
    expect(out.results.map((r) => r.contentOmitted ?? false)).toEqual([false, true, false, false]);
    // The summary comes along with every full read, kept or not.
    expect(out.results.map((r) => r.document.summary)).toEqual(["summary of D1", "summary of D2", "summary of D3", "summary of D4"]);
    expect(out.content).toEqual({ maxBytes: 1000, omitted: 1 });
    expect(lookups).toEqual(["D1", "D2", "D3", "D4"].map((id) => ({ id, content: true })));
  });

  it("a budget large enough carries every content; none carries none", async () => {
    expect((await useCase(10_000).execute(q({ includeFullDocs: true }))).content).toEqual({ maxBytes: 10_000, omitted: 0 });
    const none = await useCase(0).execute(q({ includeFullDocs: true }));
    expect(none.results.every((r) => r.document.content === undefined && r.contentOmitted)).toBe(true);
    expect(none.content).toEqual({ maxBytes: 0, omitted: 4 });
  });

  it("without includeFullDocs no content is read: summaries come from the record alone, no budget is stated", async () => {
    const out = await useCase(1000).execute(q({ includeSummary: true }));
    expect(out.results.map((r) => [r.document.summary, r.document.content, r.contentOmitted])).toEqual(
      ["D1", "D2", "D3", "D4"].map((id) => [`summary of ${id}`, undefined, undefined]),
    );
    expect(out.content).toBeUndefined();
    expect(lookups.every((l) => !l.content)).toBe(true);
    const bare = await useCase(1000).execute(q());
    expect(bare.results.every((r) => r.document.summary === undefined)).toBe(true);
  });
});
