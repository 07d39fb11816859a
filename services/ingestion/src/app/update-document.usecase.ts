import { AlreadyExistsError, type Clock, type JsonObject, type TaskType } from "@engram/kernel";
import { contentHash, type DocumentRecord, sourceKindOf, validateCustomId, validateInput, validateNamespace } from "../domain/document";
import { documentMetadataChanged, documentQueued, indexedFieldsChanged } from "./document-events";
import { type AddDocumentResult, resultOf, traceHeaders } from "./add-document.usecase";
import type { GetDocumentUseCase } from "./get-document.usecase";
import type { DocumentRepository, FileStore } from "./ports";

export interface DocumentPatch {
  content?: string;
  customId?: string;
  namespace?: string;
  containerTags?: string[];
  metadata?: JsonObject;
  group?: JsonObject;
  filepath?: string;
  taskType?: TaskType;
}

/**
 * PATCH /v3/documents/{id}: changes only the given fields. New content or a
 * move to another namespace re-processes the document (next generation);
 * other changes are stored and, for a processed document, pushed to the index.
 */
export class UpdateDocumentUseCase {
  constructor(
    private readonly repo: DocumentRepository,
    private readonly files: FileStore,
    private readonly getDocument: GetDocumentUseCase,
    private readonly clock: Clock,
    private readonly onWritten: () => void,
  ) {}

  async execute(c: {
    tenantId: string;
    namespace?: string;
    id: string;
    patch: DocumentPatch;
    requestId?: string;
    traceparent?: string;
  }): Promise<AddDocumentResult> {
    const p = c.patch;
    if (p.namespace !== undefined) validateNamespace(p.namespace, "containerTag");
    if (p.customId !== undefined) validateCustomId(p.customId, "customId");
    if (p.content !== undefined) validateInput({ content: p.content });
    for (let attempt = 0; attempt < 3; attempt++) {
      const doc = await this.getDocument.execute(c.tenantId, c.namespace, c.id);
      const now = this.clock.now();
      const newContent = p.content !== undefined && (doc.sourceKind === "file" || contentHash(p.content) !== doc.contentHash);
      const moved = p.namespace !== undefined && p.namespace !== doc.namespace;
      let next: DocumentRecord = {
        ...doc,
        customId: p.customId ?? doc.customId,
        namespace: p.namespace ?? doc.namespace,
        containerTags: p.containerTags ? p.containerTags.filter((t) => t !== (p.namespace ?? doc.namespace)) : doc.containerTags,
        metadata: p.metadata ?? doc.metadata,
        group: p.group ?? doc.group,
        filepath: p.filepath ?? doc.filepath,
        taskType: p.taskType ?? doc.taskType,
        updatedAt: now.toISOString(),
      };
      if (newContent || moved) {
        const content = p.content ?? doc.content;
        const kind = newContent ? sourceKindOf(content) : doc.sourceKind;
        next = {
          ...next,
          content,
          sourceKind: kind,
          url: kind === "url" ? content.trim() : undefined,
          file: newContent ? undefined : doc.file,
          contentHash: newContent ? contentHash(content) : doc.contentHash,
          status: "queued",
          statusReason: undefined,
          summary: newContent ? undefined : doc.summary,
          generation: doc.generation + 1,
          stateSequence: 0,
          requeues: undefined,
        };
      }
      const headers = traceHeaders(c);
      const events =
        newContent || moved ? [documentQueued(next, headers)] : indexedFieldsChanged(doc, next) ? [documentMetadataChanged(next, now, headers)] : [];
      let ok: boolean;
      try {
        ok = await this.repo.update(doc, next, events);
      } catch (err) {
        if (err instanceof AlreadyExistsError || (err as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") {
          throw new AlreadyExistsError(`a document with id ${next.customId} already exists in ${next.namespace}`);
        }
        throw err;
      }
      if (ok) {
        if (events.length) this.onWritten();
        if (newContent && doc.file) await this.files.delete(doc.file.key);
        return resultOf(next);
      }
    }
    throw new AlreadyExistsError("the document changed concurrently; retry the request");
  }
}
