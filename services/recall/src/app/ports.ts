import type { ChunkIndex, Embedder } from "@engram/index";
import type { JsonObject } from "@engram/kernel";
import type { MemoryHit, MemoryListQuery, MemoryRecord, MemorySearchQuery } from "@engram/memory-model";

export type { ChunkIndex, Embedder };

/**
 * The memory read model recall searches: the memories service's store
 * (embedded or production), which implements it without knowing this port;
 * the composition root hands the one store to both services.
 */
export interface MemoryReadModel {
  search(q: MemorySearchQuery): Promise<MemoryHit[]>;
  /** Memories by id within the tenant (and namespace when given), in request order; unknown ids skipped. */
  getMany(tenantId: string, ids: string[], namespace?: string): Promise<MemoryRecord[]>;
  /** Every version of the chains the given memories belong to (for version context), oldest first. */
  chains(tenantId: string, rootIds: string[]): Promise<MemoryRecord[]>;
  list(q: MemoryListQuery): Promise<{ items: MemoryRecord[]; total: number }>;
  /** Loads every partition ahead of the first search (in-memory read models), without long pauses of the event loop. */
  warm?(): Promise<void>;
}

/** The fields of a source document shown next to results. */
export interface DocumentInfo {
  id: string;
  customId?: string;
  namespace: string;
  title?: string;
  contentType?: string;
  metadata?: JsonObject;
  summary?: string;
  filepath?: string;
  /** Full text (v3 includeFullDocs). */
  content?: string;
  createdAt: string;
  updatedAt: string;
}

/** Documents by id from their owner (ingestion): full content and caller-id resolution. */
export interface DocumentLookup {
  /**
   * By service or caller-defined id within the namespace (tenant-wide when
   * namespace is empty); undefined when absent. The content only with
   * `content: true` (it may be large: read as a stream).
   */
  get(tenantId: string, namespace: string, id: string, opts?: { content?: boolean }): Promise<DocumentInfo | undefined>;
  close(): void;
}

/** Effective profile buckets of a namespace. */
export interface BucketSource {
  buckets(tenantId: string, namespace: string): Promise<{ key: string; description: string }[]>;
  close(): void;
}
