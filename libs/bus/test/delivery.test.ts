import { backoffDelay, deadLetterMessage } from "../src/delivery";
import type { DeliveredMessage } from "../src/port";

describe("backoffDelay", () => {
  it("doubles from backoffMs per failed attempt", () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, 200, 10_000))).toEqual([200, 400, 800, 1600, 3200]);
  });

  it("is capped at maxBackoffMs", () => {
    expect(backoffDelay(6, 200, 5000)).toBe(5000);
    expect(backoffDelay(40, 200, 10_000)).toBe(10_000);
  });

  it("a zero base means immediate retries", () => {
    expect(backoffDelay(3, 0, 1000)).toBe(0);
  });
});

describe("deadLetterMessage", () => {
  const delivered: DeliveredMessage = {
    topic: "engram.documents.v1",
    partition: 3,
    offset: 41,
    key: "d_1",
    value: new Uint8Array([1, 2, 3]),
    headers: { "event-id": "e_1", "event-type": "DocumentQueued", traceparent: "00-abc-def-01" },
    attempt: 5,
  };

  it("goes to <topic>.dlq with the same key, value and headers plus where and why it failed", () => {
    const dl = deadLetterMessage(delivered, "pipeline-worker", new Error("cannot parse"), 5);
    expect(dl).toEqual({
      topic: "engram.documents.v1.dlq",
      key: "d_1",
      value: delivered.value,
      headers: {
        "event-id": "e_1",
        "event-type": "DocumentQueued",
        traceparent: "00-abc-def-01",
        "dlq-group": "pipeline-worker",
        "dlq-error": "cannot parse",
        "dlq-partition": "3",
        "dlq-offset": "41",
        "dlq-attempts": "5",
      },
    });
  });

  it("carries non-Error throws and cuts long messages to 500 characters", () => {
    expect(deadLetterMessage(delivered, "g", "plain string", 1).headers["dlq-error"]).toBe("plain string");
    expect(deadLetterMessage(delivered, "g", { message: "error-like" }, 1).headers["dlq-error"]).toBe("error-like");
    expect(deadLetterMessage(delivered, "g", new Error("x".repeat(2000)), 1).headers["dlq-error"]).toHaveLength(500);
  });
});
