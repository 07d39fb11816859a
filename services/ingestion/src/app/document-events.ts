import { eventMessage, type OutgoingMessage } from "@engram/bus";
import { toTimestamp } from "@engram/grpc";
import { protoEnum } from "@engram/kernel";
import type { DocumentRecord } from "../domain/document";

/** The events ingestion publishes, built from the domain record. */
export function documentQueued(doc: DocumentRecord, headers: Record<string, string> = {}): OutgoingMessage {
  return eventMessage(
    "DocumentQueued",
    doc.id,
    {
      document: { tenantId: doc.tenantId, namespace: doc.namespace, documentId: doc.id, generation: doc.generation },
      taskType: protoEnum.taskType.to(doc.taskType) as never,
      dreaming: protoEnum.dreaming.to(doc.dreaming) as never,
      queuedAt: toTimestamp(doc.updatedAt),
      customId: doc.customId ?? "",
    },
    headers,
  );
}

export function documentDeleted(doc: DocumentRecord, at: Date, headers: Record<string, string> = {}): OutgoingMessage {
  return eventMessage(
    "DocumentDeleted",
    doc.id,
    {
      document: { tenantId: doc.tenantId, namespace: doc.namespace, documentId: doc.id, generation: doc.generation },
      occurredAt: toTimestamp(at),
      customId: doc.customId ?? "",
    },
    headers,
  );
}
