import type { FilterExpr } from "@engram/filters";
import type { JsonObject } from "@engram/kernel";

/**
 * The document index (read model shared by pipeline-worker, which writes it,
 * and recall and memories, which read it: search, and a document's chunks for
 * memory formation). Every record carries tenant and namespace and
 * every read filters by both. Implementations: embedded (SQLite rows +
 * the in-memory SearchEngine) and Qdrant (named dense + sparse vectors).
 */
export interface IndexedChunk {
  id: string;
  tenantId: string;
  namespace: string;
  documentId: string;
  position: number;
  content: string;
  startOffset: number;
  endOffset: number;
  tokenCount: number;
  /**
   * The content's stored analysis (`analyzeForStorage(content)`) when the
   * writer computed it off the serving thread; the index analyses the content
   * itself when absent.
   */
  analyzed?: string;
  vector: Float32Array;
  /** Id of the embedder that made the vector; vectors of other models are never compared. */
  model?: string;
  /** Denormalised document fields for filtering and result rendering. */
  document: {
    title?: string;
    contentType?: string;
    customId?: string;
    metadata?: JsonObject;
    /** The document's source filepath (filtered inside the search, see `ChunkSearchQuery.filepath`). */
    filepath?: string;
    createdAt: string;
    updatedAt: string;
  };
  createdAt: string;
}

export interface ChunkSearchQuery {
  /** Metadata filter on the chunk's document (the API's AND/OR syntax, parsed). */
  filter?: FilterExpr;
  /**
   * Source filepath of the chunk's document: exact, or a prefix when it ends
   * with '/' (`matchesFilepath`). Applied inside the search, before top-k, so a
   * filtered page is as full as an unfiltered one. Chunks whose filepath the
   * index does not know yet (written before chunks carried it, until
   * `backfillFilepath` reaches them) pass, with `document.filepath` undefined:
   * the caller checks those against the document's owner.
   */
  filepath?: string;
  tenantId: string;
  /** Namespaces to search (results never leave them); undefined = every namespace of the tenant. */
  namespaces?: string[];
  text: string;
  vector: Float32Array;
  /**
   * Weight of the dense ranking in the fusion (keyword weight is 1). Default
   * 0.5; callers pass 0 for an embedder without semantic signal, whose
   * vectors only repeat the keyword evidence with noise (measured by bench:quality).
   */
  denseWeight?: number;
  /** Embedder id of the query vector: only chunks embedded by the same model join the dense ranking. */
  model?: string;
  /** Engine candidates: the best `limit` chunks are ranked (and, without `group`, returned). */
  limit: number;
  documentId?: string;
  /** Chunks below this similarity are left out (before grouping). */
  minSimilarity?: number;
  /**
   * Read back only what a per-document result shows: the ranked chunks are
   * walked in rank order, at most `documents` distinct documents are kept and
   * at most `chunksPerDocument` chunks of each (Infinity: every ranked chunk of
   * a kept document), still in rank order; only those rows are read.
   */
  group?: { documents: number; chunksPerDocument: number };
}

export interface ChunkHit {
  chunk: Omit<IndexedChunk, "vector">;
  /** Rank-fused score used for ordering. */
  score: number;
  /** Calibrated relevance in [0, 1] reported as similarity. */
  similarity: number;
  /** Components for diagnostics and benches. */
  keywordScore: number;
  vectorScore: number;
}

/** A page of a namespace's chunks, ordered by creation date, then document id, then position. */
export interface ListChunksQuery {
  tenantId: string;
  namespace: string;
  /** Metadata filter on the chunk's document. */
  filter?: FilterExpr;
  offset: number;
  limit: number;
  order: "asc" | "desc";
}

/** What `replaceDocumentChunks` did: `written`, or `stale` (a newer generation of the document is stored; nothing changed). */
export type ReplaceOutcome = "written" | "stale";

export interface ChunkIndex {
  /**
   * Replaces every chunk of the document with those of one processing
   * `generation` (the document's generation, `DocumentRef.generation`).
   * Chunks of the document in any other namespace of the tenant go too (a
   * moved document). A write of an older generation than the newest one
   * stored is refused with no effect (`stale`): a worker evicted by a
   * rebalance cannot bring back older content. A write of the same generation
   * replaces (a redelivery, a stale sweep). Readers (search,
   * `listDocumentChunks`, `listChunks`) see each document's chunks of one
   * whole generation, never a mix and never part of one.
   */
  replaceDocumentChunks(tenantId: string, namespace: string, documentId: string, chunks: IndexedChunk[], generation: number): Promise<ReplaceOutcome>;
  /**
   * Deletes the document's chunks (the event's namespace; a moved document's
   * chunks elsewhere in the tenant too) as of `generation`: a later write of
   * that generation or an older one is refused (`stale`), so a worker evicted
   * mid-write cannot bring a deleted or withdrawn document back; a newer
   * generation (new content after a withdrawal) is written as usual. Without a
   * generation (or 0), every generation is covered.
   */
  deleteDocument(tenantId: string, namespace: string, documentId: string, generation?: number): Promise<number>;
  /**
   * Refreshes the document fields copied onto its chunks (metadata after an
   * update; with `fields`, the filepath too: undefined removes it).
   */
  updateDocumentMetadata(
    tenantId: string,
    documentId: string,
    metadata: JsonObject | undefined,
    updatedAt: string,
    fields?: { filepath: string | undefined },
  ): Promise<number>;
  /**
   * Documents (at most `limit`) with chunks whose filepath the index does not
   * know: written before chunks carried the document's filepath. The pipeline
   * worker fills them in at start (`backfillFilepath`).
   */
  documentsWithoutFilepath(limit: number): Promise<{ tenantId: string; documentId: string }[]>;
  /**
   * Records the document's filepath (undefined: it has none) on those of its
   * chunks that have no filepath recorded, and only on those: a write or an
   * update that recorded one meanwhile is newer and stays. Returns the chunks set.
   */
  backfillFilepath(tenantId: string, documentId: string, filepath: string | undefined): Promise<number>;
  search(query: ChunkSearchQuery): Promise<ChunkHit[]>;
  listDocumentChunks(tenantId: string, namespace: string, documentId: string): Promise<Omit<IndexedChunk, "vector">[]>;
  /** Chunks of a namespace (optionally filtered by document metadata), one page, with the total count of matching chunks. */
  listChunks(q: ListChunksQuery): Promise<{ items: Omit<IndexedChunk, "vector">[]; total: number }>;
  /**
   * Optional: makes every stored chunk searchable ahead of the first search,
   * in slices that leave the event loop free in between (a serving process
   * keeps answering meanwhile). Resolves when done.
   */
  warm?(): Promise<void>;
  close(): Promise<void>;
}

/** A processing generation is a non-negative integer (`DocumentRef.generation`); anything else is a programming error. */
export function assertGeneration(generation: number): void {
  if (!Number.isSafeInteger(generation) || generation < 0) throw new Error(`invalid document generation ${generation}`);
}
