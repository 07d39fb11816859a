import path from "node:path";
import protobuf from "protobufjs";
import { newId } from "@engram/kernel";
import { injectTraceparent, isSpanContextValid, parentContext, SpanKind, startSpan, trace } from "@engram/observability";
import { PROTO_DIR } from "@engram/grpc";
import type { DocumentQueued } from "@engram/grpc/src/gen/engram/events/v1/DocumentQueued";
import type { DocumentStateChanged } from "@engram/grpc/src/gen/engram/events/v1/DocumentStateChanged";
import type { DocumentIndexed } from "@engram/grpc/src/gen/engram/events/v1/DocumentIndexed";
import type { DocumentDeleted } from "@engram/grpc/src/gen/engram/events/v1/DocumentDeleted";
import type { DocumentQueued__Output } from "@engram/grpc/src/gen/engram/events/v1/DocumentQueued";
import type { DocumentStateChanged__Output } from "@engram/grpc/src/gen/engram/events/v1/DocumentStateChanged";
import type { DocumentIndexed__Output } from "@engram/grpc/src/gen/engram/events/v1/DocumentIndexed";
import type { DocumentDeleted__Output } from "@engram/grpc/src/gen/engram/events/v1/DocumentDeleted";
import type { DocumentMetadataChanged, DocumentMetadataChanged__Output } from "@engram/grpc/src/gen/engram/events/v1/DocumentMetadataChanged";
import type { DeliveredMessage, OutgoingMessage } from "./port";

/** Topics and the event types each carries (protos/engram/events/v1). */
export const TOPICS = {
  documents: "engram.documents.v1",
  documentState: "engram.document-state.v1",
} as const;

export interface EventPayloads {
  DocumentQueued: DocumentQueued;
  DocumentStateChanged: DocumentStateChanged;
  DocumentIndexed: DocumentIndexed;
  DocumentDeleted: DocumentDeleted;
  DocumentMetadataChanged: DocumentMetadataChanged;
}
export interface EventOutputs {
  DocumentQueued: DocumentQueued__Output;
  DocumentStateChanged: DocumentStateChanged__Output;
  DocumentIndexed: DocumentIndexed__Output;
  DocumentDeleted: DocumentDeleted__Output;
  DocumentMetadataChanged: DocumentMetadataChanged__Output;
}
export type EventType = keyof EventPayloads;

export const EVENT_TOPIC: Record<EventType, string> = {
  DocumentQueued: TOPICS.documents,
  DocumentDeleted: TOPICS.documents,
  DocumentMetadataChanged: TOPICS.documents,
  DocumentStateChanged: TOPICS.documentState,
  DocumentIndexed: TOPICS.documentState,
};

let root: protobuf.Root | undefined;
function types(): protobuf.Root {
  if (!root) {
    root = new protobuf.Root();
    const origResolve = root.resolvePath.bind(root);
    root.resolvePath = (origin, target) => (target.startsWith("engram/") ? path.join(PROTO_DIR, target) : origResolve(origin, target));
    root.loadSync("engram/events/v1/document_events.proto", { keepCase: false });
  }
  return root;
}

const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: String, defaults: true, oneofs: true };

export function encodeEvent<T extends EventType>(type: T, payload: EventPayloads[T]): Uint8Array {
  const t = types().lookupType(`engram.events.v1.${type}`);
  return t.encode(t.fromObject(payload as Record<string, unknown>)).finish();
}

export function decodeEvent<T extends EventType>(type: T, value: Uint8Array): EventOutputs[T] {
  const t = types().lookupType(`engram.events.v1.${type}`);
  return t.toObject(t.decode(value), TO_OBJECT) as EventOutputs[T];
}

/**
 * Builds a bus message for an event, keyed by document id. When the event is
 * created in a trace (a `traceparent` among the extra headers, or an active
 * span: the RPC or the event handler that causes it), a producer span
 * ("create <topic>") marks its creation and its context becomes the message's
 * `traceparent`, which the consumer's span continues.
 */
export function eventMessage<T extends EventType>(type: T, key: string, payload: EventPayloads[T], extraHeaders: Record<string, string> = {}): OutgoingMessage {
  const topic = EVENT_TOPIC[type];
  const headers: OutgoingMessage["headers"] = { "event-id": newId("event"), "event-type": type, ...extraHeaders };
  const parent = parentContext(extraHeaders.traceparent);
  const inTrace = trace.getSpanContext(parent);
  if (inTrace && isSpanContextValid(inTrace)) {
    const span = startSpan(
      `create ${topic}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          "messaging.operation.type": "create",
          "messaging.operation.name": "create",
          "messaging.destination.name": topic,
          "messaging.message.id": headers["event-id"],
          "engram.event.type": type,
        },
      },
      parent,
    );
    delete headers.traceparent;
    delete headers.tracestate;
    injectTraceparent(headers, trace.setSpan(parent, span));
    span.end();
  }
  return { topic, key, value: encodeEvent(type, payload), headers };
}

export function eventTypeOf(msg: DeliveredMessage): EventType | undefined {
  const t = msg.headers["event-type"];
  // Own keys only: `in` would also accept inherited names such as "toString".
  return t && Object.hasOwn(EVENT_TOPIC, t) ? (t as EventType) : undefined;
}
