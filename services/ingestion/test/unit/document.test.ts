import { InvalidArgumentError, newId } from "@engram/kernel";
import {
  applyState,
  contentHash,
  decideAdd,
  type DocumentRecord,
  sourceKindOf,
  type StateUpdate,
  validateCustomId,
  validateInput,
  validateNamespace,
} from "../../src/domain/document";

function record(over: Partial<DocumentRecord> = {}): DocumentRecord {
  const content = over.content ?? "Sarah is being promoted.";
  return {
    id: "d_0123456789ABCDEFGHIJ",
    tenantId: "acme",
    namespace: "user_1",
    customId: "chat-1",
    content,
    metadata: { type: "conversation" },
    status: "queued",
    taskType: "memory",
    dreaming: "dynamic",
    sourceKind: "text",
    contentHash: contentHash(content),
    generation: 1,
    stateSequence: 0,
    createdAt: "2024-01-01T00:00:00.000Z",
    updatedAt: "2024-01-01T00:00:00.000Z",
    ...over,
  };
}

describe("decideAdd", () => {
  it("updates the fields when only a connector's title changed", () => {
    const existing = record({ connectionId: "n_0123456789ABCDEFGHIJ", title: "Old name.md" });
    expect(decideAdd(existing, { content: existing.content, metadata: existing.metadata, connectionId: existing.connectionId, title: "New name.md" })).toEqual({
      action: "update-fields",
    });
    expect(decideAdd(existing, { content: existing.content, metadata: existing.metadata, connectionId: existing.connectionId, title: "Old name.md" })).toEqual({
      action: "unchanged",
    });
  });

  it("creates when there is no existing document", () => {
    expect(decideAdd(undefined, { content: "x" })).toEqual({ action: "create" });
  });

  it("requeues on new content", () => {
    expect(decideAdd(record(), { content: "Sarah was promoted yesterday.", metadata: { type: "conversation" } })).toEqual({ action: "requeue" });
  });

  it("requeues on new content even when a failed document's fields are unchanged", () => {
    expect(decideAdd(record({ status: "failed" }), { content: "other", metadata: { type: "conversation" } })).toEqual({ action: "requeue" });
  });

  it.each([
    ["metadata", { metadata: { type: "email" } }],
    ["metadata removed", { metadata: undefined }],
    ["group", { metadata: { type: "conversation" }, group: { team: "a" } }],
    ["supportingContext", { metadata: { type: "conversation" }, supportingContext: "from a call" }],
    ["date", { metadata: { type: "conversation" }, date: "2024-02-02" }],
    ["filepath", { metadata: { type: "conversation" }, filepath: "/notes/a.md" }],
  ])("updates fields when only %s differs", (_label, fields) => {
    expect(decideAdd(record(), { content: "Sarah is being promoted.", ...fields })).toEqual({ action: "update-fields" });
  });

  it("is unchanged for an exact duplicate", () => {
    expect(decideAdd(record(), { content: "Sarah is being promoted.", metadata: { type: "conversation" } })).toEqual({ action: "unchanged" });
    expect(decideAdd(record({ metadata: undefined }), { content: "Sarah is being promoted." })).toEqual({ action: "unchanged" });
  });
});

