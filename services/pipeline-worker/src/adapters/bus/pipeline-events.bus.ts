import { type EventBus, eventMessage } from "@engram/bus";
import { toTimestamp } from "@engram/grpc";
import { type Clock, protoEnum } from "@engram/kernel";
import { childTraceparent } from "@engram/observability";
import type { PipelineEvents, StateChange } from "../../app/ports";

function traceHeaders(traceparent: string | undefined): Record<string, string> {
  return traceparent ? { traceparent: childTraceparent(traceparent) } : {};
}

/** PipelineEvents on the bus: keyed by document id, so one document's states stay ordered. */
export class BusPipelineEvents implements PipelineEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  async stateChanged(c: StateChange): Promise<void> {
    await this.bus.publish([
      eventMessage(
        "DocumentStateChanged",
        c.documentId,
        {
          document: { tenantId: c.tenantId, namespace: c.namespace, documentId: c.documentId, generation: c.generation },
          status: protoEnum.status.to(c.status) as never,
          reason: c.reason ?? "",
          occurredAt: toTimestamp(this.clock.now()),
          sequence: c.sequence,
          title: c.title ?? "",
          contentType: c.contentType ?? "",
        },
        traceHeaders(c.traceparent),
      ),
    ]);
  }

  async indexed(i: Parameters<PipelineEvents["indexed"]>[0]): Promise<void> {
    await this.bus.publish([
      eventMessage(
        "DocumentIndexed",
        i.documentId,
        {
          document: { tenantId: i.tenantId, namespace: i.namespace, documentId: i.documentId, generation: i.generation },
          taskType: i.taskType as never,
          dreaming: i.dreaming as never,
          chunkCount: i.chunkCount,
          occurredAt: toTimestamp(this.clock.now()),
          title: i.title ?? "",
          contentType: i.contentType ?? "",
          customId: i.customId ?? "",
        },
        traceHeaders(i.traceparent),
      ),
    ]);
  }
}
