import { type EventBus, eventMessage } from "@engram/bus";
import { toTimestamp } from "@engram/grpc";
import { type Clock } from "@engram/kernel";
import { protoEnum } from "@engram/grpc";
import type { DocumentRef, FormationEvents } from "../../app/ports";

/** The last pipeline step of a taskType=memory document: DocumentStateChanged done/failed (sequence 5), keyed by document id. */
export const FINAL_SEQUENCE = 5;

export class BusFormationEvents implements FormationEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  done(ref: DocumentRef, info: { title?: string; contentType?: string }): Promise<void> {
    return this.publish(ref, "done", "", info);
  }

  failed(ref: DocumentRef, reason: string): Promise<void> {
    return this.publish(ref, "failed", reason, {});
  }

  private publish(ref: DocumentRef, status: "done" | "failed", reason: string, info: { title?: string; contentType?: string }): Promise<void> {
    return this.bus.publish([
      eventMessage(
        "DocumentStateChanged",
        ref.documentId,
        {
          document: { tenantId: ref.tenantId, namespace: ref.namespace, documentId: ref.documentId, generation: ref.generation },
          status: protoEnum.status.to(status),
          reason,
          occurredAt: toTimestamp(this.clock.now()),
          sequence: FINAL_SEQUENCE,
          title: info.title ?? "",
          contentType: info.contentType ?? "",
        },
        // The document's trace: the event's producer span continues it.
        ref.traceparent ? { traceparent: ref.traceparent } : {},
      ),
    ]);
  }
}
