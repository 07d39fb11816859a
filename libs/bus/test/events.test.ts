import type { DocumentQueued } from "@engram/grpc/src/gen/engram/events/v1/DocumentQueued";
import type { DocumentStateChanged } from "@engram/grpc/src/gen/engram/events/v1/DocumentStateChanged";
import { decodeEvent, encodeEvent, eventMessage, eventTypeOf, TOPICS } from "../src/events";
import type { DeliveredMessage } from "../src/port";

const ref = { tenantId: "acme", namespace: "user_123", documentId: "d_0123456789ABCDEFGHIJ", generation: 3 };

describe("encodeEvent / decodeEvent", () => {
  it("round-trips DocumentQueued with enum names as strings", () => {
    const payload: DocumentQueued = {
      document: ref,
      taskType: "TASK_TYPE_SUPERRAG",
      dreaming: "DREAMING_INSTANT",
      queuedAt: { seconds: "1717171717", nanos: 250_000_000 },
      customId: "chat-1",
      mimeType: "text/markdown",
    };
    const bytes = encodeEvent("DocumentQueued", payload);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.length).toBeGreaterThan(0);
    expect(decodeEvent("DocumentQueued", bytes)).toEqual({ ...payload, fileName: "" });
  });

  it("round-trips DocumentStateChanged (DOCUMENT_STATUS_DONE, sequence, title, summary)", () => {
    const payload: DocumentStateChanged = {
      document: ref,
      status: "DOCUMENT_STATUS_DONE",
      occurredAt: { seconds: "1700000000", nanos: 0 },
      sequence: 5,
      title: "Quarterly report",
      contentType: "markdown",
      summary: "Revenue grew by 12 percent in the third quarter.",
    };
    const decoded = decodeEvent("DocumentStateChanged", encodeEvent("DocumentStateChanged", payload));
    expect(decoded).toEqual({ ...payload, reason: "" });
    expect(decoded.status).toBe("DOCUMENT_STATUS_DONE");
  });

  it("carries a failure reason", () => {
    const decoded = decodeEvent(
      "DocumentStateChanged",
      encodeEvent("DocumentStateChanged", { document: ref, status: "DOCUMENT_STATUS_FAILED", sequence: 5, reason: "no text" }),
    );
    expect(decoded.status).toBe("DOCUMENT_STATUS_FAILED");
    expect(decoded.reason).toBe("no text");
    expect(decoded.occurredAt).toBeNull();
  });

  it("fills proto3 defaults for unset fields", () => {
    const decoded = decodeEvent("DocumentQueued", encodeEvent("DocumentQueued", { document: ref }));
    expect(decoded.taskType).toBe("TASK_TYPE_UNSPECIFIED");
    expect(decoded.dreaming).toBe("DREAMING_UNSPECIFIED");
    expect(decoded.customId).toBe("");
  });
});

describe("eventMessage", () => {
  it("routes by event type, keys by document id and stamps id and type headers", () => {
    const m = eventMessage(
      "DocumentStateChanged",
      ref.documentId,
      { document: ref, status: "DOCUMENT_STATUS_INDEXING", sequence: 4 },
      { "x-request-id": "r1" },
    );
    expect(m.topic).toBe(TOPICS.documentState);
    expect(m.key).toBe(ref.documentId);
    expect(m.headers["event-type"]).toBe("DocumentStateChanged");
    expect(m.headers["event-id"]).toMatch(/^e_[0-9A-Za-z]{20}$/);
    expect(m.headers["x-request-id"]).toBe("r1");
    expect(decodeEvent("DocumentStateChanged", m.value).sequence).toBe(4);

    expect(eventMessage("DocumentQueued", "d", { document: ref }).topic).toBe(TOPICS.documents);
    expect(eventMessage("DocumentDeleted", "d", { document: ref }).topic).toBe(TOPICS.documents);
    expect(eventMessage("DocumentIndexed", "d", { document: ref }).topic).toBe(TOPICS.documentState);
  });

  it("eventTypeOf recognises only known event types", () => {
    const m = eventMessage("DocumentQueued", "d", { document: ref });
    const delivered = (type: string): DeliveredMessage => ({ ...m, headers: { ...m.headers, "event-type": type }, partition: 0, offset: 0, attempt: 1 });
    expect(eventTypeOf(delivered("DocumentQueued"))).toBe("DocumentQueued");
    expect(eventTypeOf(delivered("SomethingElse"))).toBeUndefined();
    expect(eventTypeOf(delivered("toString"))).toBeUndefined();
  });
});
