import { eventMessage, type OutgoingMessage } from "@engram/bus";
import { toStruct, toTimestamp } from "@engram/grpc";
import { protoEnum } from "@engram/grpc";
import type { AddPlan, DocumentRecord } from "../domain/document";

/** The events ingestion publishes, built from the domain record. */
export function documentQueued(doc: DocumentRecord, headers: Record<string, string> = {}): OutgoingMessage {
  return eventMessage(
    "DocumentQueued",
    doc.id,
    {
      document: { tenantId: doc.tenantId, namespace: doc.namespace, documentId: doc.id, generation: doc.generation },
      taskType: protoEnum.taskType.to(doc.taskType),
      dreaming: protoEnum.dreaming.to(doc.dreaming),
      queuedAt: toTimestamp(doc.updatedAt),
      customId: doc.customId ?? "",
      mimeType: doc.file?.mimeType ?? "",
      fileName: doc.file?.name ?? "",
    },
    headers,
  );
}

export function documentMetadataChanged(doc: DocumentRecord, at: Date, headers: Record<string, string> = {}): OutgoingMessage {
  return eventMessage(
    "DocumentMetadataChanged",
    doc.id,
    {
      document: { tenantId: doc.tenantId, namespace: doc.namespace, documentId: doc.id, generation: doc.generation },
      metadata: toStruct(doc.metadata) ?? { fields: {} },
      customId: doc.customId ?? "",
      occurredAt: toTimestamp(at),
      // Always named ("" = none): the chunks' copy follows a filepath change too.
      filepath: doc.filepath ?? "",
    },
    headers,
  );
}

/** Events an add plan must publish with its write. */
export function eventsForPlan(plan: AddPlan, at: Date, headers: Record<string, string>): OutgoingMessage[] {
  if (plan.write === "none") return [];
  if (plan.queue) return [documentQueued(plan.next, headers)];
  // Fields changed without new content: the index copy must follow. Events of one document share a
  // partition, so a change made while the document is being processed is applied after its indexing.
  return indexedFieldsChanged(plan.previous, plan.next) ? [documentMetadataChanged(plan.next, at, headers)] : [];
}

/** Whether fields the index copies onto the chunks (metadata, filepath) differ. */
export function indexedFieldsChanged(previous: DocumentRecord, next: DocumentRecord): boolean {
  return JSON.stringify(previous.metadata ?? null) !== JSON.stringify(next.metadata ?? null) || (previous.filepath ?? "") !== (next.filepath ?? "");
}

/**
 * A deleted document; with `withdrawn`, a document whose latest content failed:
 * the record stays, its chunks and memory provenance go (see the proto).
 */
export function documentDeleted(doc: DocumentRecord, at: Date, headers: Record<string, string> = {}, withdrawn = false): OutgoingMessage {
  return eventMessage(
    "DocumentDeleted",
    doc.id,
    {
      document: { tenantId: doc.tenantId, namespace: doc.namespace, documentId: doc.id, generation: doc.generation },
      occurredAt: toTimestamp(at),
      customId: doc.customId ?? "",
      withdrawn,
    },
    headers,
  );
}
