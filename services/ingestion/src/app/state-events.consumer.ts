import { decodeEvent, type DeliveredMessage, eventTypeOf } from "@engram/bus";
import { fromTimestamp } from "@engram/grpc";
import { protoEnum } from "@engram/grpc";
import type { Logger } from "@engram/observability";
import type { RecordStateUseCase } from "./record-state.usecase";

/** Handles engram.document-state.v1: records each pipeline state on its document. */
export function stateEventsHandler(recordState: RecordStateUseCase, log: Logger) {
  return async (msg: DeliveredMessage): Promise<void> => {
    if (eventTypeOf(msg) !== "DocumentStateChanged") return;
    const ev = decodeEvent("DocumentStateChanged", msg.value);
    const ref = ev.document;
    if (!ref?.tenantId || !ref.documentId) {
      log.warn({ offset: msg.offset }, "state event without document reference; skipped");
      return;
    }
    const status = protoEnum.status.from(ev.status);
    const applied = await recordState.execute(ref.tenantId, ref.documentId, {
      generation: ref.generation,
      sequence: ev.sequence,
      status,
      reason: ev.reason || undefined,
      title: ev.title || undefined,
      contentType: ev.contentType || undefined,
      summary: ev.summary || undefined,
      at: (fromTimestamp(ev.occurredAt) ?? new Date()).toISOString(),
    });
    if (applied) log.debug({ documentId: ref.documentId, status: applied }, "document state recorded");
  };
}
