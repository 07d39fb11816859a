import type { FilterExpr } from "@engram/filters";
import type { MemoryRecord } from "./memory";

/**
 * The questions both services ask a memory store (search and list) and the
 * answers: the memories service while writing, recall when answering
 * searches and profiles. The ports that use them are declared by each
 * service (`MemoryRepository` in memories, the memory read model in recall).
 */
export interface MemorySearchQuery {
  tenantId: string;
  /** Namespaces to search; undefined = every namespace of the tenant. */
  namespaces?: string[];
  text: string;
  limit: number;
  /** Metadata filter (the API's AND/OR syntax, parsed). */
  filter?: FilterExpr;
  /** Also match forgotten and expired memories (latest versions only either way). */
  includeForgotten?: boolean;
  /** Only static (true) or only dynamic (false) memories. */
  isStatic?: boolean;
  /** Reference time for expiry (ISO 8601). */
  now: string;
  /** Query embedding for the dense side, with its embedder id; denseWeight 0 (default) = keyword ranking only. */
  vector?: Float32Array;
  model?: string;
  denseWeight?: number;
  /** The query model's cosine scale (Embedder.calibration in @engram/index): ranking by evidence, words and meaning combined. */
  calibration?: { floor: number; full: number };
  /** Candidate subjects of the query (names) with their vectors: meaning is measured without the scope's subject (@engram/index EngineQuery.subjects). */
  subjects?: { terms: string[]; vector: Float32Array }[];
}

export interface MemoryHit {
  memory: MemoryRecord;
  /** Calibrated relevance in [0, 1]. */
  similarity: number;
  /** The memory's own similarity, without what it shares from better-ranked results (EngineHit.ownSimilarity). */
  ownSimilarity: number;
  /** Ranking score (higher is better; comparable within one query). */
  score: number;
}

export interface MemoryListQuery {
  tenantId: string;
  namespaces?: string[];
  filter?: FilterExpr;
  /** Latest versions only (default) or every version. */
  allVersions?: boolean;
  includeForgotten?: boolean;
  isStatic?: boolean;
  sort: "createdAt" | "updatedAt";
  order: "asc" | "desc";
  offset: number;
  limit: number;
  now: string;
  /**
   * False when the caller needs the page only (profiles): the walk stops once
   * the page is full and `total` is then offset + the items returned, a lower
   * bound. Default true: `total` counts every match.
   */
  countTotal?: boolean;
}
