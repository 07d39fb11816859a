import { idKindOf, InvalidArgumentError, NotFoundError } from "@engram/kernel";
import type { DocumentRecord } from "../domain/document";
import type { DocumentRepository } from "./ports";

/**
 * Resolves a document by service id or caller-defined id. With a namespace
 * (v5) the document must live in it; without (legacy v3) the id resolves in
 * the whole tenant. Never crosses tenants; a document outside the namespace
 * is reported exactly like a missing one.
 */
export class GetDocumentUseCase {
  constructor(private readonly repo: DocumentRepository) {}

  async execute(tenantId: string, namespace: string | undefined, id: string): Promise<DocumentRecord> {
    if (!id) throw new InvalidArgumentError("document id is required");
    const kind = idKindOf(id);
    if (kind && kind !== "document") {
      throw new InvalidArgumentError(
        `${id} is a ${kind} id, not a document id`,
        kind === "memory" ? "use the memories endpoints (/v4/memories, /ns/{namespace}/memories) for memory ids" : undefined,
      );
    }
    let doc: DocumentRecord | undefined;
    if (kind === "document") doc = await this.repo.findById(tenantId, id);
    if (!doc) doc = namespace ? await this.repo.findByCustomId(tenantId, namespace, id) : await this.repo.findByCustomIdInTenant(tenantId, id);
    if (!doc || (namespace && doc.namespace !== namespace)) {
      throw new NotFoundError(`document ${id} not found${namespace ? ` in namespace ${namespace}` : ""}`);
    }
    return doc;
  }
}
