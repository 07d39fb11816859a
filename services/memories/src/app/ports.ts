import type { ChunkIndex } from "@engram/index";
import type { JsonObject } from "@engram/kernel";
import type { MemoryHit, MemoryListQuery, MemoryRecord, MemorySearchQuery } from "@engram/memory-model";

/** A memory with its embedding (the store keeps the vector for the dense side of search). */
export interface MemoryVector {
  vector: Float32Array;
  model: string;
}

export interface MemoryWrite {
  /** Records to insert, or to replace by id (a memory changed: new flags, sources, latest). */
  records: MemoryRecord[];
  /** Vectors of new or re-worded records, by memory id. */
  vectors?: Map<string, MemoryVector>;
  /**
   * Optimistic check: each listed memory must still have this updatedAt in
   * the store, otherwise nothing is written and `write` returns false (a
   * concurrent change won; the caller re-reads and decides again).
   */
  expect?: { id: string; updatedAt: string }[];
  /** Marks a document generation as formed, in the same transaction (formation idempotency). */
  formation?: { tenantId: string; documentId: string; generation: number };
}

/**
 * Storage of memories: writes, and the reads memory operations need. The
 * same store is the read model recall searches (recall declares that port
 * itself; the composition root hands it this store). A write is searchable
 * once `write` resolved.
 */
export interface MemoryRepository {
  search(q: MemorySearchQuery): Promise<MemoryHit[]>;
  /** Memories by id within the tenant (and namespace when given), in request order; unknown ids skipped. */
  getMany(tenantId: string, ids: string[], namespace?: string): Promise<MemoryRecord[]>;
  /** Every version of the chains the given memories belong to (for version context), oldest first. */
  chains(tenantId: string, rootIds: string[]): Promise<MemoryRecord[]>;
  list(q: MemoryListQuery): Promise<{ items: MemoryRecord[]; total: number }>;
  /** Namespaces of the tenant that hold memories. */
  namespaces(tenantId: string): Promise<string[]>;
  findById(tenantId: string, id: string): Promise<MemoryRecord | undefined>;
  /** Memories of a namespace whose normalised content (contentKey) equals `key`, latest versions first. */
  findByContentKey(tenantId: string, namespace: string, key: string): Promise<MemoryRecord[]>;
  /** Every memory (all versions) that lists the document among its sources. */
  findByDocument(tenantId: string, documentId: string): Promise<MemoryRecord[]>;
  /** Not-yet-forgotten memories whose forgetAfter is at or before `now`. */
  findExpired(now: string, limit: number): Promise<MemoryRecord[]>;
  isFormed(tenantId: string, documentId: string, generation: number): Promise<boolean>;
  write(w: MemoryWrite): Promise<boolean>;
  /**
   * Removes every memory row of the tenant for good (every version,
   * forgotten or not, with its provenance, vectors and formation marks):
   * the organisation reset. Returns the rows removed; idempotent.
   */
  purgeTenant(tenantId: string): Promise<number>;
  /**
   * Moves every memory row (every version, forgotten or not) of the source
   * namespaces into the target (a container-tag merge); returns the rows
   * moved. Ids, versions, relations and provenance stay; idempotent.
   */
  moveNamespaces(tenantId: string, sources: string[], target: string): Promise<number>;
  close(): Promise<void>;
}

/** What memory formation needs to know about a source document. */
export interface SourceDocument {
  id: string;
  namespace: string;
  chunks: { position: number; content: string }[];
  supportingContext?: string;
  title?: string;
  /** The document's own date (documentDate / date), when given. */
  date?: string;
  metadata?: JsonObject;
  filepath?: string;
  createdAt: string;
  /** Current processing generation: a stale event's generation is older. */
  generation: number;
}

/** Reads source documents: the record from its owner (ingestion), the extracted text from the chunk index. */
export interface SourceDocumentReader {
  read(tenantId: string, namespace: string, documentId: string, traceparent?: string): Promise<SourceDocument | undefined>;
  close(): void;
}

/** A document's extracted chunks: the chunk index the pipeline-worker writes (memories only reads it). */
export type DocumentChunks = Pick<ChunkIndex, "listDocumentChunks">;

export interface DocumentRef {
  tenantId: string;
  namespace: string;
  documentId: string;
  generation: number;
  traceparent?: string;
}

/** Reports the end of memory formation as the document's final state. */
export interface FormationEvents {
  done(ref: DocumentRef, info: { title?: string; contentType?: string }): Promise<void>;
  failed(ref: DocumentRef, reason: string): Promise<void>;
}

/** Effective profile buckets of a namespace (organisation buckets plus the container tag's own). */
export interface BucketSource {
  buckets(tenantId: string, namespace: string): Promise<{ key: string; description: string }[]>;
  close(): void;
}

/** A container tag's settings that memory formation applies (PATCH /v3/container-tags/{tag}). */
export interface FormationContextSource {
  formationContext(tenantId: string, namespace: string): Promise<{ entityContext?: string; memoryFilesystemPaths?: string[] }>;
}
