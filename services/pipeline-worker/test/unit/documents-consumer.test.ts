import { type DeliveredMessage, eventMessage } from "@engram/bus";
import type { ChunkIndex } from "@engram/index";
import { rootLogger } from "@engram/observability";
import { documentsHandler } from "../../src/app/documents.consumer";
import type { ProcessCommand, ProcessDocumentUseCase } from "../../src/app/process-document.usecase";

const ref = { tenantId: "acme", namespace: "ns", documentId: "d_1", generation: 4 };

function deliver(msg: ReturnType<typeof eventMessage>, attempt: number): DeliveredMessage {
  return { ...msg, partition: 0, offset: 0, attempt };
}

describe("documentsHandler", () => {
  const commands: ProcessCommand[] = [];
  const deleted: string[][] = [];
  const process = { execute: async (c: ProcessCommand) => void commands.push(c) } as unknown as ProcessDocumentUseCase;
  const updated: unknown[][] = [];
  const index = {
    deleteDocument: async (...args: string[]) => (deleted.push(args), 3),
    updateDocumentMetadata: async (...args: unknown[]) => (updated.push(args), 1),
  } as unknown as ChunkIndex;
  const handler = documentsHandler({ process, index, maxAttempts: 3, logger: rootLogger({ level: "silent" }) });

  beforeEach(() => {
    commands.length = 0;
    deleted.length = 0;
    updated.length = 0;
  });

  it('refreshes the chunks\' metadata, and their filepath when the event names one ("" = none; absent = unchanged)', async () => {
    const at = { seconds: 1_700_000_000, nanos: 0 };
    const metadata = { fields: { team: { stringValue: "red" } } };
    await handler(deliver(eventMessage("DocumentMetadataChanged", ref.documentId, { document: ref, metadata, occurredAt: at, filepath: "a/b.md" }), 1));
    await handler(deliver(eventMessage("DocumentMetadataChanged", ref.documentId, { document: ref, metadata, occurredAt: at, filepath: "" }), 1));
    await handler(deliver(eventMessage("DocumentMetadataChanged", ref.documentId, { document: ref, metadata, occurredAt: at }), 1));
    const when = new Date(1_700_000_000_000).toISOString();
    expect(updated).toEqual([
      ["acme", "d_1", { team: "red" }, when, { filepath: "a/b.md" }],
      ["acme", "d_1", { team: "red" }, when, { filepath: undefined }],
      ["acme", "d_1", { team: "red" }, when, undefined],
    ]);
  });

  it("processes DocumentQueued; lastAttempt only on the final delivery attempt", async () => {
    const msg = eventMessage("DocumentQueued", ref.documentId, { document: ref, taskType: "TASK_TYPE_SUPERRAG", dreaming: "DREAMING_INSTANT" });
    await handler(deliver(msg, 1));
    await handler(deliver(msg, 3));
    expect(commands).toEqual([
      { ...ref, taskType: "superrag", dreaming: "instant", lastAttempt: false },
      { ...ref, taskType: "superrag", dreaming: "instant", lastAttempt: true },
    ]);
  });

  it("removes a deleted document from the index", async () => {
    await handler(deliver(eventMessage("DocumentDeleted", ref.documentId, { document: ref }), 1));
    // As of the event's generation (a late write of it by an evicted worker is refused).
    expect(deleted).toEqual([["acme", "ns", "d_1", ref.generation]]);
    expect(commands).toEqual([]);
  });

  it("ignores events without a document reference and other event types", async () => {
    await handler(deliver(eventMessage("DocumentQueued", "x", {}), 1));
    await handler(deliver(eventMessage("DocumentStateChanged", "x", { document: ref, status: "DOCUMENT_STATUS_DONE" }), 1));
    expect(commands).toEqual([]);
    expect(deleted).toEqual([]);
  });
});
