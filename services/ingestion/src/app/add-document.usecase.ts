import { AlreadyExistsError, type Clock, DEFAULT_DREAMING, DEFAULT_TASK_TYPE, type DocumentStatus, type Dreaming, newId, type TaskType } from "@engram/kernel";
import { contentHash, decideAdd, type DocumentInput, type DocumentRecord, sourceKindOf, validateInput, validateNamespace } from "../domain/document";
import { documentQueued } from "./document-events";
import type { DocumentRepository } from "./ports";

export interface AddDocumentCommand {
  tenantId: string;
  namespace: string;
  input: DocumentInput;
  taskType?: TaskType;
  dreaming?: Dreaming;
  requestId?: string;
  traceparent?: string;
}

export interface AddDocumentResult {
  id: string;
  status: DocumentStatus;
  namespace: string;
  customId?: string;
}

/**
 * Adds a document or applies a repeated add with the same caller id. The
 * document is stored (and its DocumentQueued event put in the outbox) before
 * the call returns, so a read right after a 2xx add never 404s.
 */
export class AddDocumentUseCase {
  constructor(
    private readonly repo: DocumentRepository,
    private readonly clock: Clock,
    private readonly onWritten: () => void,
  ) {}

  async execute(cmd: AddDocumentCommand): Promise<AddDocumentResult> {
    validateNamespace(cmd.namespace);
    validateInput(cmd.input);
    // A lost race on the caller id (two concurrent adds) is retried once with the winner's record.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(cmd);
      } catch (err) {
        if (err instanceof AlreadyExistsError && attempt === 0) continue;
        throw err;
      }
    }
  }

  private async attempt(cmd: AddDocumentCommand): Promise<AddDocumentResult> {
    const { tenantId, namespace, input } = cmd;
    const existing = input.customId ? await this.repo.findByCustomId(tenantId, namespace, input.customId) : undefined;
    const decision = decideAdd(existing, input);
    const now = this.clock.now().toISOString();
    const headers: Record<string, string> = {};
    if (cmd.requestId) headers["x-request-id"] = cmd.requestId;
    if (cmd.traceparent) headers.traceparent = cmd.traceparent;
    const result = (d: DocumentRecord): AddDocumentResult => ({ id: d.id, status: d.status, namespace: d.namespace, customId: d.customId });

    switch (decision.action) {
      case "create": {
        const content = input.content;
        const kind = sourceKindOf(content);
        const doc: DocumentRecord = {
          id: newId("document"),
          tenantId,
          namespace,
          customId: input.customId,
          content,
          supportingContext: input.supportingContext,
          metadata: input.metadata,
          group: input.group,
          date: input.date,
          filepath: input.filepath,
          status: "queued",
          taskType: cmd.taskType ?? DEFAULT_TASK_TYPE,
          dreaming: cmd.dreaming ?? DEFAULT_DREAMING,
          sourceKind: kind,
          url: kind === "url" ? content.trim() : undefined,
          contentHash: contentHash(content),
          generation: 1,
          stateSequence: 0,
          createdAt: now,
          updatedAt: now,
        };
        await this.repo.insert(doc, [documentQueued(doc, headers)]);
        this.onWritten();
        return result(doc);
      }
      case "requeue": {
        const prev = existing!;
        const kind = sourceKindOf(input.content);
        const next: DocumentRecord = {
          ...prev,
          ...fields(input),
          content: input.content,
          sourceKind: kind,
          url: kind === "url" ? input.content.trim() : undefined,
          contentHash: contentHash(input.content),
          taskType: cmd.taskType ?? prev.taskType,
          dreaming: cmd.dreaming ?? prev.dreaming,
          status: "queued",
          statusReason: undefined,
          generation: prev.generation + 1,
          stateSequence: 0,
          updatedAt: now,
        };
        if (!(await this.repo.update(prev, next, [documentQueued(next, headers)]))) throw new AlreadyExistsError("document changed concurrently");
        this.onWritten();
        return result(next);
      }
      case "update-fields": {
        const prev = existing!;
        const next: DocumentRecord = { ...prev, ...fields(input), updatedAt: now };
        if (!(await this.repo.update(prev, next, []))) throw new AlreadyExistsError("document changed concurrently");
        return result(next);
      }
      case "unchanged":
        return result(existing!);
    }
  }
}

function fields(input: DocumentInput): Partial<DocumentRecord> {
  return {
    supportingContext: input.supportingContext,
    metadata: input.metadata,
    group: input.group,
    date: input.date,
    filepath: input.filepath,
  };
}
