import { type Clock, InvalidArgumentError, newId } from "@engram/kernel";
import { type DocumentInput, planAdd, validateConnectionId, validateCustomId, validateNamespace } from "../domain/document";
import { eventsForPlan } from "./document-events";
import { type AddContext, type AddDocumentResult, resultOf, traceHeaders } from "./add-document.usecase";
import type { DocumentRepository, FileStore } from "./ports";

export interface UploadCommand extends AddContext {
  fileName?: string;
  mimeType?: string;
  fileType?: string;
  input: Omit<DocumentInput, "content">;
  bytes: AsyncIterable<Uint8Array>;
}

/**
 * File add: the bytes are written to the FileStore and synced before the
 * document row (and its DocumentQueued event) is committed, so the 2xx means
 * the original is durably stored. An identical re-upload under the same
 * caller id reports the current state and keeps one copy.
 */
export class UploadDocumentFileUseCase {
  constructor(
    private readonly repo: DocumentRepository,
    private readonly files: FileStore,
    private readonly clock: Clock,
    private readonly maxBytes: number,
    private readonly onWritten: () => void,
  ) {}

  async execute(cmd: UploadCommand): Promise<AddDocumentResult> {
    validateNamespace(cmd.namespace);
    if (cmd.input.customId !== undefined) validateCustomId(cmd.input.customId);
    if (cmd.input.connectionId !== undefined) validateConnectionId(cmd.input.connectionId);
    if (cmd.fileName && cmd.fileName.length > 255) throw new InvalidArgumentError("file name is too long", "at most 255 characters");
    const documentId = newId("document");
    const key = `${cmd.tenantId}/${newId("event")}`;
    const stored = await this.files.write(key, cmd.bytes, this.maxBytes);
    if (stored.sizeBytes === 0) {
      await this.files.delete(key);
      throw new InvalidArgumentError("the file is empty");
    }
    const file = { key, name: cmd.fileName, mimeType: cmd.mimeType, fileType: cmd.fileType, sizeBytes: stored.sizeBytes, sha256: stored.sha256 };
    const input: DocumentInput = { ...cmd.input, content: "" };
    let keepFile = false;
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const existing = input.customId ? await this.repo.findByCustomId(cmd.tenantId, cmd.namespace, input.customId) : undefined;
        const now = this.clock.now();
        const plan = planAdd(existing, input, { ...cmd, file }, now.toISOString(), () => documentId);
        if (plan.write === "none") return resultOf(plan.current);
        // Fields-only changes keep the stored original of the existing document.
        const next = plan.queue ? plan.next : { ...plan.next, file: plan.previous.file };
        const events = eventsForPlan({ ...plan, next } as typeof plan, now, traceHeaders(cmd));
        const [ok] = await this.repo.writeMany([{ previous: plan.write === "update" ? plan.previous : undefined, next, events }]);
        if (ok) {
          keepFile = plan.queue;
          if (plan.write === "update" && plan.queue && plan.previous.file) await this.files.delete(plan.previous.file.key);
          if (events.length) this.onWritten();
          return resultOf(next);
        }
      }
      throw new InvalidArgumentError("the document changed concurrently; retry the upload");
    } finally {
      if (!keepFile) await this.files.delete(key);
    }
  }
}
