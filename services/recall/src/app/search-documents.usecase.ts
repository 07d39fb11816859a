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
}

export interface DocumentHit {
  documentId: string;
  /** Best chunk first, then the document's other matching chunks. */
  chunks: ChunkHit[];
  similarity: number;
}

/**
 * Chunk search (keyword + dense, fused) over the document index, one result
 * per document: its best chunk leads, the others follow. Results below the
 * similarity threshold are dropped.
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
    });
    const byDoc = new Map<string, DocumentHit>();
    for (const h of hits) {
      if (h.similarity < query.threshold) continue;
      const entry = byDoc.get(h.chunk.documentId);
      if (entry) entry.chunks.push(h);
      else byDoc.set(h.chunk.documentId, { documentId: h.chunk.documentId, chunks: [h], similarity: h.similarity });
    }
    return [...byDoc.values()].slice(0, query.limit);
  }
}