describe("applyState", () => {
  const update = (over: Partial<StateUpdate> = {}): StateUpdate => ({
    generation: 1,
    sequence: 1,
    status: "extracting",
    at: "2024-01-01T00:01:00.000Z",
    ...over,
  });

  it("keeps a connector's title over the title extraction finds, and takes extraction's otherwise", () => {
    const imported = record({ connectionId: "n_0123456789ABCDEFGHIJ", title: "Q3 board deck.pdf" });
    expect(applyState(imported, update({ sequence: 2, title: "Untitled presentation" }))!.title).toBe("Q3 board deck.pdf");
    expect(applyState(record({ connectionId: "n_0123456789ABCDEFGHIJ" }), update({ sequence: 2, title: "Extracted" }))!.title).toBe("Extracted");
    expect(applyState(record({ title: "Old page title" }), update({ sequence: 2, title: "New page title" }))!.title).toBe("New page title");
  });

  it("applies a higher sequence of the same generation", () => {
    const next = applyState(record(), update({ sequence: 2, status: "chunking", title: "Promotion", contentType: "text" }));
    expect(next).toMatchObject({ status: "chunking", stateSequence: 2, title: "Promotion", contentType: "text", updatedAt: "2024-01-01T00:01:00.000Z" });
    expect(next!.statusReason).toBeUndefined();
  });

  it("ignores other generations", () => {
    expect(applyState(record({ generation: 2 }), update({ generation: 1, sequence: 3 }))).toBeUndefined();
    expect(applyState(record({ generation: 2 }), update({ generation: 3, sequence: 3 }))).toBeUndefined();
  });

  it("ignores lower and equal sequences", () => {
    const doc = record({ status: "embedding", stateSequence: 3 });
    expect(applyState(doc, update({ sequence: 2, status: "chunking" }))).toBeUndefined();
    expect(applyState(doc, update({ sequence: 3, status: "embedding" }))).toBeUndefined();
    expect(applyState(doc, update({ sequence: 4, status: "indexing" }))!.status).toBe("indexing");
  });

  it("failed carries its reason (or a default one)", () => {
    expect(
      applyState(record({ stateSequence: 1, status: "extracting" }), update({ sequence: 5, status: "failed", reason: "no text could be extracted" })),
    ).toMatchObject({
      status: "failed",
      statusReason: "no text could be extracted",
      stateSequence: 5,
    });
    expect(applyState(record(), update({ sequence: 5, status: "failed" }))!.statusReason).toBe("processing failed");
  });

  it("records the summary, keeps it through later states without one, and drops it when the generation fails", () => {
    const indexed = applyState(record({ stateSequence: 3, status: "embedding" }), update({ sequence: 4, status: "indexing", summary: "Sarah was promoted." }));
    expect(indexed!.summary).toBe("Sarah was promoted.");
    const done = applyState(indexed!, update({ sequence: 6, status: "done" }));
    expect(done!.summary).toBe("Sarah was promoted.");
    expect(applyState(indexed!, update({ sequence: 6, status: "failed", reason: "formation failed" }))!.summary).toBeUndefined();
  });

  it("keeps the title when a later state has none", () => {
    const doc = record({ title: "Kept", contentType: "markdown", stateSequence: 2, status: "chunking" });
    expect(applyState(doc, update({ sequence: 3, status: "embedding" }))).toMatchObject({ title: "Kept", contentType: "markdown" });
  });

  it("does not mutate its input", () => {
    const doc = record();
    const copy = structuredClone(doc);
    applyState(doc, update({ sequence: 2, status: "chunking" }));
    expect(doc).toEqual(copy);
  });
});

describe("validateNamespace / validateCustomId", () => {
  it.each(["user_123", "a.b-c:d", "A", "x".repeat(100)])("accepts %s", (v) => {
    expect(() => validateNamespace(v)).not.toThrow();
    expect(() => validateCustomId(v)).not.toThrow();
  });

  it.each([
    ["empty", ""],
    ["101 characters", "x".repeat(101)],
    ["spaces", "user 123"],
    ["a slash", "a/b"],
    ["a leading slash", "/etc"],
    ["non-ASCII letters", "café"],
    ["a newline", "abc\n"],
  ])("rejects %s", (_label, v) => {
    expect(() => validateNamespace(v)).toThrow(InvalidArgumentError);
    expect(() => validateCustomId(v)).toThrow(InvalidArgumentError);
  });

  it("names the field in the error", () => {
    expect(() => validateNamespace("a b", "containerTag")).toThrow(/containerTag/);
  });

  it("rejects a memory-id-shaped custom id, and other non-document service ids", () => {
    const memoryId = newId("memory");
    expect(memoryId).toMatch(/^m_[0-9A-Za-z]{20}$/);
    expect(() => validateCustomId(memoryId)).toThrow(InvalidArgumentError);
    expect(() => validateCustomId(memoryId)).toThrow(/memory id/);
    expect(() => validateCustomId(newId("chunk"))).toThrow(InvalidArgumentError);
    // A document-shaped id is allowed (it names a document).
    expect(() => validateCustomId(newId("document"))).not.toThrow();
    // Similar-looking caller ids are fine.
    expect(() => validateCustomId("m_short")).not.toThrow();
  });
});

describe("validateInput / sourceKindOf", () => {
  it("rejects empty content and too long supportingContext", () => {
    expect(() => validateInput({ content: "" })).toThrow(InvalidArgumentError);
    expect(() => validateInput({ content: "  \n " })).toThrow(InvalidArgumentError);
    expect(() => validateInput({ content: "ok", supportingContext: "x".repeat(1501) })).toThrow(/supportingContext/);
    expect(() => validateInput({ content: "ok", supportingContext: "x".repeat(1500) })).not.toThrow();
    expect(() => validateInput({ content: "ok", customId: "bad id" })).toThrow(InvalidArgumentError);
  });

  it("detects URL content", () => {
    expect(sourceKindOf(" https://example.com/a?b=c ")).toBe("url");
    expect(sourceKindOf("http://x.y")).toBe("url");
    expect(sourceKindOf("see https://example.com for details")).toBe("text");
    expect(sourceKindOf("ftp://example.com")).toBe("text");
  });
});
