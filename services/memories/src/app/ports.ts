import type { ChunkIndex } from "@engram/index";
import type { JsonObject } from "@engram/kernel";
import type { MemoryHit, MemoryListQuery, MemoryRecord, MemorySearchQuery } from "@engram/memory-model";

/** A memory with its embedding (the store keeps the vector for the dense side of search). */
export interface MemoryVector {
  vector: Float32Array;
  model: string;
}

/**
 * One write of memories: all of it commits, or nothing does. Every change of a
 * stored memory is conditional on the version its writer read (`expect`), so
 * two replicas deciding on the same memories never both win: the store, not an
 * in-process lock, is the guard.
 */
export interface MemoryWrite {
  /**
   * Records to write. A record not stored yet is inserted; a stored one is
   * replaced only when `expect` names it with the updatedAt it still has (a
   * stored record the write does not expect is a conflict: no blind replace).
   * A write never moves a record to another tenant or namespace.
   */
  records: MemoryRecord[];
  /** Vectors of new or re-worded records, by memory id. */
  vectors?: Map<string, MemoryVector>;
  /**
   * Optimistic check: each listed memory must still have this updatedAt in
   * the store (every change moves updatedAt forward: `changedAt`), otherwise
   * nothing is written and the outcome is a conflict (a concurrent change
   * won; the caller re-reads and decides again).
   */
  expect?: { id: string; updatedAt: string }[];
  /**
   * Optimistic check of an absence (deduplication): once the write is
   * applied, no active memory (latest, not forgotten, not expired at `now`) of
   * the namespace other than this write's records has this normalised content;
   * otherwise a conflict (another replica wrote the same fact meanwhile).
   */
  expectNoDuplicate?: { tenantId: string; namespace: string; contentKey: string; now: string }[];
  /**
   * Memory formation of this document generation writes: refused, nothing
   * written, when the document was deleted at or after this generation (its
   * tombstone, `retire`) or a newer generation of it was formed already.
   */
  source?: DocumentGeneration;
  /** Marks a document generation as formed, in the same transaction (formation idempotency). */
  formation?: DocumentGeneration;
  /**
   * Optimistic check of a whole namespace (batched memory formation decides on
   * what it read of the namespace outside any lock): its change counter
   * (`namespaceVersion`) must still be `version`, otherwise nothing is written
   * and the outcome is a conflict (the caller reads `changesSince` and decides
   * again).
   */
  expectNamespace?: NamespaceVersion;
  /**
   * A source document is gone: its tombstone (the generation it was deleted
   * at, and when) is recorded in the same transaction, and the write is a
   * conflict when any memory would still cite the document after it (a
   * formation wrote one after the caller read the document's memories).
   */
  retire?: DocumentGeneration & { at: string };
}

/**
 * A namespace's change counter: every write that stores a memory of the
 * namespace moves it forward by one, in the write's transaction.
 */
export interface NamespaceVersion {
  tenantId: string;
  namespace: string;
  version: number;
}

/** What changed in a namespace after a version: every memory written since, as stored now, and the version they lead to. */
export interface NamespaceChanges {
  version: number;
  changed: MemoryRecord[];
}

/** One generation of one source document. */
export interface DocumentGeneration {
  tenantId: string;
  documentId: string;
  generation: number;
}

/**
 * What a write did; anything but "written" wrote nothing. "conflict": an
 * expectation or a unique constraint failed (re-read, decide again).
 * "source-deleted" / "source-superseded": the write's `source` was deleted or
 * a newer generation of it formed (formation stops; nothing failed).
 */
export type WriteOutcome = "written" | "conflict" | "source-deleted" | "source-superseded";

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
  /** The tenant owning each of these memory ids, in any tenant (ids are unique per instance); unknown ids are absent. */
  ownersOf(ids: string[]): Promise<Map<string, string>>;
  /** Memories of a namespace whose normalised content (contentKey) equals `key`, latest versions first. */
  findByContentKey(tenantId: string, namespace: string, key: string): Promise<MemoryRecord[]>;
  /** Every memory (all versions) that lists the document among its sources. */
  findByDocument(tenantId: string, documentId: string): Promise<MemoryRecord[]>;
  /** Not-yet-forgotten memories whose forgetAfter is at or before `now`. */
  findExpired(now: string, limit: number): Promise<MemoryRecord[]>;
  isFormed(tenantId: string, documentId: string, generation: number): Promise<boolean>;
  /** The namespace's change counter (0 before its first write); read before the reads a decision rests on. */
  namespaceVersion(tenantId: string, namespace: string): Promise<number>;
  /**
   * The memories of the namespace written after `version` (as stored now) and
   * the current version; undefined when the store cannot tell any more (the
   * caller then reads afresh).
   */
  changesSince(tenantId: string, namespace: string, version: number): Promise<NamespaceChanges | undefined>;
  write(w: MemoryWrite): Promise<WriteOutcome>;
  /**
   * Removes the deletion tombstones (`MemoryWrite.retire`) recorded before
   * `before`; returns how many. Safe once no formation that read the document
   * before its deletion can still be running (see RetireMemoriesUseCase).
   */
  pruneTombstones(before: string): Promise<number>;
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
