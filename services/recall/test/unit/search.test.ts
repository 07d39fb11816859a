import type { ChunkHit, ChunkIndex, ChunkSearchQuery } from "@engram/index";
import type { MemoryHit, MemoryRecord, MemorySearchQuery } from "@engram/memory-model";
import type { MemoryReadModel } from "../../src/app/ports";
import { HashingEmbedder } from "@engram/index";
import type { MemoryAggregator, QueryRewriter, Reranker } from "@engram/nlp";
import { QueryPreparer } from "../../src/app/query";
import { SearchDocumentsUseCase } from "../../src/app/search-documents.usecase";
import { groupHybrid, mergeBySimilarity, type SearchResult, SearchUseCase, type SearchV4Query } from "../../src/app/search.usecase";

const NOW = "2026-11-20T10:00:00.000Z";

function memory(id: string, content: string, docs: string[] = [], over: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id,
    tenantId: "t",
    namespace: "n",
    content,
    isStatic: false,
    isForgotten: false,
    version: 1,
    isLatest: true,
    relations: {},
    sources: docs.map((documentId) => ({ documentId, chunkPositions: [0] })),
    bucketKeys: [],
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

function chunk(documentId: string, similarity: number): ChunkHit {
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

const label = (r: SearchResult) => (r.kind === "memory" ? r.memory.id : r.hit.documentId);

/** The hashing embedder for chunks and memories alike (no dense side). */
function hashingOnly() {
  const e = new HashingEmbedder(32);
  return { chunks: e, memories: e };
}

describe("groupHybrid", () => {
  const mr = (m: MemoryRecord, similarity = 0.9) => ({ kind: "memory" as const, memory: m, similarity });
  const cr = (doc: string, similarity = 0.8) => {
    const h = chunk(doc, similarity);
    return {
      kind: "chunk" as const,
      hit: { documentId: doc, chunks: [h], similarity },
      similarity,
      document: { id: doc, namespace: "n", createdAt: NOW, updatedAt: NOW },
    };
  };

  it("keeps the chunk ranking and puts each memory right before the chunk of its best-ranked source", () => {
    const out = groupHybrid(
      [mr(memory("m_b", "b fact", ["B"])), mr(memory("m_a", "a fact", ["A", "B"])), mr(memory("m_c", "c fact", ["C"]))],
      [cr("A"), cr("B")],
    );
    // m_c has no source among the chunk results: it takes rank 3 of the memories' list, after both chunk groups.
    expect(out.map(label)).toEqual(["m_a", "A", "m_b", "B", "m_c"]);
  });

  it("weighs memories formed from unranked documents by their agreement with the chunk ranking", () => {
    // Two of the four document-derived memories have their source among the top chunks: weight 1/2.
    const memories = [
      mr(memory("m_x", "x fact", ["X"])),
      mr(memory("m_a", "a fact", ["A"])),
      mr(memory("m_y", "y fact", ["Y"])),
      mr(memory("m_b", "b fact", ["B"])),
    ];
    const chunks = ["A", "B", "C", "D", "E"].map((d) => cr(d));
    const out = groupHybrid(memories, chunks).map(label);
    expect(out.slice(0, 4)).toEqual(["m_a", "A", "m_b", "B"]);
    // 0.5/61 ≈ 1/122 and 0.5/63 ≈ 1/126: both after every chunk of the five (1/65 at worst).
    expect(out.slice(4)).toEqual(["C", "D", "E", "m_x", "m_y"]);
    // A lone derived memory whose source the chunks did not rank: agreement 0, after every chunk result.
    const none = groupHybrid([mr(memory("m_x", "x fact", ["X"]))], chunks).map(label);
    expect(none).toEqual(["A", "B", "C", "D", "E", "m_x"]);
  });

  it("keeps directly written memories at full weight whatever the documents say", () => {
    const out = groupHybrid([mr(memory("m_1", "direct one")), mr(memory("m_x", "x fact", ["X"]))], [cr("A"), cr("B"), cr("C")]);
    // m_x agrees with nothing (weight 0): after every chunk; m_1 (no source) interleaves at rank 1.
    expect(out.map(label)).toEqual(["A", "m_1", "B", "C", "m_x"]);
  });

  it("interleaves memories without a matching source by reciprocal rank", () => {
    const out = groupHybrid([mr(memory("m_1", "direct one")), mr(memory("m_2", "direct two"))], [cr("A"), cr("B"), cr("C")]);
    expect(out.map(label)).toEqual(["A", "m_1", "B", "m_2", "C"]);
  });

  it("mergeBySimilarity keeps each list's order and prefers the first at equal similarity", () => {
    expect(
      mergeBySimilarity(
        [
          { id: 1, similarity: 1 },
          { id: 2, similarity: 0.5 },
        ],
        [
          { id: 3, similarity: 1 },
          { id: 4, similarity: 0.7 },
        ],
      ).map((x) => x.id),
    ).toEqual([1, 3, 4, 2]);
  });
});

describe("SearchUseCase", () => {
  const memories: MemoryRecord[] = [memory("m_1", "Sarah lives in Seattle", ["D1"]), memory("m_2", "Sarah works at Acme"), memory("m_3", "Sarah has a dog")];
  const memoryQueries: MemorySearchQuery[] = [];
  const memoryIndex = {
    async search(q: MemorySearchQuery): Promise<MemoryHit[]> {
      memoryQueries.push(q);
      return memories.slice(0, q.limit).map((m, i) => ({ memory: m, similarity: 0.9 - i * 0.2, ownSimilarity: 0.9 - i * 0.2, score: 1 - i }));
    },
    async chains(_t: string, roots: string[]) {
      return roots.includes("m_0")
        ? [memory("m_0", "Sarah lived in Portland", [], { isLatest: false }), { ...memories[0]!, version: 2, rootMemoryId: "m_0", parentMemoryId: "m_0" }]
        : [];
    },
    async getMany() {
      return [];
    },
  } as unknown as MemoryReadModel;
  const chunkQueries: ChunkSearchQuery[] = [];
  const chunkIndex = {
    async search(q: ChunkSearchQuery) {
      chunkQueries.push(q);
      return [chunk("D1", 0.95), chunk("D2", 0.7)];
    },
    async listDocumentChunks(_t: string, _n: string, documentId: string) {
      return [chunk(documentId, 1).chunk];
    },
  } as unknown as ChunkIndex;
  const reranker: Reranker = { id: "r", rerank: async (_q, items) => [...items].reverse().map((x, i) => ({ id: x.id, score: 1 - i * 0.1 })) };
  const aggregator: MemoryAggregator = {
    id: "a",
    aggregate: async (_q, ms) => [{ content: "Sarah: " + ms.map((m) => m.content).join("; "), sourceIds: ms.map((m) => m.id) }],
  };
  const rewriter: QueryRewriter = { id: "w", rewrite: async (q) => `rewritten ${q}` };
  // D1 sits under docs/, D2 under notes/.
  const lookups: string[] = [];
  const lookup = {
    get: async (_t: string, namespace: string, id: string) => {
      lookups.push(id);
      return {
        id,
        namespace,
        createdAt: NOW,
        updatedAt: NOW,
        filepath: id === "D1" ? "docs/guide.md" : "notes/d2.md",
        ...(id === "D1" ? { summary: "The guide, in short." } : {}),
      };
    },
    close: () => undefined,
  };
  const uc = new SearchUseCase({
    memories: memoryIndex,
    chunks: chunkIndex,
    documents: new SearchDocumentsUseCase(chunkIndex, lookup),
    preparer: new QueryPreparer(hashingOnly(), rewriter),
    reranker,
    aggregator,
    lookup,
    clock: { now: () => new Date(NOW) },
  });
  const q = (over: Partial<SearchV4Query> = {}): SearchV4Query => ({
    tenantId: "t",
    namespaces: ["n"],
    q: "where is Sarah",
    mode: "memories",
    threshold: 0.6,
    limit: 10,
    include: {},
    rerank: false,
    rewriteQuery: false,
    aggregate: false,
    ...over,
  });

  it("memories mode: memory results above the threshold, forgotten memories only when asked", async () => {
    const out = await uc.execute(q({ include: { forgottenMemories: true } }));
    expect(out.map(label)).toEqual(["m_1", "m_2"]); // m_3 at 0.5 is below 0.6
    expect(memoryQueries.at(-1)).toMatchObject({ includeForgotten: true, tenantId: "t", namespaces: ["n"] });
  });

  it("hybrid: the chunk ranking with each memory before its source's chunk", async () => {
    const out = await uc.execute(q({ mode: "hybrid", threshold: 0 }));
    expect(out.map(label)).toEqual(["m_1", "D1", "D2", "m_2", "m_3"]);
  });

  it("documents mode asks only the chunk index; include.chunks on memories embeds the sources' chunks", async () => {
    const before = memoryQueries.length;
    expect((await uc.execute(q({ mode: "documents" }))).map(label)).toEqual(["D1", "D2"]);
    expect(memoryQueries.length).toBe(before);
    const old = await uc.execute(q({ include: { chunks: true } }));
    expect(old.every((r) => r.kind === "memory")).toBe(true);
    expect(old[0]!.kind === "memory" && old[0]!.chunks?.map((c) => c.chunk.documentId)).toEqual(["D1"]);
  });

  it("include.summaries sets each shown document's summary from ingestion, on chunk and memory results alike", async () => {
    const chunks = await uc.execute(q({ mode: "documents", include: { summaries: true } }));
    expect(chunks.map((r) => (r.kind === "chunk" ? r.document.summary : "not a chunk"))).toEqual(["The guide, in short.", undefined]);
    const withoutSummaries = await uc.execute(q({ mode: "documents" }));
    expect(withoutSummaries.every((r) => r.kind === "chunk" && r.document.summary === undefined)).toBe(true);
    const mems = await uc.execute(q({ include: { summaries: true } }));
    const first = mems[0]!;
    expect(first.kind === "memory" && first.documents?.map((d) => d.summary)).toEqual(["The guide, in short."]);
  });

  it("a filepath goes to the index; chunks it could not check (no filepath stored yet) are checked with their document", async () => {
    lookups.length = 0;
    expect((await uc.execute(q({ mode: "documents", filepath: "notes/" }))).map(label)).toEqual(["D2"]);
    expect(chunkQueries.at(-1)).toMatchObject({ filepath: "notes/", group: { documents: 10, chunksPerDocument: 1 } });
    // This fake index stores no filepaths: both results were looked up.
    expect(lookups.sort()).toEqual(["D1", "D2"]);
    expect((await uc.execute(q({ mode: "documents", filepath: "docs/guide.md" }))).map(label)).toEqual(["D1"]);
    expect(await uc.execute(q({ mode: "documents", filepath: "docs/" + "other.md" }))).toEqual([]);
  });

  it("rewrites the query when asked, reranks, and aggregates memories into a synthesised one", async () => {
    await uc.execute(q({ rewriteQuery: true }));
    expect(memoryQueries.at(-1)!.text).toBe("rewritten where is Sarah");
    const reranked = await uc.execute(q({ rerank: true, threshold: 0 }));
    expect(reranked.map(label)).toEqual(["m_3", "m_2", "m_1"]);
    const agg = await uc.execute(q({ aggregate: true, threshold: 0 }));
    const synthesised = agg.find((r) => r.kind === "memory" && r.aggregatedFrom);
    expect(synthesised && synthesised.kind === "memory" && synthesised.memory.content).toBe(
      "Sarah: Sarah lives in Seattle; Sarah works at Acme; Sarah has a dog",
    );
    expect(synthesised && synthesised.kind === "memory" && synthesised.memory.id).toMatch(/^agg_/);
  });

  it("adds source documents and version context when asked", async () => {
    memories[0] = { ...memories[0]!, version: 2, rootMemoryId: "m_0", parentMemoryId: "m_0" };
    const out = await uc.execute(q({ include: { documents: true, relatedMemories: true } }));
    const first = out[0]!;
    expect(first.kind === "memory" && first.documents?.map((d) => d.id)).toEqual(["D1"]);
    expect(first.kind === "memory" && first.context?.parents.map((p) => [p.memory.id, p.relativeVersion])).toEqual([["m_0", -1]]);
  });

  it("validates limit and threshold", async () => {
    await expect(uc.execute(q({ limit: 0 }))).rejects.toThrow(/limit/);
    await expect(uc.execute(q({ threshold: 1.5 }))).rejects.toThrow(/threshold/);
  });
});
