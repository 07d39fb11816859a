import { decodeEvent, type DeliveredMessage, eventTypeOf } from "@engram/bus";
import { fromStruct, fromTimestamp, protoEnum } from "@engram/grpc";
import type { ChunkIndex } from "@engram/index";
import type { Logger } from "@engram/observability";
import type { ProcessDocumentUseCase } from "./process-document.usecase";

/** Handles engram.documents.v1: processes queued documents, removes deleted ones from the index. */
export function documentsHandler(deps: { process: ProcessDocumentUseCase; index: ChunkIndex; maxAttempts: number; logger: Logger }) {
  return async (msg: DeliveredMessage): Promise<void> => {
    const type = eventTypeOf(msg);
    if (type === "DocumentQueued") {
      const ev = decodeEvent("DocumentQueued", msg.value);
      const ref = ev.document;
      if (!ref?.tenantId || !ref.documentId) return;
      await deps.process.execute({
        tenantId: ref.tenantId,
        namespace: ref.namespace,
        documentId: ref.documentId,
        generation: ref.generation,
        taskType: protoEnum.taskType.from(ev.taskType),
        dreaming: protoEnum.dreaming.from(ev.dreaming),
        lastAttempt: msg.attempt >= deps.maxAttempts,
        traceparent: msg.headers.traceparent,
        ...(msg.signal ? { signal: msg.signal } : {}),
      });
    } else if (type === "DocumentMetadataChanged") {
      const ev = decodeEvent("DocumentMetadataChanged", msg.value);
      const ref = ev.document;
      if (!ref?.tenantId || !ref.documentId) return;
      const at = (fromTimestamp(ev.occurredAt) ?? new Date()).toISOString();
      // The filepath only when the event names it ("" = none); events of earlier releases leave the copies' filepath.
      const fields = ev.filepath !== undefined && ev.filepath !== null ? { filepath: ev.filepath || undefined } : undefined;
      await deps.index.updateDocumentMetadata(ref.tenantId, ref.documentId, fromStruct(ev.metadata), at, fields);
    } else if (type === "DocumentDeleted") {
      const ev = decodeEvent("DocumentDeleted", msg.value);
      const ref = ev.document;
      if (!ref?.tenantId || !ref.documentId) return;
      // As of the event's generation: a worker still writing it (evicted by a rebalance) cannot bring the chunks back.
      const n = await deps.index.deleteDocument(ref.tenantId, ref.namespace, ref.documentId, ref.generation);
      deps.logger.debug({ documentId: ref.documentId, chunks: n }, "document removed from the index");
    }
  };
}
