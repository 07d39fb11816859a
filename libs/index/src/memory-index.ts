import type { FilterExpr } from "@engram/filters";
import type { JsonObject } from "@engram/kernel";

/**
 * The memory read model: what the memories service writes and recall reads
 * (CQRS read side, like the chunk index). Embedded: the memories service's
 * SQLite store with the in-memory search engine; production: a Qdrant
 * collection with the same payload.
 */
export type MemoryRelationKind = "updates" | "extends" | "derives";

export interface MemorySource {
  documentId: string;
  /** 0-based positions of the chunks the memory was formed from (empty when unknown). */
  chunkPositions: number[];
}

export interface MemoryTemporalContext {
  /** When the source was authored (ISO 8601). */
  documentDate?: string;
  /** Dates of the events the memory refers to, as given (ISO 8601). */
  eventDates?: string[];
}

export interface MemoryRecord {
  id: string;
  tenantId: string;
  namespace: string;
  content: string;
  metadata?: JsonObject;
  /** Permanent trait (profile "static") rather than a recent fact. */
  isStatic: boolean;
  isForgotten: boolean;
  forgottenAt?: string;
  /** Automatic forgetting time (ISO 8601). */
  forgetAfter?: string;
  forgetReason?: string;
  /** Set on every memory forgotten by one forget-matching call. */
  forgetBatchId?: string;
  temporalContext?: MemoryTemporalContext;
  /** 1 for the first memory of a chain, +1 per update. */
  version: number;
  isLatest: boolean;
  /** Previous version (absent for version 1). */
  parentMemoryId?: string;
  /** First version of the chain (absent for version 1). */
  rootMemoryId?: string;
  /** Relation of this memory to parentMemoryId ("updates" for versions). */
  relation?: MemoryRelationKind;
  /** Relations to other memories (extends / derives), by their id. */
  relations: Record<string, MemoryRelationKind>;
  sources: MemorySource[];
  /** True when inferred rather than stated; undefined = unknown (REST null). */
  isInference?: boolean;
  /** Profile buckets the memory was classified into when written. */
  bucketKeys: string[];
  /** Filepath of the source document, when it had one. */
  filepath?: string;
  createdAt: string;
  updatedAt: string;
}

/** A memory counts as active when it is the latest version, not forgotten and not expired at `now`. */
export function isActiveMemory(m: Pick<MemoryRecord, "isLatest" | "isForgotten" | "forgetAfter">, now: string): boolean {
  return m.isLatest && !m.isForgotten && !(m.forgetAfter !== undefined && m.forgetAfter <= now);
}

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

export interface MemoryIndex {
  search(q: MemorySearchQuery): Promise<MemoryHit[]>;
  /** Memories by id within the tenant (and namespace when given), in request order; unknown ids skipped. */
  getMany(tenantId: string, ids: string[], namespace?: string): Promise<MemoryRecord[]>;
  /** Every version of the chains the given memories belong to (for version context), oldest first. */
  chains(tenantId: string, rootIds: string[]): Promise<MemoryRecord[]>;
  list(q: MemoryListQuery): Promise<{ items: MemoryRecord[]; total: number }>;
  /** Namespaces of the tenant that hold memories. */
  namespaces(tenantId: string): Promise<string[]>;
  /** Loads every partition ahead of the first search (in-memory read models), without long pauses of the event loop. */
  warm?(): Promise<void>;
}
