import type { FilterExpr } from "@engram/filters";
import type { ChunkHit, ChunkIndex } from "@engram/index";
import type { PreparedQuery } from "./query";

export interface SearchDocumentsQuery {
  tenantId: string;
  /** Undefined = every namespace of the tenant. */
  namespaces?: string[];
  query: PreparedQuery;
  limit: number;
  threshold: number;
  documentId?: string;
  filter?: FilterExpr;
  /**
   * Matching chunks kept per document, best first: 1 (default) when only the
   * best chunk is shown, Infinity when every matching chunk of a returned
   * document is (v3 search, include.chunks).
   */
  perDocument?: number;
}

export interface DocumentHit {
  documentId: string;
  /** Best chunk first, then the document's other matching chunks. */
  chunks: ChunkHit[];
  similarity: number;
}

/**
 * Chunk search (keyword + dense, fused) over the document index, one result
 * per document: its best chunk leads, the others (up to `perDocument` in all)
 * follow. Results below the similarity threshold are dropped. The index ranks
 * max(50, 5 × limit) chunks and reads back only the chunks kept.
 */
export class SearchDocumentsUseCase {
  constructor(private readonly index: ChunkIndex) {}

  async execute(query: SearchDocumentsQuery): Promise<DocumentHit[]> {
    const hits = await this.index.search({
      tenantId: query.tenantId,
      namespaces: query.namespaces,
      text: query.query.text,
      vector: query.query.vector,
      model: query.query.model,
      denseWeight: query.query.denseWeight,
      limit: Math.max(50, query.limit * 5),
      documentId: query.documentId,
      filter: query.filter,
      minSimilarity: query.threshold,
      group: { documents: query.limit, chunksPerDocument: query.perDocument ?? 1 },
    });
    // The index has applied the threshold and the grouping already; applying them again costs nothing.
    const perDocument = query.perDocument ?? 1;
    const byDoc = new Map<string, DocumentHit>();
    for (const h of hits) {
      if (h.similarity < query.threshold) continue;
      const entry = byDoc.get(h.chunk.documentId);
      if (!entry) byDoc.set(h.chunk.documentId, { documentId: h.chunk.documentId, chunks: [h], similarity: h.similarity });
      else if (entry.chunks.length < perDocument) entry.chunks.push(h);
    }
    return [...byDoc.values()].slice(0, query.limit);
  }
}
