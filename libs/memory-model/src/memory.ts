import type { JsonObject, MemoryRelationKind } from "@engram/kernel";

/**
 * The memory record: what the memories service stores and recall reads
 * (the same shape in the embedded and the production store). No I/O.
 */
export type { MemoryRelationKind };

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
