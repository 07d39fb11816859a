import type { DocumentStatus } from "@engram/kernel";
import { applyState, type StateUpdate } from "../domain/document";
import { documentDeleted } from "./document-events";
import type { DocumentRepository } from "./ports";

/**
 * Applies a pipeline state event to the document (idempotent, monotonic).
 * When the current generation fails, what earlier content left in the index
 * and in memories is withdrawn (DocumentDeleted with `withdrawn`, in the same
 * write through the outbox): a failed document serves nothing stale.
 */
export class RecordStateUseCase {
  constructor(private readonly repo: DocumentRepository) {}

  async execute(tenantId: string, documentId: string, update: StateUpdate): Promise<DocumentStatus | undefined> {
    // Optimistic update: a concurrent add may change the record; re-read and re-apply.
    for (let attempt = 0; attempt < 5; attempt++) {
      const doc = await this.repo.findById(tenantId, documentId);
      if (!doc) return undefined; // deleted meanwhile
      const next = applyState(doc, update);
      if (!next) return undefined;
      const withdraw = next.status === "failed" && doc.status !== "failed" ? [documentDeleted(next, new Date(update.at), {}, true)] : [];
      if (await this.repo.update(doc, next, withdraw)) return next.status;
    }
    throw new Error(`could not record state of ${documentId} after concurrent changes`);
  }
}
