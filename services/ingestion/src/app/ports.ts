import type { ContainerTagMerge, ContainerTagSettings, NamespaceDocumentStats } from "../domain/container-tag";
import type { OutgoingMessage } from "@engram/bus";
import type { FilterExpr } from "@engram/filters";
import type { DocumentStatus } from "@engram/kernel";
import type { DocumentRecord } from "../domain/document";

export interface DocumentListQuery {
  tenantId: string;
  /** Undefined = every namespace of the tenant. */
  namespaces?: string[];
  statuses?: DocumentStatus[];
  filter?: FilterExpr;
  /** Exact path, or a prefix when it ends with '/'. */
  filepath?: string;
  /** Only the documents this connection imported. */
  connectionId?: string;
  sort: "createdAt" | "updatedAt";
  order: "asc" | "desc";
  offset: number;
  limit: number;
  /**
   * Leave the content out (items carry content "" and `contentBytes` says how
   * large each one is): a listing that carries content loads only what its
   * content budget admits, through `contents` (issue #33).
   */
  withoutContent?: boolean;
}

export interface DocumentListResult {
  items: DocumentRecord[];
  total: number;
  /** With `withoutContent`: each item's content size in UTF-8 bytes, in item order. */
  contentBytes?: number[];
}

export interface DocumentWrite {
  /** Absent for an insert; for an update, the record as read (optimistic check). */
  previous?: DocumentRecord;
  next: DocumentRecord;
  events: OutgoingMessage[];
}

/**
 * Storage port for documents. Writes take the events the change must publish:
 * the adapter stores them in its outbox in the same transaction as the
 * document, so a crash can never separate the two.
 */
export interface DocumentRepository {
  /** The tenant owning each of these ids, in any tenant (ids are unique per instance); unknown ids are absent. */
  ownersOf(ids: string[]): Promise<Map<string, string>>;
  /** Service id lookup within the tenant. */
  findById(tenantId: string, id: string): Promise<DocumentRecord | undefined>;
  findByCustomId(tenantId: string, namespace: string, customId: string): Promise<DocumentRecord | undefined>;
  /** Several caller ids of one namespace at once (batch adds). */
  findByCustomIds(tenantId: string, namespace: string, customIds: string[]): Promise<Map<string, DocumentRecord>>;
  /** Legacy reads without a namespace: newest document with that caller id in the tenant. */
  findByCustomIdInTenant(tenantId: string, customId: string): Promise<DocumentRecord | undefined>;
  /** Throws AlreadyExistsError when the caller id is taken in the namespace. */
  insert(doc: DocumentRecord, events: OutgoingMessage[]): Promise<void>;
  /** Optimistic: applies only when the stored updatedAt/generation/sequence still match `previous`. */
  update(previous: DocumentRecord, next: DocumentRecord, events: OutgoingMessage[]): Promise<boolean>;
  /** Several writes in one transaction; per write, whether it applied (a lost race returns false). */
  writeMany(writes: DocumentWrite[]): Promise<boolean[]>;
  /** Removes documents and stores their events in one transaction; returns the ids removed. */
  delete(docs: DocumentRecord[], events: OutgoingMessage[]): Promise<string[]>;
  list(q: DocumentListQuery): Promise<DocumentListResult>;
  /** The contents of some documents of the tenant, by service id (ids not found are absent). */
  contents(tenantId: string, ids: string[]): Promise<Map<string, string>>;
  /** Documents in a non-final state whose last change is older than the cut-off. */
  listStale(olderThan: string, limit: number): Promise<DocumentRecord[]>;
  close(): Promise<void>;
}

/**
 * Durable store for uploaded originals. `write` resolves only when the bytes
 * are on stable storage (the 2xx of a file add means exactly that).
 */
/**
 * Storage of container-tag settings (written by PATCH only) and the
 * per-tag statistics of the tenant's documents. Every call is tenant-scoped.
 */
export interface ContainerTagRepository {
  getTag(tenantId: string, namespace: string): Promise<ContainerTagSettings | undefined>;
  /** Every tag of the tenant with stored settings, by name of tag. */
  listTags(tenantId: string): Promise<ContainerTagSettings[]>;
  /** Stores a tag's settings (created or replaced). */
  putTag(settings: ContainerTagSettings): Promise<void>;
  /** Removes a tag's settings; true when there were any. */
  deleteTag(tenantId: string, namespace: string): Promise<boolean>;
  /** Per tag: how many documents it holds and their first and last times (one tag, or every tag of the tenant). */
  namespaceStats(tenantId: string, namespace?: string): Promise<NamespaceDocumentStats[]>;
  /** Stores a merge job (created or replaced). */
  putMerge(m: ContainerTagMerge): Promise<void>;
  getMerge(tenantId: string, id: string): Promise<ContainerTagMerge | undefined>;
  /** Unfinished merge jobs (queued or running) of every tenant, oldest first: what the merge worker runs and resumes. */
  unfinishedMerges(limit: number): Promise<ContainerTagMerge[]>;
  /**
   * Claims an unfinished job for `holder` until `until`: when it is queued,
   * already the holder's, or its previous claim lapsed (`now`). Atomic across
   * replicas; the claimed job, or undefined.
   */
  claimMerge(tenantId: string, id: string, holder: string, now: string, until: string): Promise<ContainerTagMerge | undefined>;
}

export interface FileStore {
  /** Throws PayloadTooLargeError past maxBytes and leaves nothing behind. */
  write(key: string, chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<{ sizeBytes: number; sha256: string }>;
  read(key: string): AsyncIterable<Uint8Array>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}
