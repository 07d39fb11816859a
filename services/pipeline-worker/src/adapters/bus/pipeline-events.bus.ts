import { type EventBus, eventMessage } from "@engram/bus";
import { protoEnum, toTimestamp } from "@engram/grpc";
import type { Clock } from "@engram/kernel";
import type { IndexedInfo, PipelineEvents, StateChange } from "../../app/ports";

/** The document's trace: the event's producer span continues it (eventMessage makes the child span). */
function traceHeaders(traceparent: string | undefined): Record<string, string> {
  return traceparent ? { traceparent } : {};
}

/** PipelineEvents on the bus: keyed by document id, so one document's states stay ordered. */
export class BusPipelineEvents implements PipelineEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  async stateChanged(c: StateChange, i?: IndexedInfo): Promise<void> {
    const now = toTimestamp(this.clock.now());
    const document = { tenantId: c.tenantId, namespace: c.namespace, documentId: c.documentId, generation: c.generation };
    const messages = [
      eventMessage(
        "DocumentStateChanged",
        c.documentId,
        {
          document,
          status: protoEnum.status.to(c.status),
          reason: c.reason ?? "",
          occurredAt: now,
          sequence: c.sequence,
          title: c.title ?? "",
          contentType: c.contentType ?? "",
          summary: c.summary ?? "",
        },
        traceHeaders(c.traceparent),
      ),
    ];
    if (i) {
      messages.push(
        eventMessage(
          "DocumentIndexed",
          i.documentId,
          {
            document,
            taskType: protoEnum.taskType.to(i.taskType),
            dreaming: protoEnum.dreaming.to(i.dreaming),
            chunkCount: i.chunkCount,
            occurredAt: now,
            title: i.title ?? "",
            contentType: i.contentType ?? "",
            customId: i.customId ?? "",
          },
          traceHeaders(i.traceparent),
        ),
      );
    }
    await this.bus.publish(messages);
  }
}
