import type { FilterExpr } from "@engram/filters";
import type { ChunkHit, ChunkIndex } from "@engram/index";
import { matchesFilepath } from "@engram/kernel";
import type { DocumentLookup } from "./ports";
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
  /** Source filepath: exact, or a prefix when it ends with '/' (applied by the index, inside the search). */
  filepath?: string;
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
 * max(50, 5 × limit) chunks and reads back only the chunks kept. The
 * filepath filter runs in the index, like the metadata filter: no document is
 * looked up, except for chunks written before the index stored filepaths (the
 * index lets them through without one until the pipeline worker's backfill
 * reaches them): those documents are checked with their owner, one lookup each.
 */
export class SearchDocumentsUseCase {
  constructor(
    private readonly index: ChunkIndex,
    private readonly lookup: Pick<DocumentLookup, "get">,
  ) {}

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
      filepath: query.filepath,
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
    const results = [...byDoc.values()].slice(0, query.limit);
    return query.filepath ? this.verifyFilepaths(query.tenantId, query.filepath, results) : results;
  }

  /** Drops results whose chunks the index could not check (no filepath stored yet) and whose document is elsewhere. */
  private async verifyFilepaths(tenantId: string, filepath: string, results: DocumentHit[]): Promise<DocumentHit[]> {
    const unverified = results.filter((r) => r.chunks[0]!.chunk.document.filepath === undefined);
    if (unverified.length === 0) return results;
    const found = await Promise.all(unverified.map((r) => this.lookup.get(tenantId, r.chunks[0]!.chunk.namespace, r.documentId)));
    const wrong = new Set(unverified.filter((_, i) => !matchesFilepath(found[i]?.filepath, filepath)).map((r) => r.documentId));
    return results.filter((r) => !wrong.has(r.documentId));
  }
}
