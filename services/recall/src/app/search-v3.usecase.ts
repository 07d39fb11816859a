import type { FilterExpr } from "@engram/filters";
import type { ChunkHit, ChunkIndex, IndexedChunk } from "@engram/index";
import { contentBytes, ContentBudget, InvalidArgumentError, NotFoundError } from "@engram/kernel";
import type { Reranker } from "@engram/nlp";
import type { DocumentInfo, DocumentLookup } from "./ports";
import type { QueryPreparer } from "./query";
import { documentOfChunk } from "./search.usecase";
import type { SearchDocumentsUseCase } from "./search-documents.usecase";

export interface SearchV3Query {
  tenantId: string;
  namespaces?: string[];
  q: string;
  /** Minimum chunk similarity (default 0: every matching chunk). */
  chunkThreshold: number;
  /** Search inside one document (service or caller-defined id). */
  docId?: string;
  /** false: each matching chunk comes with its neighbours (isRelevant false). */
  onlyMatchingChunks: boolean;
  includeFullDocs: boolean;
  includeSummary: boolean;
  rerank: boolean;
  rewriteQuery: boolean;
  filter?: FilterExpr;
  limit: number;
  filepath?: string;
}

export interface V3Chunk {
  chunk: Omit<IndexedChunk, "vector">;
  score: number;
  isRelevant: boolean;
}

export interface V3Result {
  document: DocumentInfo;
  /** The document's best chunk similarity. */
  score: number;
  /** Matching chunks (and their neighbours) in document order. */
  chunks: V3Chunk[];
  /** With includeFullDocs: the content did not fit in the answer's content budget. */
  contentOmitted?: boolean;
}

export interface V3Answer {
  results: V3Result[];
  /** With includeFullDocs: the budget the contents were taken under, and how many did not fit. */
  content?: { maxBytes: number; omitted: number };
}

/**
 * POST /v3/search: document-oriented chunk search, one result per document
 * with its matching chunks (and, unless onlyMatchingChunks, the chunks right
 * before and after each match for context).
 */
export class SearchV3UseCase {
  constructor(
    private readonly deps: {
      chunks: ChunkIndex;
      documents: SearchDocumentsUseCase;
      preparer: QueryPreparer;
      lookup: DocumentLookup;
      reranker: Reranker;
      /** Most content bytes one answer carries with includeFullDocs (RECALL_SEARCH_MAX_CONTENT_BYTES). */
      maxContentBytes: number;
    },
  ) {}

  async execute(q: SearchV3Query): Promise<V3Answer> {
    if (!(q.limit >= 1 && q.limit <= 100)) throw new InvalidArgumentError("limit must be 1 to 100");
    if (!(q.chunkThreshold >= 0 && q.chunkThreshold <= 1)) throw new InvalidArgumentError("chunkThreshold must be between 0 and 1");
    let documentId: string | undefined;
    let namespaces = q.namespaces;
    if (q.docId) {
      const doc = await this.deps.lookup.get(q.tenantId, namespaces?.length === 1 ? namespaces[0]! : "", q.docId);
      if (!doc || (namespaces && !namespaces.includes(doc.namespace))) throw new NotFoundError(`document ${q.docId} not found`);
      documentId = doc.id;
      namespaces = [doc.namespace];
    }
    const prepared = await this.deps.preparer.prepare(q.q, q.rewriteQuery, { chunks: true, memories: false });
    const hits = await this.deps.documents.execute({
      tenantId: q.tenantId,
      namespaces,
      query: prepared,
      limit: q.rerank ? Math.min(100, Math.max(q.limit * 3, 30)) : q.limit,
      threshold: q.chunkThreshold,
      documentId,
      filter: q.filter,
      filepath: q.filepath,
      // Each result lists every matching chunk of its document.
      perDocument: Infinity,
    });
    let scored = hits.map((h) => ({ hit: h, score: h.similarity }));
    if (q.rerank && scored.length) {
      const ranks = await this.deps.reranker.rerank(
        q.q,
        scored.map((s, i) => ({ id: String(i), text: s.hit.chunks.map((c) => c.chunk.content).join("\n") })),
      );
      scored = ranks.map((r) => ({ hit: scored[Number(r.id)]!.hit, score: r.score }));
    }
    scored = scored.slice(0, q.limit);
    const results: V3Result[] = await Promise.all(
      scored.map(async ({ hit, score }) => {
        const first = hit.chunks[0]!.chunk;
        let document = documentOfChunk(first);
        if (q.includeSummary && !q.includeFullDocs) {
          const full = await this.deps.lookup.get(q.tenantId, first.namespace, hit.documentId);
          if (full) document = { ...document, summary: full.summary };
        }
        return { document, score, chunks: q.onlyMatchingChunks ? matching(hit.chunks) : await this.withNeighbours(q.tenantId, hit.chunks) };
      }),
    );
    if (!q.includeFullDocs) return { results };
    // Full documents one at a time, in rank order, under the answer's content budget (issue #33): at most one
    // content beyond the budget is held at once, and the answer never outgrows a message.
    const budget = new ContentBudget(this.deps.maxContentBytes);
    for (const r of results) {
      const { namespace, id } = r.document;
      const full = await this.deps.lookup.get(q.tenantId, namespace, id, { content: true });
      const content = full?.content || joinChunks(await this.deps.chunks.listDocumentChunks(q.tenantId, namespace, id));
      const fits = budget.take(contentBytes(content));
      r.document = { ...r.document, ...(full ? { summary: full.summary } : {}), ...(fits ? { content } : {}) };
      if (!fits) r.contentOmitted = true;
    }
    return { results, content: { maxBytes: budget.maxBytes, omitted: budget.omitted } };
  }

  private async withNeighbours(tenantId: string, hits: ChunkHit[]): Promise<V3Chunk[]> {
    const first = hits[0]!.chunk;
    const all = await this.deps.chunks.listDocumentChunks(tenantId, first.namespace, first.documentId);
    const relevant = new Map(hits.map((h) => [h.chunk.position, h.similarity]));
    const wanted = new Set<number>();
    for (const p of relevant.keys()) [p - 1, p, p + 1].forEach((x) => wanted.add(x));
    return all.filter((c) => wanted.has(c.position)).map((c) => ({ chunk: c, score: relevant.get(c.position) ?? 0, isRelevant: relevant.has(c.position) }));
  }
}

function matching(hits: ChunkHit[]): V3Chunk[] {
  return [...hits].sort((a, b) => a.chunk.position - b.chunk.position).map((h) => ({ chunk: h.chunk, score: h.similarity, isRelevant: true }));
}

/** The document's text from its chunks, without the overlap between neighbours. */
export function joinChunks(chunks: Omit<IndexedChunk, "vector">[]): string {
  let out = "";
  let end = 0;
  for (const c of [...chunks].sort((a, b) => a.position - b.position)) {
    if (c.startOffset >= end) out += (out ? "\n\n" : "") + c.content;
    else out += c.content.slice(Math.min(c.content.length, end - c.startOffset));
    end = Math.max(end, c.endOffset);
  }
  return out;
}
