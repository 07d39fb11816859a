import { decodeEvent, TOPICS } from "@engram/bus";
import { type Clock, InvalidArgumentError, newId, NotFoundError } from "@engram/kernel";
import { AddDocumentUseCase, type AddDocumentCommand } from "../../src/app/add-document.usecase";
import { DeleteDocumentsUseCase } from "../../src/app/delete-documents.usecase";
import { ListDocumentsUseCase } from "../../src/app/list-documents.usecase";
import type { FileStore } from "../../src/app/ports";
import { GetDocumentUseCase } from "../../src/app/get-document.usecase";
import { RequeueStaleUseCase } from "../../src/app/requeue-stale.usecase";
import { RecordStateUseCase } from "../../src/app/record-state.usecase";
import type { StateUpdate } from "../../src/domain/document";
import type { DocumentRepositoryHarness } from "./document-repository.contract";

const NOW = "2024-03-04T05:06:07.000Z";

/**
 * The ingestion use cases on a DocumentRepository adapter: the behaviour the
 * service builds on the port (run against every adapter).
 */
export function ingestionUseCasesContract(open: () => Promise<DocumentRepositoryHarness>): void {
  let h: DocumentRepositoryHarness;
  let add: AddDocumentUseCase;
  let get: GetDocumentUseCase;
  let record: RecordStateUseCase;
  let written: number;
  let now: Date;
  const clock: Clock = { now: () => now };

  const addCmd = (
    over: Partial<AddDocumentCommand> & { content?: string; customId?: string; metadata?: AddDocumentCommand["input"]["metadata"] } = {},
  ): AddDocumentCommand => {
    const { content, customId, metadata, ...rest } = over;
    return {
      tenantId: "acme",
      namespace: "user_123",
      input: {
        content: content ?? "Sarah is being promoted to VP of Product.",
        customId: customId ?? "chat-1",
        metadata: metadata ?? { type: "conversation" },
      },
      ...rest,
    };
  };

  const outboxRows = async () => (await h.pendingEvents()).map((message) => ({ message }));

  beforeEach(async () => {
    h = await open();
    const repo = h.repo;
    written = 0;
    now = new Date(NOW);
    add = new AddDocumentUseCase(repo, clock, () => written++);
    get = new GetDocumentUseCase(repo);
    record = new RecordStateUseCase(repo);
  });

  afterEach(async () => {
    await h.close();
  });

  it("adds a document, queues its event in the outbox, and reads it back by service id and by custom id", async () => {
    const res = await add.execute(addCmd({ requestId: "req-1" }));
    expect(res.id).toMatch(/^d_[0-9A-Za-z]{20}$/);
    expect(res).toEqual({ id: res.id, status: "queued", namespace: "user_123", customId: "chat-1" });
    expect(written).toBe(1);

    const byId = await get.execute("acme", "user_123", res.id);
    expect(byId).toMatchObject({
      id: res.id,
      tenantId: "acme",
      namespace: "user_123",
      customId: "chat-1",
      content: "Sarah is being promoted to VP of Product.",
      metadata: { type: "conversation" },
      status: "queued",
      taskType: "memory",
      dreaming: "dynamic",
      sourceKind: "text",
      generation: 1,
      stateSequence: 0,
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect(await get.execute("acme", "user_123", "chat-1")).toEqual(byId);
    // Legacy reads without a namespace resolve in the whole tenant.
    expect(await get.execute("acme", undefined, "chat-1")).toEqual(byId);
    expect(await get.execute("acme", undefined, res.id)).toEqual(byId);

    const rows = await outboxRows();
    expect(rows).toHaveLength(1);
    const msg = rows[0]!.message;
    expect(msg.topic).toBe(TOPICS.documents);
    expect(msg.key).toBe(res.id);
    expect(msg.headers["event-type"]).toBe("DocumentQueued");
    expect(msg.headers["x-request-id"]).toBe("req-1");
    expect(decodeEvent("DocumentQueued", msg.value)).toMatchObject({
      document: { tenantId: "acme", namespace: "user_123", documentId: res.id, generation: 1 },
      taskType: "TASK_TYPE_MEMORY",
      dreaming: "DREAMING_DYNAMIC",
      customId: "chat-1",
    });
  });

  it("stores a URL as a url source", async () => {
    const res = await add.execute(addCmd({ content: "https://example.com/post", customId: "link" }));
    expect(await get.execute("acme", "user_123", res.id)).toMatchObject({ sourceKind: "url", url: "https://example.com/post" });
  });

  it("a document in another namespace is not found", async () => {
    const res = await add.execute(addCmd());
    await expect(get.execute("acme", "other_ns", "chat-1")).rejects.toThrow(NotFoundError);
    await expect(get.execute("acme", "other_ns", res.id)).rejects.toThrow(NotFoundError);
  });

  it("never crosses tenants", async () => {
    const res = await add.execute(addCmd());
    await expect(get.execute("globex", "user_123", res.id)).rejects.toThrow(NotFoundError);
    await expect(get.execute("globex", "user_123", "chat-1")).rejects.toThrow(NotFoundError);
    await expect(get.execute("globex", undefined, "chat-1")).rejects.toThrow(NotFoundError);
  });

  it("the same custom id in two namespaces or tenants names different documents", async () => {
    const a = await add.execute(addCmd());
    const b = await add.execute(addCmd({ namespace: "user_456" }));
    const c = await add.execute(addCmd({ tenantId: "globex" }));
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    expect((await get.execute("acme", "user_456", "chat-1")).id).toBe(b.id);
    expect((await get.execute("globex", "user_123", "chat-1")).id).toBe(c.id);
  });

  it("re-adding the same custom id and content returns the current status without a new outbox row", async () => {
    const first = await add.execute(addCmd());
    await record.execute("acme", first.id, { generation: 1, sequence: 1, status: "extracting", at: NOW });
    now = new Date("2024-03-04T06:00:00.000Z");
    const again = await add.execute(addCmd());
    expect(again).toEqual({ id: first.id, status: "extracting", namespace: "user_123", customId: "chat-1" });
    expect(await outboxRows()).toHaveLength(1);
    expect(written).toBe(1);
    expect((await get.execute("acme", "user_123", "chat-1")).updatedAt).toBe(NOW);
  });

  it("re-adding with new content requeues as generation 2 with one more outbox row", async () => {
    const first = await add.execute(addCmd());
    for (const [sequence, status] of [
      [1, "extracting"],
      [5, "done"],
    ] as const) {
      await record.execute("acme", first.id, { generation: 1, sequence, status, at: NOW });
    }
    now = new Date("2024-03-05T00:00:00.000Z");
    const again = await add.execute(addCmd({ content: "Sarah was promoted to VP of Product last week." }));
    expect(again).toEqual({ id: first.id, status: "queued", namespace: "user_123", customId: "chat-1" });
    const doc = await get.execute("acme", "user_123", "chat-1");
    expect(doc).toMatchObject({
      generation: 2,
      stateSequence: 0,
      status: "queued",
      content: "Sarah was promoted to VP of Product last week.",
      createdAt: NOW,
      updatedAt: "2024-03-05T00:00:00.000Z",
    });
    const rows = await outboxRows();
    expect(rows).toHaveLength(2);
    expect(decodeEvent("DocumentQueued", rows[1]!.message.value).document).toMatchObject({ documentId: first.id, generation: 2 });
    expect(written).toBe(2);

    // Late events of generation 1 no longer apply.
    expect(await record.execute("acme", first.id, { generation: 1, sequence: 9, status: "done", at: NOW })).toBeUndefined();
    expect((await get.execute("acme", "user_123", first.id)).status).toBe("queued");
  });

  it("a metadata-only update of a failed document reports failed and queues nothing (only the index copy is refreshed)", async () => {
    const first = await add.execute(addCmd());
    await record.execute("acme", first.id, { generation: 1, sequence: 5, status: "failed", reason: "no text", at: NOW });
    now = new Date("2024-03-06T00:00:00.000Z");
    const again = await add.execute(addCmd({ metadata: { type: "email" } }));
    expect(again.status).toBe("failed");
    const doc = await get.execute("acme", "user_123", "chat-1");
    expect(doc).toMatchObject({ status: "failed", statusReason: "no text", metadata: { type: "email" }, generation: 1, updatedAt: "2024-03-06T00:00:00.000Z" });
    // The failure withdrew what earlier content left behind; the metadata change queues nothing.
    expect((await outboxRows()).map((r) => r.message.headers["event-type"])).toEqual(["DocumentQueued", "DocumentDeleted", "DocumentMetadataChanged"]);
  });

  it('a filepath-only change refreshes the index copy (DocumentMetadataChanged naming the filepath, "" when cleared)', async () => {
    const at = (filepath?: string) => {
      const c = addCmd();
      return { ...c, input: { ...c.input, ...(filepath ? { filepath } : {}) } };
    };
    await add.execute(at("notes/a.md"));
    await add.execute(at("notes/b.md"));
    await add.execute(at("notes/b.md"));
    await add.execute(at());
    const rows = await outboxRows();
    expect(rows.map((r) => r.message.headers["event-type"])).toEqual(["DocumentQueued", "DocumentMetadataChanged", "DocumentMetadataChanged"]);
    expect(decodeEvent("DocumentMetadataChanged", rows[1]!.message.value).filepath).toBe("notes/b.md");
    expect(decodeEvent("DocumentMetadataChanged", rows[2]!.message.value).filepath).toBe("");
  });

  it("a failure of the current generation withdraws the document's chunks and memories (DocumentDeleted, withdrawn), once", async () => {
    const first = await add.execute(addCmd());
    await record.execute("acme", first.id, { generation: 1, sequence: 4, status: "indexing", at: NOW });
    expect(await outboxRows()).toHaveLength(1);
    await record.execute("acme", first.id, { generation: 1, sequence: 5, status: "failed", reason: "the URL could not be used", at: NOW });
    const rows = await outboxRows();
    expect(rows.map((r) => r.message.headers["event-type"])).toEqual(["DocumentQueued", "DocumentDeleted"]);
    const ev = decodeEvent("DocumentDeleted", rows[1]!.message.value);
    expect(ev).toMatchObject({ withdrawn: true, document: { tenantId: "acme", namespace: "user_123", documentId: first.id, generation: 1 } });
    // A redelivered failure changes nothing and withdraws nothing more; the record stays, failed, with its reason.
    await record.execute("acme", first.id, { generation: 1, sequence: 5, status: "failed", reason: "the URL could not be used", at: NOW });
    expect(await outboxRows()).toHaveLength(2);
    expect(await get.execute("acme", "user_123", first.id)).toMatchObject({ status: "failed", statusReason: "the URL could not be used" });
  });

  it("the stale sweep re-queues a stalled generation at most maxRequeues times, then fails it and withdraws it", async () => {
    const first = await add.execute(addCmd());
    const sweep = new RequeueStaleUseCase(h.repo, clock, 1000, () => undefined, 2);
    const types = async () => (await outboxRows()).map((r) => r.message.headers["event-type"]);
    for (let i = 1; i <= 2; i++) {
      now = new Date(now.getTime() + 60_000);
      expect(await sweep.execute()).toBe(1);
      expect(await get.execute("acme", "user_123", first.id)).toMatchObject({ status: "queued", generation: 1 });
    }
    expect(await types()).toEqual(["DocumentQueued", "DocumentQueued", "DocumentQueued"]);
    now = new Date(now.getTime() + 60_000);
    expect(await sweep.execute()).toBe(1);
    const failed = await get.execute("acme", "user_123", first.id);
    expect(failed).toMatchObject({ status: "failed", generation: 1 });
    expect(failed.statusReason).toMatch(/^processing never finished: queued again 2 times/);
    expect(await types()).toEqual(["DocumentQueued", "DocumentQueued", "DocumentQueued", "DocumentDeleted"]);
    // Failed is final: the sweep leaves it alone; new content starts a generation with a fresh count.
    now = new Date(now.getTime() + 60_000);
    expect(await sweep.execute()).toBe(0);
    await add.execute(addCmd({ content: "Sarah moved to Lisbon." }));
    now = new Date(now.getTime() + 60_000);
    expect(await sweep.execute()).toBe(1);
    expect(await get.execute("acme", "user_123", first.id)).toMatchObject({ status: "queued", generation: 2 });
  });

  it("a failure of a stale generation withdraws nothing", async () => {
    const first = await add.execute(addCmd());
    await add.execute(addCmd({ content: "Sarah moved to Lisbon." }));
    expect(await outboxRows()).toHaveLength(2);
    expect(await record.execute("acme", first.id, { generation: 1, sequence: 5, status: "failed", reason: "late", at: NOW })).toBeUndefined();
    expect((await outboxRows()).map((r) => r.message.headers["event-type"])).toEqual(["DocumentQueued", "DocumentQueued"]);
  });

  it("GetDocument rejects a memory id with an InvalidArgumentError that mentions memory", async () => {
    const memoryId = newId("memory");
    const err = await get.execute("acme", "user_123", memoryId).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).message).toContain("memory");
    expect((err as InvalidArgumentError).details).toContain("memories");
    await expect(get.execute("acme", "user_123", "")).rejects.toThrow(InvalidArgumentError);
  });

  it("an unknown document id is not found", async () => {
    await expect(get.execute("acme", "user_123", newId("document"))).rejects.toThrow(NotFoundError);
    await expect(get.execute("acme", "user_123", "nope")).rejects.toThrow(/nope not found in namespace user_123/);
  });

  it("rejects invalid input before writing anything", async () => {
    await expect(add.execute(addCmd({ namespace: "bad namespace" }))).rejects.toThrow(InvalidArgumentError);
    await expect(add.execute(addCmd({ customId: newId("memory") }))).rejects.toThrow(/memory/);
    await expect(add.execute(addCmd({ content: "   " }))).rejects.toThrow(InvalidArgumentError);
    expect(await outboxRows()).toHaveLength(0);
    expect(written).toBe(0);
  });

  describe("connector imports", () => {
    // Documents without stored files: deleting them never touches the file store.
    const noFiles: FileStore = {
      write: () => Promise.reject(new Error("not used")),
      read: () => {
        throw new Error("not used");
      },
      delete: () => Promise.reject(new Error("not used")),
      close: async () => undefined,
    };
    const imported = (customId: string, connectionId?: string, tenantId = "acme") =>
      add.execute({ tenantId, namespace: "user_123", input: { content: `page ${customId}`, customId, ...(connectionId ? { connectionId } : {}) } });

    it("a document carries the connection that imported it; a direct add of the same caller id keeps it", async () => {
      const a = await imported("page-1", "conn_a");
      expect((await get.execute("acme", "user_123", a.id)).connectionId).toBe("conn_a");
      await add.execute(addCmd({ namespace: "user_123", customId: "page-1", content: "page page-1", metadata: { edited: true } }));
      expect((await get.execute("acme", "user_123", a.id)).connectionId).toBe("conn_a");
    });

    it("refuses a malformed connection id before writing anything", async () => {
      await expect(imported("page-1", "conn a/../b")).rejects.toThrow(/connectionId/);
      expect(await outboxRows()).toHaveLength(0);
    });

    it("lists and deletes exactly one connection's documents of the tenant, each with its DocumentDeleted event", async () => {
      const mine = [await imported("p1", "conn_a"), await imported("p2", "conn_a")];
      const other = [await imported("p3", "conn_b"), await imported("p4"), await imported("p5", "conn_a", "globex")];
      const list = new ListDocumentsUseCase(h.repo, { maxContentBytes: 1024 });
      const page = await list.execute({ tenantId: "acme", connectionId: "conn_a", page: 1, limit: 10, sort: "createdAt", order: "asc" });
      expect(page.items.map((d) => d.id).sort()).toEqual(mine.map((d) => d.id).sort());
      const before = (await outboxRows()).length;
      const del = new DeleteDocumentsUseCase(h.repo, noFiles, clock, () => written++);
      const res = await del.byConnection("acme", "conn_a");
      expect(res.deletedIds.sort()).toEqual(mine.map((d) => d.id).sort());
      const events = (await outboxRows()).slice(before).map((r) => `${r.message.headers["event-type"]}:${r.message.key}`);
      expect(events.sort()).toEqual(mine.map((d) => `DocumentDeleted:${d.id}`).sort());
      for (const d of other) expect(await h.repo.findById(d.id === other[2]!.id ? "globex" : "acme", d.id)).toBeDefined();
      expect((await del.byConnection("acme", "conn_a")).count).toBe(0);
      await expect(del.byConnection("acme", "")).rejects.toThrow(InvalidArgumentError);
    });
  });

  describe("ListDocumentsUseCase content budget (issue #33)", () => {
    const listCmd = { tenantId: "acme", namespaces: ["user_123"], page: 1, limit: 10, sort: "createdAt", order: "asc" };
    /** Four documents, oldest first, of 400, 500, 200 and 300 content bytes (the last 150 two-byte characters). */
    async function seed() {
      const texts = ["a".repeat(400), "b".repeat(500), "c".repeat(200), "é".repeat(150)];
      const out: string[] = [];
      for (const [i, content] of texts.entries()) {
        now = new Date(Date.parse(NOW) + i * 1000);
        out.push((await add.execute(addCmd({ customId: `doc-${i}`, content }))).id);
      }
      return { ids: out, texts };
    }

    it("fills the page in order under the cap, whole contents only, and marks the rest; the page itself is unchanged", async () => {
      const { ids, texts } = await seed();
      const list = new ListDocumentsUseCase(h.repo, { maxContentBytes: 1000 });
      const page = await list.execute({ ...listCmd, includeContent: true });
      expect(page.items.map((d) => d.id)).toEqual(ids);
      expect(page).toMatchObject({ currentPage: 1, limit: 10, totalItems: 4, totalPages: 1 });
      // 400 + 500 fit; 200 does not fit in the 100 left; 300 (UTF-8) neither.
      expect(page.items.map((d) => d.content)).toEqual([texts[0], texts[1], "", ""]);
      expect(page.content).toEqual({ maxBytes: 1000, omitted: [false, false, true, true], omittedCount: 2 });
      // A later, smaller document still fits after a large one was left out.
      const tight = await list.execute({ ...listCmd, includeContent: true, maxContentBytes: 450 });
      expect(tight.items.map((d) => d.content)).toEqual([texts[0], "", "", ""]);
      const skip = await list.execute({ ...listCmd, includeContent: true, maxContentBytes: 250, page: 2, limit: 2 });
      expect(skip.items.map((d) => d.content)).toEqual([texts[2], ""]);
      expect(skip.content).toEqual({ maxBytes: 250, omitted: [false, true], omittedCount: 1 });
      // The caller may lower the cap, never raise it.
      expect((await list.execute({ ...listCmd, includeContent: true, maxContentBytes: 10_000 })).content?.maxBytes).toBe(1000);
      expect((await list.execute({ ...listCmd, includeContent: true, maxContentBytes: 0 })).content?.maxBytes).toBe(1000);
      const all = await new ListDocumentsUseCase(h.repo, { maxContentBytes: 1400 }).execute({ ...listCmd, includeContent: true });
      expect(all.items.map((d) => d.content)).toEqual(texts);
      expect(all.content?.omittedCount).toBe(0);
    });

    it("without includeContent lists no content at all and states no budget; refuses a negative budget", async () => {
      await seed();
      const list = new ListDocumentsUseCase(h.repo, { maxContentBytes: 1000 });
      const page = await list.execute(listCmd);
      expect(page.items.map((d) => d.content)).toEqual(["", "", "", ""]);
      expect(page.content).toBeUndefined();
      await expect(list.execute({ ...listCmd, includeContent: true, maxContentBytes: -1 })).rejects.toThrow(InvalidArgumentError);
    });
  });

  it("documents without a custom id are always new", async () => {
    const a = await add.execute({ tenantId: "acme", namespace: "ns", input: { content: "same" } });
    const b = await add.execute({ tenantId: "acme", namespace: "ns", input: { content: "same" } });
    expect(a.id).not.toBe(b.id);
    expect(a.customId).toBeUndefined();
    expect(await outboxRows()).toHaveLength(2);
  });

  describe("RecordStateUseCase", () => {
    const at = (i: number) => `2024-03-04T05:07:0${i}.000Z`;
    const states: StateUpdate[] = [
      { generation: 1, sequence: 1, status: "extracting", at: at(1) },
      { generation: 1, sequence: 2, status: "chunking", title: "Promotion", contentType: "text", at: at(2) },
      { generation: 1, sequence: 3, status: "embedding", at: at(3) },
      { generation: 1, sequence: 4, status: "indexing", at: at(4) },
      { generation: 1, sequence: 5, status: "done", at: at(5) },
    ];

    it("applies states in order and ignores duplicates and stale ones", async () => {
      const { id } = await add.execute(addCmd());
      const applied: (string | undefined)[] = [];
      for (const s of states) {
        applied.push(await record.execute("acme", id, s));
        // Redelivery of the same event: ignored.
        applied.push(await record.execute("acme", id, s));
      }
      expect(applied).toEqual(["extracting", undefined, "chunking", undefined, "embedding", undefined, "indexing", undefined, "done", undefined]);
      // An older state arriving late does not regress the document.
      expect(await record.execute("acme", id, states[2]!)).toBeUndefined();
      const doc = await get.execute("acme", "user_123", id);
      expect(doc).toMatchObject({ status: "done", stateSequence: 5, title: "Promotion", contentType: "text", updatedAt: at(5) });
    });

    it("is scoped to the tenant and ignores unknown documents", async () => {
      const { id } = await add.execute(addCmd());
      expect(await record.execute("globex", id, states[0]!)).toBeUndefined();
      expect(await record.execute("acme", newId("document"), states[0]!)).toBeUndefined();
      expect((await get.execute("acme", "user_123", id)).status).toBe("queued");
    });
  });
}
