import { decodeEvent, type DeliveredMessage, eventTypeOf } from "@engram/bus";
import { protoEnum } from "@engram/grpc";
import type { Logger } from "@engram/observability";
import type { FormMemoriesUseCase } from "./form-memories.usecase";
import { EVERY_GENERATION, type RetireMemoriesUseCase } from "./retire-memories.usecase";

/**
 * engram.document-state.v1 DocumentIndexed (taskType=memory) forms memories;
 * engram.documents.v1 DocumentDeleted retires the document's provenance (also
 * when it is only withdrawn: its latest content failed).
 */
export function memoryEventsHandler(deps: { form: FormMemoriesUseCase; retire: RetireMemoriesUseCase; maxAttempts: number; logger: Logger }) {
  return async (msg: DeliveredMessage): Promise<void> => {
    const type = eventTypeOf(msg);
    if (type === "DocumentIndexed") {
      const ev = decodeEvent("DocumentIndexed", msg.value);
      const ref = ev.document;
      if (!ref?.tenantId || !ref.documentId) return;
      if (protoEnum.taskType.from(ev.taskType) === "superrag") return;
      await deps.form.execute({
        ref: { tenantId: ref.tenantId, namespace: ref.namespace, documentId: ref.documentId, generation: ref.generation, traceparent: msg.headers.traceparent },
        dreaming: protoEnum.dreaming.from(ev.dreaming) ?? "dynamic",
        title: ev.title || undefined,
        contentType: ev.contentType || undefined,
        lastAttempt: msg.attempt >= deps.maxAttempts,
        ...(msg.signal ? { signal: msg.signal } : {}),
      });
    } else if (type === "DocumentDeleted") {
      const ev = decodeEvent("DocumentDeleted", msg.value);
      const ref = ev.document;
      if (!ref?.tenantId || !ref.documentId) return;
      // withdrawn: the document's latest content failed; what its earlier content formed goes as for a delete.
      const reason = ev.withdrawn ? `source document ${ref.documentId} failed to process` : `source document ${ref.documentId} was deleted`;
      // A deleted document's ids never come back (re-adding makes a new document), so without a generation every one
      // of them is gone; a withdrawn one keeps its id, and its next generation must still form.
      const generation = ref.generation > 0 ? ref.generation : ev.withdrawn ? 0 : EVERY_GENERATION;
      const retired = await deps.retire.documentDeleted({ tenantId: ref.tenantId, documentId: ref.documentId, generation }, reason);
      if (retired) deps.logger.debug({ documentId: ref.documentId, retired, withdrawn: ev.withdrawn }, "memories retired with their source document");
    }
  };
}
