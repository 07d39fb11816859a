import type { OutgoingMessage } from "@engram/bus";
import type { DocumentRecord } from "../domain/document";

/**
 * Storage port for documents. Writes take the events the change must publish:
 * the adapter stores them in its outbox in the same transaction as the
 * document, so a crash can never separate the two.
 */
export interface DocumentRepository {
  /** Service id lookup within the tenant. */
  findById(tenantId: string, id: string): Promise<DocumentRecord | undefined>;
  findByCustomId(tenantId: string, namespace: string, customId: string): Promise<DocumentRecord | undefined>;
  /** Legacy reads without a namespace: newest document with that caller id in the tenant. */
  findByCustomIdInTenant(tenantId: string, customId: string): Promise<DocumentRecord | undefined>;
  /** Throws AlreadyExistsError when the caller id is taken in the namespace. */
  insert(doc: DocumentRecord, events: OutgoingMessage[]): Promise<void>;
  /** Optimistic: applies only when the stored updatedAt/generation/sequence still match `previous`. */
  update(previous: DocumentRecord, next: DocumentRecord, events: OutgoingMessage[]): Promise<boolean>;
  /** Documents in a non-final state whose last change is older than the cut-off. */
  listStale(olderThan: string, limit: number): Promise<DocumentRecord[]>;
  close(): Promise<void>;
}
