import { type Clock, idKindOf, InvalidArgumentError } from "@engram/kernel";
import { type DocumentRecord, validateConnectionId, validateNamespace } from "../domain/document";
import type { DocumentListQuery } from "./ports";
import { documentDeleted } from "./document-events";
import type { DocumentRepository, FileStore } from "./ports";

export interface DeleteResult {
  count: number;
  deletedIds: string[];
  errors: { id: string; error: string }[];
}

/**
 * Deletes documents by service or caller id (1-100), or every document of
 * some namespaces or of one connection. Each removal publishes DocumentDeleted (through the
 * outbox) so the chunk index and memories drop the document too. Ids outside
 * the scope are reported as not found, exactly like missing ones.
 */
export class DeleteDocumentsUseCase {
  static readonly MAX_IDS = 100;
  constructor(
    private readonly repo: DocumentRepository,
    private readonly files: FileStore,
    private readonly clock: Clock,
    private readonly onWritten: () => void,
  ) {}

  async byIds(tenantId: string, namespace: string | undefined, ids: string[]): Promise<DeleteResult> {
    if (namespace !== undefined) validateNamespace(namespace);
    if (ids.length < 1 || ids.length > DeleteDocumentsUseCase.MAX_IDS)
      throw new InvalidArgumentError(`delete takes 1 to ${DeleteDocumentsUseCase.MAX_IDS} ids`, `got ${ids.length}`);
    const errors: DeleteResult["errors"] = [];
    const found = new Map<string, DocumentRecord>();
    for (const id of [...new Set(ids)]) {
      const kind = idKindOf(id);
      if (kind && kind !== "document") {
        errors.push({ id, error: `${id} is a ${kind} id, not a document id${kind === "memory" ? "; forget memories through the memories endpoints" : ""}` });
        continue;
      }
      let doc = kind === "document" ? await this.repo.findById(tenantId, id) : undefined;
      if (!doc) doc = namespace ? await this.repo.findByCustomId(tenantId, namespace, id) : await this.repo.findByCustomIdInTenant(tenantId, id);
      if (!doc || (namespace !== undefined && doc.namespace !== namespace)) {
        errors.push({ id, error: "document not found" });
        continue;
      }
      found.set(doc.id, doc);
    }
    const deletedIds = await this.remove([...found.values()]);
    return { count: deletedIds.length, deletedIds, errors };
  }

  /** Every document of the namespaces, or only those at `filepath` (exact, or a prefix ending in "/"). */
  async byNamespaces(tenantId: string, namespaces: string[], filepath?: string): Promise<DeleteResult> {
    if (namespaces.length === 0) throw new InvalidArgumentError("give ids or containerTags to delete");
    for (const ns of namespaces) validateNamespace(ns, "containerTags[]");
    if (filepath !== undefined && filepath.trim() === "") throw new InvalidArgumentError("filepath must not be blank");
    return this.everyMatch({ tenantId, namespaces, ...(filepath !== undefined ? { filepath } : {}) });
  }

  /** Every document a connection imported (a connection deleted with its documents). */
  async byConnection(tenantId: string, connectionId: string): Promise<DeleteResult> {
    validateConnectionId(connectionId);
    return this.everyMatch({ tenantId, connectionId });
  }

  /**
   * Every document of the tenant (the organisation reset), with the
   * namespaces that held them. Idempotent: a reset cut short is finished by
   * running it again.
   */
  async byTenant(tenantId: string): Promise<DeleteResult & { namespaces: string[] }> {
    return this.everyMatch({ tenantId });
  }

  /** Deletes page after page of the listing until none is left (or a page removes nothing: changed meanwhile, left for a retry). */
  private async everyMatch(
    scope: Pick<DocumentListQuery, "tenantId" | "namespaces" | "connectionId" | "filepath">,
  ): Promise<DeleteResult & { namespaces: string[] }> {
    const deletedIds: string[] = [];
    const namespaces = new Set<string>();
    for (;;) {
      const { items } = await this.repo.list({ ...scope, sort: "createdAt", order: "asc", offset: 0, limit: 500 });
      if (items.length === 0) break;
      const removed = await this.remove(items);
      if (removed.length === 0) break;
      const gone = new Set(removed);
      for (const d of items) if (gone.has(d.id)) namespaces.add(d.namespace);
      deletedIds.push(...removed);
    }
    return { count: deletedIds.length, deletedIds, errors: [], namespaces: [...namespaces].sort() };
  }

  private async remove(docs: DocumentRecord[]): Promise<string[]> {
    if (docs.length === 0) return [];
    const now = this.clock.now();
    const removed = await this.repo.delete(
      docs,
      docs.map((d) => documentDeleted(d, now)),
    );
    this.onWritten();
    const gone = new Set(removed);
    for (const d of docs) if (gone.has(d.id) && d.file) await this.files.delete(d.file.key);
    return removed;
  }
}
