import { type OutgoingMessage, TOPICS } from "@engram/bus";
import type { FilterExpr } from "@engram/filters";
import { parseFilter } from "@engram/filters";
import { AlreadyExistsError, type DocumentStatus, type JsonObject, newId } from "@engram/kernel";
import type { ContainerTagRepository, DocumentListQuery, DocumentRepository } from "../../src/app/ports";
import type { ContainerTagMerge, ContainerTagSettings } from "../../src/domain/container-tag";
import type { DocumentRecord } from "../../src/domain/document";

/** One DocumentRepository adapter under test, fresh and empty. */
export interface DocumentRepositoryHarness {
  repo: DocumentRepository & ContainerTagRepository;
  /** Events stored in the outbox and not yet published, in publish order (read without claiming). */
  pendingEvents(): Promise<OutgoingMessage[]>;
  /** Closes the repository and opens it again on the same data. */
  reopen(): Promise<DocumentRepository & ContainerTagRepository>;
  close(): Promise<void>;
}

const T0 = Date.parse("2025-01-01T00:00:00.000Z");
/** The i-th second after T0 as the ISO string records carry. */
export const at = (i: number) => new Date(T0 + i * 1000).toISOString();

/** A minimal valid record; `over` wins. */
export function record(over: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    id: newId("document"),
    tenantId: "acme",
    namespace: "ns1",
    content: "Sarah is being promoted to VP of Product.",
    status: "queued",
    taskType: "memory",
    dreaming: "dynamic",
    sourceKind: "text",
    contentHash: "hash-1",
    generation: 1,
    stateSequence: 0,
    createdAt: at(0),
    updatedAt: at(0),
    ...over,
  };
}

const enc = new TextEncoder();
/** An event of a document, as the use cases build them (keyed by document id). */
export function event(docId: string, type: string): OutgoingMessage {
  return { topic: TOPICS.documents, key: docId, value: enc.encode(`${type}:${docId}`), headers: { "event-id": newId("event"), "event-type": type } };
}

const ids = (docs: { id: string }[]) => docs.map((d) => d.id);

/**
 * The behaviour every DocumentRepository adapter shares. `open` is called
 * once per test and must return an empty repository.
 */
