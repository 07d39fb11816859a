import type { ChunkIndex, Embedder, MemoryIndex } from "@engram/index";
import type { JsonObject } from "@engram/kernel";

export type { ChunkIndex, Embedder, MemoryIndex };

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
  /** By service or caller-defined id within the namespace (tenant-wide when namespace is empty); undefined when absent. */
  get(tenantId: string, namespace: string, id: string): Promise<DocumentInfo | undefined>;
  close(): void;
}

/** Effective profile buckets of a namespace. */
export interface BucketSource {
  buckets(tenantId: string, namespace: string): Promise<{ key: string; description: string }[]>;
  close(): void;
}