export function documentRepositoryContract(open: () => Promise<DocumentRepositoryHarness>): void {
  let h: DocumentRepositoryHarness;
  let repo: DocumentRepository & ContainerTagRepository;

  beforeEach(async () => {
    h = await open();
    repo = h.repo;
  });

  afterEach(async () => {
    await h.close();
  });

  const types = async () => (await h.pendingEvents()).map((e) => `${e.headers["event-type"]}:${e.key}`);

  it("ownersOf names the tenant of each id, in any tenant; unknown ids are absent", async () => {
    const a = record({ tenantId: "acme" });
    const b = record({ tenantId: "globex", customId: "x" });
    await repo.insert(a, []);
    await repo.insert(b, []);
    const owners = await repo.ownersOf([a.id, b.id, "d_00000000000000000000", a.id]);
    expect([...owners].sort()).toEqual(
      [
        [a.id, "acme"],
        [b.id, "globex"],
      ].sort(),
    );
  });

  describe("container tags", () => {
    const tag = (over: Partial<ContainerTagSettings> = {}): ContainerTagSettings => ({
      tenantId: "t1",
      namespace: "research",
      name: "Research notes",
      entityContext: "Papers about tides",
      memoryFilesystemPaths: ["/memory/"],
      profileBuckets: [{ key: "papers", description: "" }],
      createdAt: at(1),
      updatedAt: at(1),
      ...over,
    });

    it("stores a tag's settings, replaces them keeping the creation time, lists and deletes them per tenant, through a reopen", async () => {
      await repo.putTag(tag());
      await repo.putTag(tag({ tenantId: "t2", name: "Other tenant" }));
      await repo.putTag(tag({ namespace: "alpha", name: null, entityContext: null, memoryFilesystemPaths: null, profileBuckets: [] }));
      expect(await repo.getTag("t1", "research")).toEqual(tag());
      expect(await repo.getTag("t1", "missing")).toBeUndefined();
      await repo.putTag(tag({ name: "Renamed", updatedAt: at(5), createdAt: at(5) }));
      expect(await repo.getTag("t1", "research")).toEqual(tag({ name: "Renamed", updatedAt: at(5) }));
      repo = await h.reopen();
      expect((await repo.listTags("t1")).map((t) => [t.namespace, t.name])).toEqual([
        ["alpha", null],
        ["research", "Renamed"],
      ]);
      expect(await repo.deleteTag("t1", "research")).toBe(true);
      expect(await repo.deleteTag("t1", "research")).toBe(false);
      expect((await repo.listTags("t1")).map((t) => t.namespace)).toEqual(["alpha"]);
      expect((await repo.getTag("t2", "research"))?.name).toBe("Other tenant");
    });

    it("keeps merge jobs, lists the unfinished ones oldest first across tenants, and lets one holder claim a job at a time", async () => {
      const job = (id: string, over: Partial<ContainerTagMerge> = {}): ContainerTagMerge => ({
        id,
        tenantId: "t1",
        target: "dst",
        sources: ["src"],
        status: "queued",
        movedDocuments: 0,
        movedMemories: 3,
        createdAt: at(1),
        updatedAt: at(1),
        ...over,
      });
      await repo.putMerge(job("g_1"));
      await repo.putMerge(job("g_2", { tenantId: "t2", createdAt: at(2) }));
      await repo.putMerge(job("g_3", { status: "completed", completedAt: at(3), createdAt: at(0) }));
      expect(await repo.getMerge("t1", "g_1")).toEqual(job("g_1"));
      expect(await repo.getMerge("t2", "g_1")).toBeUndefined();
      expect((await repo.unfinishedMerges(10)).map((m) => m.id)).toEqual(["g_1", "g_2"]);
      // Claimed by one holder until its lease lapses; the same holder renews.
      const claimed = await repo.claimMerge("t1", "g_1", "r1", at(10), at(100));
      expect(claimed).toMatchObject({ status: "running", leaseHolder: "r1", leaseUntil: at(100) });
      expect(await repo.claimMerge("t1", "g_1", "r2", at(20), at(120))).toBeUndefined();
      expect(await repo.claimMerge("t1", "g_1", "r1", at(30), at(130))).toMatchObject({ leaseUntil: at(130) });
      expect(await repo.claimMerge("t1", "g_1", "r2", at(131), at(231))).toMatchObject({ leaseHolder: "r2" });
      // Finished jobs and other tenants' jobs are not claimed.
      expect(await repo.claimMerge("t1", "g_3", "r1", at(10), at(100))).toBeUndefined();
      expect(await repo.claimMerge("t1", "g_2", "r1", at(10), at(100))).toBeUndefined();
      repo = await h.reopen();
      await repo.putMerge({ ...(await repo.getMerge("t1", "g_1"))!, status: "completed", movedDocuments: 5 });
      expect((await repo.unfinishedMerges(10)).map((m) => m.id)).toEqual(["g_2"]);
      expect((await repo.getMerge("t1", "g_1"))?.movedDocuments).toBe(5);
    });

    it("counts a tenant's documents per tag with their first creation and last change, one tag or all", async () => {
      await repo.insert(record({ tenantId: "t1", namespace: "b", createdAt: at(3), updatedAt: at(9) }), []);
      await repo.insert(record({ tenantId: "t1", namespace: "b", createdAt: at(1), updatedAt: at(4) }), []);
      await repo.insert(record({ tenantId: "t1", namespace: "a", createdAt: at(2), updatedAt: at(2) }), []);
      await repo.insert(record({ tenantId: "t2", namespace: "a", createdAt: at(0), updatedAt: at(20) }), []);
      expect(await repo.namespaceStats("t1")).toEqual([
        { namespace: "a", documentCount: 1, firstCreatedAt: at(2), lastUpdatedAt: at(2) },
        { namespace: "b", documentCount: 2, firstCreatedAt: at(1), lastUpdatedAt: at(9) },
      ]);
      expect(await repo.namespaceStats("t1", "b")).toEqual([{ namespace: "b", documentCount: 2, firstCreatedAt: at(1), lastUpdatedAt: at(9) }]);
      expect(await repo.namespaceStats("t1", "none")).toEqual([]);
      expect(await repo.namespaceStats("t3")).toEqual([]);
    });
  });

  describe("reads and writes", () => {
    it("stores every field and reads the record back by id, scoped to the tenant, also after a reopen", async () => {
      const full = record({
        customId: "chat-1",
        supportingContext: "a meeting",
        metadata: { type: "note", "dotted.key": "x", $dollar: 1, tags: ["a", "B"], n: -0.5, flag: false, none: null, nested: { $x: [1, { y: "z" }] } },
        group: { "weird.key": { $in: [1, 2] }, list: [] },
        date: "2024-05-01",
        filepath: "/docs/q3/report.pdf",
        status: "failed",
        statusReason: "no text",
        taskType: "superrag",
        dreaming: "instant",
        sourceKind: "file",
        url: "https://example.com/x",
        title: "Report",
        contentType: "pdf",
        summary: "The quarterly report. Revenue grew by 12 percent.",
        file: { key: "acme/e_1", name: "report.pdf", mimeType: "application/pdf", fileType: "pdf", sizeBytes: 12345, sha256: "ab".repeat(32) },
        containerTags: ["extra-1", "extra-2"],
        connectionId: "conn_4f9c2a",
        contentHash: "hash-9",
        generation: 7,
        stateSequence: 5,
        createdAt: at(1),
        updatedAt: at(2),
      });
      await repo.insert(full, [event(full.id, "DocumentQueued")]);
      expect(await repo.findById("acme", full.id)).toEqual(full);
      expect(JSON.stringify((await repo.findById("acme", full.id))!.metadata)).toBe(JSON.stringify(full.metadata));
      expect(await repo.findById("globex", full.id)).toBeUndefined();
      repo = await h.reopen();
      expect(await repo.findById("acme", full.id)).toEqual(full);
    });

    it("leaves absent optional fields absent, and keeps empty metadata apart from none", async () => {
      const bare = record();
      const empty = record({ metadata: {}, containerTags: [] });
      await repo.insert(bare, []);
      await repo.insert(empty, []);
      const b = (await repo.findById("acme", bare.id))!;
      for (const k of ["customId", "metadata", "group", "file", "containerTags", "filepath", "statusReason", "title", "summary", "url"] as const) {
        expect(b[k]).toBeUndefined();
      }
      const e = (await repo.findById("acme", empty.id))!;
      expect(e.metadata).toEqual({});
      expect(e.containerTags).toBeUndefined();
    });

    it("finds by caller id within tenant and namespace, in bulk, and newest first across the tenant", async () => {
      const a = record({ customId: "c1", namespace: "ns1", updatedAt: at(1) });
      const b = record({ customId: "c1", namespace: "ns2", updatedAt: at(5) });
      const c = record({ customId: "c1", tenantId: "globex", namespace: "ns1", updatedAt: at(9) });
      const d = record({ customId: "c2", namespace: "ns1" });
      for (const r of [a, b, c, d]) await repo.insert(r, []);
      expect((await repo.findByCustomId("acme", "ns1", "c1"))?.id).toBe(a.id);
      expect((await repo.findByCustomId("acme", "ns2", "c1"))?.id).toBe(b.id);
      expect((await repo.findByCustomId("globex", "ns1", "c1"))?.id).toBe(c.id);
      expect(await repo.findByCustomId("acme", "ns3", "c1")).toBeUndefined();
      expect(await repo.findByCustomId("initech", "ns1", "c1")).toBeUndefined();

      const found = await repo.findByCustomIds("acme", "ns1", ["c1", "c2", "c3", "c1"]);
      expect([...found.keys()].sort()).toEqual(["c1", "c2"]);
      expect(found.get("c1")?.id).toBe(a.id);
      expect((await repo.findByCustomIds("acme", "ns1", [])).size).toBe(0);

      // Legacy reads without a namespace: the most recently changed one of the tenant.
      expect((await repo.findByCustomIdInTenant("acme", "c1"))?.id).toBe(b.id);
      expect((await repo.findByCustomIdInTenant("globex", "c1"))?.id).toBe(c.id);
      expect(await repo.findByCustomIdInTenant("acme", "nope")).toBeUndefined();
    });

    it("finds hundreds of caller ids in one call", async () => {
      const docs = Array.from({ length: 520 }, (_, i) => record({ customId: `bulk-${i}` }));
      expect(await repo.writeMany(docs.map((next) => ({ next, events: [] })))).toEqual(docs.map(() => true));
      const found = await repo.findByCustomIds(
        "acme",
        "ns1",
        docs.map((d) => d.customId!),
      );
      expect(found.size).toBe(520);
      expect(found.get("bulk-519")?.id).toBe(docs[519]!.id);
    });

    it("makes caller ids unique per namespace: a second insert fails and stores neither record nor events", async () => {
      const a = record({ customId: "dup" });
      await repo.insert(a, [event(a.id, "DocumentQueued")]);
      const b = record({ customId: "dup" });
      await expect(repo.insert(b, [event(b.id, "DocumentQueued")])).rejects.toThrow(AlreadyExistsError);
      expect(await repo.findById("acme", b.id)).toBeUndefined();
      expect(await types()).toEqual([`DocumentQueued:${a.id}`]);
      // The same caller id in another namespace or tenant is another document; no caller id never conflicts.
      await repo.insert(record({ customId: "dup", namespace: "ns2" }), []);
      await repo.insert(record({ customId: "dup", tenantId: "globex" }), []);
      await repo.insert(record(), []);
      await repo.insert(record(), []);
    });
  });

  describe("outbox", () => {
    it("stores a write's events with it, in order, and none for a write that did not apply", async () => {
      const a = record();
      await repo.insert(a, [event(a.id, "DocumentQueued"), event(a.id, "DocumentMetadataChanged")]);
      const next = { ...a, metadata: { k: "v" }, updatedAt: at(1) };
      expect(await repo.update(a, next, [event(a.id, "DocumentMetadataChanged")])).toBe(true);
      // A stale update applies nothing and stores nothing.
      expect(await repo.update(a, { ...a, updatedAt: at(2) }, [event(a.id, "Stale")])).toBe(false);
      expect(await types()).toEqual([`DocumentQueued:${a.id}`, `DocumentMetadataChanged:${a.id}`, `DocumentMetadataChanged:${a.id}`]);
      const stored = await h.pendingEvents();
      expect(new TextDecoder().decode(stored[0]!.value)).toBe(`DocumentQueued:${a.id}`);
      expect(stored[0]!.topic).toBe(TOPICS.documents);
    });
  });

  describe("optimistic update", () => {
    it("applies when updatedAt, generation and sequence still match, and refuses otherwise", async () => {
      const a = record({ customId: "u1" });
      await repo.insert(a, []);
      const b = { ...a, status: "extracting" as DocumentStatus, stateSequence: 1, updatedAt: at(1) };
      expect(await repo.update(a, b, [])).toBe(true);
      expect(await repo.findById("acme", a.id)).toEqual(b);
      // Each of the compared fields alone makes an update stale.
      for (const stale of [a, { ...b, updatedAt: at(0) }, { ...b, generation: 2 }, { ...b, stateSequence: 0 }]) {
        expect(await repo.update(stale, { ...b, title: "lost", updatedAt: at(3) }, [event(a.id, "X")])).toBe(false);
      }
      expect(await repo.findById("acme", a.id)).toEqual(b);
      expect(await h.pendingEvents()).toEqual([]);
      // Another tenant cannot update it; an unknown document is not created.
      expect(await repo.update(b, { ...b, tenantId: "globex", updatedAt: at(4) }, [])).toBe(false);
      const ghost = record();
      expect(await repo.update(ghost, { ...ghost, updatedAt: at(1) }, [])).toBe(false);
      expect(await repo.findById("acme", ghost.id)).toBeUndefined();
    });

    it("of two concurrent updates from the same read, exactly one applies", async () => {
      const a = record();
      await repo.insert(a, []);
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) => repo.update(a, { ...a, title: `t${i}`, updatedAt: at(10 + i) }, [event(a.id, `U${i}`)])),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect((await repo.findById("acme", a.id))?.title).toBe(`t${winner}`);
      expect(await types()).toEqual([`U${winner}:${a.id}`]);
    });

    it("moves a document to another namespace, and refuses a move onto a taken caller id", async () => {
      const a = record({ customId: "m1", namespace: "ns1" });
      const taken = record({ customId: "m1", namespace: "ns2" });
      await repo.insert(a, []);
      await repo.insert(taken, []);
      await expect(repo.update(a, { ...a, namespace: "ns2", updatedAt: at(1) }, [event(a.id, "Move")])).rejects.toThrow(AlreadyExistsError);
      expect((await repo.findById("acme", a.id))?.namespace).toBe("ns1");
      expect(await h.pendingEvents()).toEqual([]);
      const moved = { ...a, namespace: "ns3", generation: 2, updatedAt: at(2) };
      expect(await repo.update(a, moved, [event(a.id, "Move")])).toBe(true);
      expect((await repo.findByCustomId("acme", "ns3", "m1"))?.id).toBe(a.id);
      expect(await repo.findByCustomId("acme", "ns1", "m1")).toBeUndefined();
    });
  });

  describe("writeMany", () => {
    it("applies each write on its own in one call: conflicts and stale updates fail only themselves", async () => {
      const existing = record({ customId: "e1" });
      const other = record({ customId: "e2" });
      await repo.insert(existing, []);
      await repo.insert(other, []);
      const fresh = record({ customId: "n1" });
      const clash = record({ customId: "e2" });
      const updated = { ...existing, content: "new", generation: 2, updatedAt: at(1) };
      // Read before a change that never happened: its updatedAt differs from the stored one.
      const stale = { ...other, updatedAt: at(5) };
      const res = await repo.writeMany([
        { next: fresh, events: [event(fresh.id, "DocumentQueued")] },
        { next: clash, events: [event(clash.id, "DocumentQueued")] },
        { previous: existing, next: updated, events: [event(existing.id, "DocumentQueued")] },
        { previous: stale, next: { ...other, title: "lost", updatedAt: at(6) }, events: [event(other.id, "Lost")] },
      ]);
      expect(res).toEqual([true, false, true, false]);
      expect(await repo.findById("acme", fresh.id)).toEqual(fresh);
      expect(await repo.findById("acme", clash.id)).toBeUndefined();
      expect(await repo.findById("acme", existing.id)).toEqual(updated);
      expect((await repo.findById("acme", other.id))?.title).toBeUndefined();
      expect(await types()).toEqual([`DocumentQueued:${fresh.id}`, `DocumentQueued:${existing.id}`]);
    });

    it("sees its own earlier writes: a caller id taken earlier in the batch conflicts, one freed earlier can be taken", async () => {
      const mover = record({ customId: "free-me", namespace: "ns1" });
      await repo.insert(mover, []);
      const first = record({ customId: "same" });
      const second = record({ customId: "same" });
      const taker = record({ customId: "free-me", namespace: "ns1" });
      const res = await repo.writeMany([
        { next: first, events: [event(first.id, "A")] },
        { next: second, events: [event(second.id, "B")] },
        { previous: mover, next: { ...mover, namespace: "ns9", updatedAt: at(1) }, events: [event(mover.id, "C")] },
        { next: taker, events: [event(taker.id, "D")] },
      ]);
      expect(res).toEqual([true, false, true, true]);
      expect((await repo.findByCustomId("acme", "ns1", "same"))?.id).toBe(first.id);
      expect((await repo.findByCustomId("acme", "ns1", "free-me"))?.id).toBe(taker.id);
      expect((await repo.findByCustomId("acme", "ns9", "free-me"))?.id).toBe(mover.id);
      expect(await types()).toEqual([`A:${first.id}`, `C:${mover.id}`, `D:${taker.id}`]);
    });

    it("an empty batch writes nothing", async () => {
      expect(await repo.writeMany([])).toEqual([]);
      expect(await h.pendingEvents()).toEqual([]);
    });
  });

  describe("delete", () => {
    it("removes only the tenant's existing documents and stores events only for them", async () => {
      const a = record();
      const b = record();
      const foreign = record({ tenantId: "globex" });
      await repo.insert(a, []);
      await repo.insert(b, []);
      await repo.insert(foreign, []);
      const ghost = record();
      const removed = await repo.delete(
        [a, ghost, { ...foreign, tenantId: "acme" }, a],
        [event(a.id, "DocumentDeleted"), event(ghost.id, "DocumentDeleted"), event(foreign.id, "DocumentDeleted")],
      );
      expect(removed).toEqual([a.id]);
      expect(await repo.findById("acme", a.id)).toBeUndefined();
      expect(await repo.findById("acme", b.id)).toBeDefined();
      expect(await repo.findById("globex", foreign.id)).toBeDefined();
      expect(await types()).toEqual([`DocumentDeleted:${a.id}`]);
      expect(await repo.delete([b], [])).toEqual([b.id]);
      expect(await repo.delete([], [])).toEqual([]);
    });

    it("frees the caller id", async () => {
      const a = record({ customId: "gone" });
      await repo.insert(a, []);
      await repo.delete([a], []);
      await repo.insert(record({ customId: "gone" }), []);
      expect((await repo.findByCustomId("acme", "ns1", "gone"))?.id).not.toBe(a.id);
    });
  });

  describe("list", () => {
    /** Ten documents of acme in ns1/ns2 and two of globex, with distinct times, metadata and paths. */
    async function seed() {
      const rows: DocumentRecord[] = [];
      const meta: (JsonObject | undefined)[] = [
        { type: "note", priority: 1, tags: ["work", "Urgent"], title: "Quarterly report (Q3)" },
        { type: "Note", priority: 5, tags: ["home"], title: "Groceries" },
        { type: "email", priority: "3", tags: ["work"], title: "Re: quarterly numbers" },
        { type: "email", priority: 10, title: "Newsletter" },
        { type: "chat", tags: [] },
        undefined,
        { type: "note", priority: -2, done: true, tags: ["work", "home"] },
        { type: "chat", priority: 7.5, title: "Standup" },
        { "dotted.key": "x", $dollar: "y" },
        { type: "NOTE", priority: 0 },
      ];
      const statuses: DocumentStatus[] = ["queued", "done", "failed", "done", "extracting", "done", "indexing", "done", "queued", "done"];
      const paths = ["/a/x.md", "/a/b/y.md", "/a.b/z.md", "/a/", undefined, "/ab/c.md", "/a/b/c/d.md", "/aXb/k.md", "/a/x.md", "/A/x.md"];
      for (let i = 0; i < 10; i++) {
        rows.push(
          record({
            namespace: i % 2 ? "ns2" : "ns1",
            metadata: meta[i],
            status: statuses[i]!,
            filepath: paths[i],
            createdAt: at(i),
            // Update times run the other way round, so the two sorts differ.
            updatedAt: at(100 - i),
          }),
        );
      }
      const foreign = [record({ tenantId: "globex", metadata: { type: "note" }, createdAt: at(3) }), record({ tenantId: "globex", namespace: "ns2" })];
      for (const r of [...rows, ...foreign]) await repo.insert(r, []);
      return { rows, foreign };
    }

    const q = (over: Partial<DocumentListQuery> = {}): DocumentListQuery => ({
      tenantId: "acme",
      sort: "createdAt",
      order: "asc",
      offset: 0,
      limit: 100,
      ...over,
    });

    it("lists the tenant's documents only, sorted by creation or update time in either order, with offset, limit and total", async () => {
      const { rows, foreign } = await seed();
      const all = await repo.list(q());
      expect(ids(all.items)).toEqual(ids(rows));
      expect(all.total).toBe(10);
      expect(all.items.some((d) => foreign.some((f) => f.id === d.id))).toBe(false);
      expect(all.items[3]).toEqual(rows[3]);
      expect(ids((await repo.list(q({ order: "desc" }))).items)).toEqual(ids(rows).reverse());
      expect(ids((await repo.list(q({ sort: "updatedAt" }))).items)).toEqual(ids(rows).reverse());
      expect(ids((await repo.list(q({ sort: "updatedAt", order: "desc" }))).items)).toEqual(ids(rows));
      const page = await repo.list(q({ offset: 3, limit: 4 }));
      expect(ids(page.items)).toEqual(ids(rows.slice(3, 7)));
      expect(page.total).toBe(10);
      expect(await repo.list(q({ offset: 20, limit: 4 }))).toEqual({ items: [], total: 10 });
      expect((await repo.list(q({ tenantId: "initech" }))).total).toBe(0);
      expect(ids((await repo.list(q({ tenantId: "globex" }))).items).sort()).toEqual(ids(foreign).sort());
    });

    it("lists without content (each content's UTF-8 size instead) and reads contents by id within the tenant (issue #33)", async () => {
      const texts = ["plain ascii", "é ü — 多字节 🙂", "x".repeat(70_000)];
      const docs = texts.map((content, i) => record({ content, createdAt: at(i), metadata: { kind: i === 1 ? "b" : "a" } }));
      const foreign = record({ tenantId: "globex", content: "not yours", createdAt: at(9) });
      for (const r of [...docs, foreign]) await repo.insert(r, []);
      const light = await repo.list(q({ withoutContent: true }));
      expect(ids(light.items)).toEqual(ids(docs));
      expect(light.items.map((d) => d.content)).toEqual(["", "", ""]);
      expect(light.contentBytes).toEqual(texts.map((t) => Buffer.byteLength(t, "utf8")));
      // Everything but the content is the record as stored.
      expect(light.items[1]).toEqual({ ...docs[1], content: "" });
      const paged = await repo.list(q({ withoutContent: true, offset: 1, limit: 1, order: "asc" }));
      expect(paged).toEqual({ items: [{ ...docs[1], content: "" }], total: 3, contentBytes: [Buffer.byteLength(texts[1]!, "utf8")] });
      const filtered = await repo.list(q({ withoutContent: true, filter: parseFilter({ AND: [{ key: "kind", value: "a" }] }) as FilterExpr }));
      expect(filtered).toEqual({
        items: [docs[0], docs[2]].map((d) => ({ ...d!, content: "" })),
        total: 2,
        contentBytes: [texts[0]!.length, texts[2]!.length],
      });
      const contents = await repo.contents("acme", [docs[2]!.id, docs[1]!.id, foreign.id, "missing", docs[1]!.id]);
      expect(contents).toEqual(
        new Map([
          [docs[2]!.id, texts[2]],
          [docs[1]!.id, texts[1]],
        ]),
      );
      expect(await repo.contents("globex", [foreign.id])).toEqual(new Map([[foreign.id, "not yours"]]));
      expect(await repo.contents("acme", [])).toEqual(new Map());
    });

    it("breaks ties of equal times by id, in the requested order", async () => {
      const same = Array.from({ length: 4 }, () => record({ createdAt: at(7), updatedAt: at(7) }));
      for (const r of same) await repo.insert(r, []);
      const sorted = ids(same).sort();
      expect(ids((await repo.list(q())).items)).toEqual(sorted);
      expect(ids((await repo.list(q({ order: "desc" }))).items)).toEqual([...sorted].reverse());
      expect(ids((await repo.list(q({ sort: "updatedAt", order: "desc" }))).items)).toEqual([...sorted].reverse());
    });

    it("a walk through the pages sees each document once, in order, across runs of equal times; filtered pages are full", async () => {
      const docs: DocumentRecord[] = [];
      for (let i = 0; i < 60; i++)
        docs.push(record({ createdAt: at(i < 25 ? 1 : i < 50 ? 2 : 3), updatedAt: at(5), metadata: { team: i % 3 ? "red" : "blue" } }));
      for (const r of docs) await repo.insert(r, []);
      const walk = async (over: Partial<DocumentListQuery>) => {
        const seen: DocumentRecord[] = [];
        const totals: number[] = [];
        for (let offset = 0; ; offset += 7) {
          const page = await repo.list(q({ offset, limit: 7, withoutContent: true, ...over }));
          seen.push(...page.items);
          totals.push(page.total);
          if (page.items.length < 7) return { seen, totals };
        }
      };
      const inOrder = (list: DocumentRecord[], dir: 1 | -1, field: "createdAt" | "updatedAt") =>
        [...list].sort((x, y) => dir * (x[field] < y[field] ? -1 : x[field] > y[field] ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
      for (const [order, dir] of [["asc", 1] as const, ["desc", -1] as const]) {
        const all = await walk({ order });
        expect(ids(all.seen)).toEqual(ids(inOrder(docs, dir, "createdAt")));
        expect(new Set(all.totals)).toEqual(new Set([60]));
        const byUpdate = await walk({ order, sort: "updatedAt" });
        expect(ids(byUpdate.seen)).toEqual(ids(inOrder(docs, dir, "updatedAt")));
        const red = await walk({ order, filter: parseFilter({ key: "team", value: "red" }) });
        const wanted = inOrder(
          docs.filter((d) => d.metadata?.team === "red"),
          dir,
          "createdAt",
        );
        expect(ids(red.seen)).toEqual(ids(wanted));
        // Every page but the last is full.
        expect(red.seen.length).toBe(40);
        expect(new Set(red.totals)).toEqual(new Set([40]));
      }
    });

    it("filters by namespaces (one, several, none) and statuses", async () => {
      const { rows } = await seed();
      expect(ids((await repo.list(q({ namespaces: ["ns1"] }))).items)).toEqual(ids(rows.filter((_, i) => i % 2 === 0)));
      expect((await repo.list(q({ namespaces: ["ns1", "ns2"] }))).total).toBe(10);
      expect((await repo.list(q({ namespaces: ["nsX"] }))).total).toBe(0);
      expect(await repo.list(q({ namespaces: [] }))).toEqual({ items: [], total: 0 });
      const processing = await repo.list(q({ statuses: ["queued", "extracting", "indexing"] }));
      expect(ids(processing.items)).toEqual(ids([rows[0]!, rows[4]!, rows[6]!, rows[8]!]));
      expect(processing.total).toBe(4);
      expect((await repo.list(q({ statuses: [] }))).total).toBe(10);
      expect(ids((await repo.list(q({ namespaces: ["ns2"], statuses: ["done"] }))).items)).toEqual(ids([rows[1]!, rows[3]!, rows[5]!, rows[7]!, rows[9]!]));
    });

    it("filters by the importing connection, within the tenant and together with the namespace", async () => {
      const mine = [record({ connectionId: "conn_a", createdAt: at(1) }), record({ connectionId: "conn_a", namespace: "ns2", createdAt: at(2) })];
      const others = [
        record({ connectionId: "conn_b", createdAt: at(3) }),
        record({ createdAt: at(4) }),
        record({ tenantId: "globex", connectionId: "conn_a", createdAt: at(5) }),
      ];
      for (const d of [...mine, ...others]) await repo.insert(d, []);
      const list = (over: Partial<DocumentListQuery>) => repo.list({ tenantId: "acme", sort: "createdAt", order: "asc", offset: 0, limit: 10, ...over });
      expect(ids((await list({ connectionId: "conn_a" })).items)).toEqual(ids(mine));
      expect((await list({ connectionId: "conn_a" })).total).toBe(2);
      expect(ids((await list({ connectionId: "conn_a", namespaces: ["ns2"] })).items)).toEqual([mine[1]!.id]);
      expect((await list({ connectionId: "conn_zz" })).total).toBe(0);
      expect((await list({})).total).toBe(4);
      expect(ids((await repo.list({ tenantId: "globex", connectionId: "conn_a", sort: "createdAt", order: "asc", offset: 0, limit: 10 })).items)).toEqual([
        others[2]!.id,
      ]);
    });

    it("filters by exact file path, or by prefix when it ends with '/' (metacharacters literal, case-sensitive)", async () => {
      const { rows } = await seed();
      expect(ids((await repo.list(q({ filepath: "/a/x.md" }))).items)).toEqual(ids([rows[0]!, rows[8]!]));
      expect(ids((await repo.list(q({ filepath: "/a/" }))).items)).toEqual(ids([rows[0]!, rows[1]!, rows[3]!, rows[6]!, rows[8]!]));
      expect(ids((await repo.list(q({ filepath: "/a/b/" }))).items)).toEqual(ids([rows[1]!, rows[6]!]));
      expect(ids((await repo.list(q({ filepath: "/a.b/" }))).items)).toEqual(ids([rows[2]!]));
      expect((await repo.list(q({ filepath: "/a" }))).total).toBe(0);
      expect((await repo.list(q({ filepath: "/q/" }))).total).toBe(0);
    });

    const cases: [string, unknown, number[]][] = [
      ["metadata equality", { AND: [{ key: "type", value: "note" }] }, [0, 6]],
      ["metadata ignoreCase", { AND: [{ key: "type", value: "note", ignoreCase: true }] }, [0, 1, 6, 9]],
      ["metadata negate (missing key included)", { AND: [{ key: "type", value: "email", negate: true }] }, [0, 1, 4, 5, 6, 7, 8, 9]],
      ["metadata on an array element", { AND: [{ key: "tags", value: "work" }] }, [0, 2, 6]],
      ["metadata number equality", { AND: [{ key: "priority", value: "5" }] }, [1]],
      ["metadata boolean", { AND: [{ key: "done", value: "true" }] }, [6]],
      ["numeric >", { AND: [{ filterType: "numeric", key: "priority", value: "2", numericOperator: ">" }] }, [1, 2, 3, 7]],
      ["numeric <= with a negative", { AND: [{ filterType: "numeric", key: "priority", value: "0", numericOperator: "<=" }] }, [6, 9]],
      ["numeric negate", { AND: [{ filterType: "numeric", key: "priority", value: "5", numericOperator: ">=", negate: true }] }, [0, 2, 4, 5, 6, 8, 9]],
      ["array_contains", { AND: [{ filterType: "array_contains", key: "tags", value: "home" }] }, [1, 6]],
      ["array_contains ignoreCase", { AND: [{ filterType: "array_contains", key: "tags", value: "urgent", ignoreCase: true }] }, [0]],
      ["array_contains on a scalar", { AND: [{ filterType: "array_contains", key: "type", value: "note" }] }, []],
      ["string_contains", { AND: [{ filterType: "string_contains", key: "title", value: "(Q3)" }] }, [0]],
      ["string_contains ignoreCase", { AND: [{ filterType: "string_contains", key: "title", value: "QUARTERLY", ignoreCase: true }] }, [0, 2]],
      ["string_contains negate", { AND: [{ filterType: "string_contains", key: "title", value: "quarterly", negate: true }] }, [0, 1, 3, 4, 5, 6, 7, 8, 9]],
      [
        "keys with dots and dollars",
        {
          AND: [
            { key: "dotted.key", value: "x" },
            { key: "$dollar", value: "y" },
          ],
        },
        [8],
      ],
      [
        "nested AND / OR",
        {
          OR: [
            {
              AND: [
                { key: "type", value: "email" },
                { filterType: "numeric", key: "priority", value: "5", numericOperator: ">" },
              ],
            },
            {
              AND: [
                { key: "type", value: "chat" },
                { filterType: "string_contains", key: "title", value: "stand", ignoreCase: true },
              ],
            },
          ],
        },
        [3, 7],
      ],
    ];

    it.each(cases)("filters by metadata: %s", async (_label, filter, expected) => {
      const { rows } = await seed();
      const res = await repo.list(q({ filter: parseFilter(filter) as FilterExpr }));
      expect(ids(res.items)).toEqual(expected.map((i) => rows[i]!.id));
      expect(res.total).toBe(expected.length);
    });

    it("combines a metadata filter with scope, status, path, sort and paging; total counts every match", async () => {
      const { rows } = await seed();
      const filter = parseFilter({ AND: [{ key: "type", value: "email", negate: true }] });
      const res = await repo.list(q({ filter, namespaces: ["ns1", "ns2"], sort: "updatedAt", order: "asc", offset: 2, limit: 3 }));
      // Matches in updatedAt order: 9 8 7 6 5 4 1 0; page 2..4.
      expect(ids(res.items)).toEqual(ids([rows[7]!, rows[6]!, rows[5]!]));
      expect(res.total).toBe(8);
      const scoped = await repo.list(q({ filter, namespaces: ["ns1"], statuses: ["queued", "indexing"], filepath: "/a/" }));
      expect(ids(scoped.items)).toEqual(ids([rows[0]!, rows[6]!, rows[8]!]));
      // The other tenant's note never shows up.
      const notes = await repo.list(q({ filter: parseFilter({ AND: [{ key: "type", value: "note" }] }) }));
      expect(notes.total).toBe(2);
    });
  });

  describe("listStale", () => {
    it("returns non-final documents of every tenant changed before the cut-off, least recently changed first", async () => {
      const mk = (status: DocumentStatus, i: number, tenantId = "acme") => record({ status, tenantId, updatedAt: at(i) });
      const docs = [
        mk("queued", 5),
        mk("done", 1),
        mk("extracting", 3),
        mk("failed", 2),
        mk("indexing", 8),
        mk("unknown", 4, "globex"),
        mk("queued", 20),
        mk("embedding", 6, "globex"),
        mk("chunking", 7),
      ];
      for (const d of docs) await repo.insert(d, []);
      const stale = await repo.listStale(at(10), 100);
      expect(stale.map((d) => d.updatedAt)).toEqual([at(3), at(4), at(5), at(6), at(7), at(8)]);
      expect(new Set(stale.map((d) => d.tenantId))).toEqual(new Set(["acme", "globex"]));
      expect((await repo.listStale(at(10), 2)).map((d) => d.updatedAt)).toEqual([at(3), at(4)]);
      expect(await repo.listStale(at(3), 100)).toEqual([]);
      expect(await repo.listStale(at(10), 0)).toEqual([]);
    });
  });
}
