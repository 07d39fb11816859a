import { ExtractionLimitError } from "@engram/nlp";
import fs from "node:fs";
import { AlreadyExistsError, ConflictError, InvalidArgumentError, newId, NotFoundError } from "@engram/kernel";
import { partitionKey, SearchEngine } from "@engram/index";
import { SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import { CreateMemoriesUseCase } from "../../src/app/create-memories.usecase";
import { forgetTopic, userNameOf } from "../../src/domain/memory";
import { ForgetMemoriesUseCase } from "../../src/app/forget-memories.usecase";
import { type FormMemoriesUseCase, formsMemoriesAt } from "../../src/app/form-memories.usecase";
import { ListMemoriesUseCase } from "../../src/app/list-memories.usecase";
import { RetireMemoriesUseCase } from "../../src/app/retire-memories.usecase";
import { UpdateMemoryUseCase } from "../../src/app/update-memory.usecase";
import {
  Events,
  formationOver,
  LineExtractor,
  MapReader,
  mutex,
  NoBuckets,
  openStore,
  RuleRelator,
  tempDir,
  TestClock,
  WordClassifier,
  writerFor,
} from "./helpers";

const T = "acme";
const NS = "user_1";

describe("memories use cases on the embedded store", () => {
  let dir: string;
  let store: SqliteMemoryStore;
  let clock: TestClock;
  let create: CreateMemoriesUseCase;
  let update: UpdateMemoryUseCase;
  let forget: ForgetMemoriesUseCase;
  let list: ListMemoriesUseCase;
  let buckets: NoBuckets;

  const search = (text: string, over: Partial<Parameters<SqliteMemoryStore["search"]>[0]> = {}) =>
    store.search({ tenantId: T, namespaces: [NS], text, limit: 10, now: clock.now().toISOString(), ...over });

  beforeEach(() => {
    dir = tempDir();
    store = openStore(dir);
    clock = new TestClock();
    buckets = new NoBuckets();
    const lock = mutex();
    const writer = writerFor(store);
    create = new CreateMemoriesUseCase({ repo: store, writer, classifier: new WordClassifier(), buckets, clock, lock });
    update = new UpdateMemoryUseCase({ repo: store, writer, clock, lock });
    forget = new ForgetMemoriesUseCase({ repo: store, clock, lock });
    list = new ListMemoriesUseCase(store, clock);
  });

  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe("CreateMemories", () => {
    it("writes memories that are searchable as soon as the call returns", async () => {
      const [m] = await create.execute({
        tenantId: T,
        namespace: NS,
        memories: [{ content: "John prefers dark mode", isStatic: false, metadata: { source: "chat" } }],
      });
      expect(m).toMatchObject({ content: "John prefers dark mode", version: 1, isLatest: true, isForgotten: false, metadata: { source: "chat" }, sources: [] });
      expect(m!.id).toMatch(/^m_[0-9A-Za-z]{20}$/);
      const hits = await search("what mode does John prefer?");
      expect(hits.map((h) => h.memory.id)).toEqual([m!.id]);
      expect(hits[0]!.similarity).toBeGreaterThan(0.5);
    });

    it("never stores a duplicate: the same content returns the existing memory, changed fields make a new version", async () => {
      const [a] = await create.execute({ tenantId: T, namespace: NS, memories: [{ content: "John is from Seattle", isStatic: true }] });
      const [b, c] = await create.execute({
        tenantId: T,
        namespace: NS,
        memories: [
          { content: "john is from seattle.", isStatic: true },
          { content: "John is from Seattle", isStatic: true },
        ],
      });
      expect(b!.id).toBe(a!.id);
      expect(c!.id).toBe(a!.id);
      const [d] = await create.execute({
        tenantId: T,
        namespace: NS,
        memories: [{ content: "John is from Seattle", isStatic: true, metadata: { confidence: 0.9 } }],
      });
      expect(d).toMatchObject({ version: 2, parentMemoryId: a!.id, rootMemoryId: a!.id, relation: "updates", metadata: { confidence: 0.9 } });
      const { entries } = await list.execute({
        tenantId: T,
        namespaces: [NS],
        page: 1,
        limit: 10,
        sort: "createdAt",
        order: "desc",
        includeHistory: true,
        includeForgotten: false,
      });
      expect(entries).toHaveLength(1);
      expect(entries[0]!.memory.id).toBe(d!.id);
      expect(entries[0]!.history.map((h) => [h.id, h.isLatest])).toEqual([[a!.id, false]]);
    });

    it("validates: 1-100 items, non-empty content, metadata values, a forget reason needs a time", async () => {
      await expect(create.execute({ tenantId: T, namespace: NS, memories: [] })).rejects.toThrow(InvalidArgumentError);
      await expect(create.execute({ tenantId: T, namespace: NS, memories: Array.from({ length: 101 }, (_, i) => ({ content: `m${i}` })) })).rejects.toThrow(
        /1 to 100/,
      );
      await expect(create.execute({ tenantId: T, namespace: NS, memories: [{ content: "   " }] })).rejects.toThrow(/must not be empty/);
      await expect(create.execute({ tenantId: T, namespace: NS, memories: [{ content: "x", metadata: { nested: { a: 1 } } }] })).rejects.toThrow(
        /unsupported value/,
      );
      await expect(create.execute({ tenantId: T, namespace: NS, memories: [{ content: "x", forgetReason: "because" }] })).rejects.toThrow(/forgetAfter/);
      await expect(create.execute({ tenantId: T, namespace: "bad ns", memories: [{ content: "x" }] })).rejects.toThrow(/containerTag/);
      // Nothing half-written.
      expect((await store.list({ tenantId: T, sort: "createdAt", order: "desc", offset: 0, limit: 10, now: clock.now().toISOString() })).total).toBe(0);
    });

    it("classifies into the effective profile buckets", async () => {
      buckets.defs = [{ key: "work", description: "job" }];
      const [m] = await create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Sarah's work is product management" }] });
      expect(m!.bucketKeys).toEqual(["work"]);
    });
  });

  describe("UpdateMemory", () => {
    it("creates a new version by id; unsent fields are inherited, null clears (forgetAfter also clears the reason)", async () => {
      const [v1] = await create.execute({
        tenantId: T,
        namespace: NS,
        memories: [{ content: "John prefers dark mode", metadata: { source: "chat" }, forgetAfter: "2027-01-01T00:00:00Z", forgetReason: "review" }],
      });
      const v2 = await update.execute({ tenantId: T, namespace: NS, selector: { id: v1!.id }, newContent: "John now prefers light mode" });
      expect(v2).toMatchObject({ version: 2, parentMemoryId: v1!.id, rootMemoryId: v1!.id, metadata: { source: "chat" }, forgetReason: "review" });
      const v3 = await update.execute({
        tenantId: T,
        namespace: NS,
        selector: { content: "john now prefers LIGHT mode" },
        newContent: "John prefers system mode",
        forgetAfter: { value: undefined },
      });
      expect(v3).toMatchObject({ version: 3, parentMemoryId: v2.id, rootMemoryId: v1!.id });
      expect(v3.forgetAfter).toBeUndefined();
      expect(v3.forgetReason).toBeUndefined();
      const old = await store.findById(T, v1!.id);
      expect(old!.isLatest).toBe(false);
      // Search shows only the latest version.
      expect((await search("John mode")).map((h) => h.memory.id)).toEqual([v3.id]);
    });

    it("404 outside the namespace, 409 for an older version (naming the latest) and for a forgotten memory, 400 for a document id", async () => {
      const [v1] = await create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Alice works at Acme" }] });
      await expect(update.execute({ tenantId: T, namespace: "other", selector: { id: v1!.id }, newContent: "x" })).rejects.toThrow(NotFoundError);
      await expect(update.execute({ tenantId: "other-tenant", namespace: NS, selector: { id: v1!.id }, newContent: "x" })).rejects.toThrow(NotFoundError);
      const v2 = await update.execute({ tenantId: T, namespace: NS, selector: { id: v1!.id }, newContent: "Alice works at Globex" });
      await expect(update.execute({ tenantId: T, namespace: NS, selector: { id: v1!.id }, newContent: "y" })).rejects.toMatchObject({
        constructor: ConflictError,
        details: expect.stringContaining(v2.id),
      });
      await forget.forgetOne({ tenantId: T, namespace: NS, selector: { id: v2.id } });
      await expect(update.execute({ tenantId: T, namespace: NS, selector: { id: v2.id }, newContent: "z" })).rejects.toThrow(AlreadyExistsError);
      await expect(update.execute({ tenantId: T, namespace: NS, selector: { id: newId("document") }, newContent: "z" })).rejects.toThrow(/document id/);
    });

    it("returns the memory unchanged when nothing changes", async () => {
      const [v1] = await create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Bob likes tea" }] });
      const same = await update.execute({ tenantId: T, namespace: NS, selector: { id: v1!.id }, newContent: "Bob likes tea" });
      expect(same.id).toBe(v1!.id);
      expect(same.version).toBe(1);
    });
  });

  describe("forgetting", () => {
    it("forgets one memory: gone from search unless asked for; 409 the second time, 404 unknown", async () => {
      const [m] = await create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Project Titan launches in March" }] });
      const f = await forget.forgetOne({ tenantId: T, namespace: NS, selector: { id: m!.id }, reason: "cancelled" });
      expect(f).toMatchObject({ isForgotten: true, forgetReason: "cancelled" });
      expect(await search("Project Titan")).toEqual([]);
      expect((await search("Project Titan", { includeForgotten: true })).map((h) => h.memory.id)).toEqual([m!.id]);
      await expect(forget.forgetOne({ tenantId: T, namespace: NS, selector: { id: m!.id } })).rejects.toThrow(AlreadyExistsError);
      await expect(forget.forgetOne({ tenantId: T, namespace: NS, selector: { id: newId("memory") } })).rejects.toThrow(NotFoundError);
      await expect(forget.forgetOne({ tenantId: T, namespace: NS, selector: { content: "no such memory" } })).rejects.toThrow(NotFoundError);
    });

    it("previews with dryRun, then forgets what the preview showed, tagged with one batch id", async () => {
      const written = await create.execute({
        tenantId: T,
        namespace: NS,
        memories: [{ content: "Project Titan launches in March" }, { content: "Project Titan budget is 2 million" }, { content: "Sarah likes hiking" }],
      });
      const preview = await forget.byQuery({ tenantId: T, namespace: NS, query: "forget everything about Project Titan", dryRun: true });
      expect(preview.dryRun).toBe(true);
      expect(preview.selected.map((s) => s.memory.content).sort()).toEqual(["Project Titan budget is 2 million", "Project Titan launches in March"]);
      expect(preview.summary).toMatch(/would forget 2 memories/i);
      expect((await search("Project Titan")).length).toBe(2); // nothing changed
      const done = await forget.byQuery({ tenantId: T, namespace: NS, query: "forget everything about Project Titan", dryRun: false, reason: "cancelled" });
      expect(done.selected.map((s) => s.memory.id).sort()).toEqual(preview.selected.map((s) => s.memory.id).sort());
      expect(done.forgetBatchId).toMatch(/^b_/);
      for (const s of done.selected)
        expect(await store.findById(T, s.memory.id)).toMatchObject({ isForgotten: true, forgetBatchId: done.forgetBatchId, forgetReason: "cancelled" });
      expect((await search("hiking")).map((h) => h.memory.id)).toEqual([written[2]!.id]);
    });

    it("respects threshold and maxForget; validates them", async () => {
      await create.execute({
        tenantId: T,
        namespace: NS,
        memories: [{ content: "Titan rocket test" }, { content: "Titan moon facts" }, { content: "Titan rocket engines" }],
      });
      const one = await forget.byQuery({ tenantId: T, namespace: NS, query: "Titan", dryRun: true, maxForget: 1 });
      expect(one.selected).toHaveLength(1);
      const strict = await forget.byQuery({ tenantId: T, namespace: NS, query: "Titan rocket engines", dryRun: true, threshold: 1 });
      expect(strict.selected.map((s) => s.memory.content)).toEqual(["Titan rocket engines"]);
      await expect(forget.byQuery({ tenantId: T, namespace: NS, query: "x", dryRun: true, maxForget: 501 })).rejects.toThrow(InvalidArgumentError);
      await expect(forget.byQuery({ tenantId: T, namespace: NS, query: "x", dryRun: true, threshold: 2 })).rejects.toThrow(InvalidArgumentError);
    });

    it("forgets exact ids of the namespace and reports the others per id", async () => {
      const [a, b] = await create.execute({ tenantId: T, namespace: NS, memories: [{ content: "a fact" }, { content: "b fact" }] });
      const [other] = await create.execute({ tenantId: T, namespace: "other", memories: [{ content: "other fact" }] });
      await forget.forgetOne({ tenantId: T, namespace: NS, selector: { id: b!.id } });
      const docId = newId("document");
      const out = await forget.byIds({ tenantId: T, namespace: NS, ids: [a!.id, b!.id, other!.id, docId, "nope"], dryRun: false });
      expect(out.selected.map((s) => [s.memory.id, s.score])).toEqual([[a!.id, 1]]);
      expect(Object.fromEntries(out.errors.map((e) => [e.id, e.error]))).toEqual({
        [b!.id]: "memory is already forgotten",
        [other!.id]: "memory not found in this container",
        [docId]: expect.stringMatching(/is a document id, not a memory id/),
        nope: expect.stringMatching(/not a memory id/),
      });
      expect((await store.findById(T, other!.id))!.isForgotten).toBe(false);
    });
  });

  describe("lists, expiry and isolation", () => {
    it("pages and sorts, filters by metadata, and never shows another tenant's or namespace's memories", async () => {
      for (let i = 0; i < 5; i++) {
        clock.advance(1000);
        await create.execute({ tenantId: T, namespace: NS, memories: [{ content: `fact number ${i}`, metadata: { n: i, team: i % 2 ? "odd" : "even" } }] });
      }
      await create.execute({ tenantId: "other-tenant", namespace: NS, memories: [{ content: "fact number 9" }] });
      await create.execute({ tenantId: T, namespace: "elsewhere", memories: [{ content: "fact number 8" }] });
      const page = await list.execute({
        tenantId: T,
        namespaces: [NS],
        page: 2,
        limit: 2,
        sort: "createdAt",
        order: "desc",
        includeHistory: false,
        includeForgotten: false,
      });
      expect(page.total).toBe(5);
      expect(page.entries.map((e) => e.memory.content)).toEqual(["fact number 2", "fact number 1"]);
      const odd = await list.execute({
        tenantId: T,
        namespaces: [NS],
        filter: { filterType: "metadata", key: "team", value: "odd", negate: false, ignoreCase: false, numericOperator: "=" },
        page: 1,
        limit: 10,
        sort: "createdAt",
        order: "asc",
        includeHistory: false,
        includeForgotten: false,
      });
      expect(odd.entries.map((e) => e.memory.content)).toEqual(["fact number 1", "fact number 3"]);
      expect((await search("fact number 9")).map((h) => h.memory.content)).not.toContain("fact number 9");
      expect((await store.search({ tenantId: T, text: "fact number 8", limit: 10, now: clock.now().toISOString() })).map((h) => h.memory.content)).toContain(
        "fact number 8",
      );
      expect(
        await store.getMany(
          "other-tenant",
          page.entries.map((e) => e.memory.id),
        ),
      ).toEqual([]);
    });

    it("hides memories past forgetAfter at once; the sweep then marks them forgotten", async () => {
      const [m] = await create.execute({
        tenantId: T,
        namespace: NS,
        memories: [{ content: "Temporary door code is 4411", forgetAfter: "2026-11-20T11:00:00Z", forgetReason: "rotates hourly" }],
      });
      const retire = new RetireMemoriesUseCase(store, clock);
      expect(await retire.expire()).toBe(0);
      expect((await search("door code")).length).toBe(1);
      clock.advance(2 * 3600_000);
      expect(await search("door code")).toEqual([]);
      expect(await retire.expire()).toBe(1);
      expect(await store.findById(T, m!.id)).toMatchObject({ isForgotten: true, forgetReason: "rotates hourly", forgottenAt: clock.now().toISOString() });
    });

    it("warms every partition from disk ahead of the first search", async () => {
      await create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Erin plays the cello" }] });
      await create.execute({ tenantId: "other-tenant", namespace: "elsewhere", memories: [{ content: "Finn plays the drums" }] });
      await store.close();
      let engine: SearchEngine | undefined;
      store = new SqliteMemoryStore(dir, { engine: (load) => (engine = new SearchEngine({ load })), vectors: false });
      expect(engine!.isLoaded(partitionKey(T, NS))).toBe(false);
      await store.warm();
      expect(engine!.isLoaded(partitionKey(T, NS))).toBe(true);
      expect(engine!.isLoaded(partitionKey("other-tenant", "elsewhere"))).toBe(true);
      expect((await search("cello")).map((h) => h.memory.content)).toEqual(["Erin plays the cello"]);
    });

    it("survives a restart: records, versions and the search index come back from disk", async () => {
      const [v1] = await create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Carol lives in Lisbon" }] });
      const v2 = await update.execute({ tenantId: T, namespace: NS, selector: { id: v1!.id }, newContent: "Carol lives in Porto" });
      await store.close();
      store = openStore(dir);
      expect((await search("where does Carol live")).map((h) => h.memory.id)).toEqual([v2.id]);
      expect((await store.chains(T, [v1!.id])).map((m) => [m.version, m.isLatest])).toEqual([
        [1, false],
        [2, true],
      ]);
    });
  });
});

describe("memory formation", () => {
  let dir: string;
  let store: SqliteMemoryStore;
  let clock: TestClock;
  let reader: MapReader;
  let events: Events;
  let extractor: LineExtractor;
  const rule = {
    fn: (..._args: Parameters<ConstructorParameters<typeof RuleRelator>[0]>): ReturnType<ConstructorParameters<typeof RuleRelator>[0]> => ({
      kind: "unrelated",
    }),
  };
  let form: FormMemoriesUseCase;

  const doc = (id: string, text: string, over: Record<string, unknown> = {}) =>
    reader.docs.set(id, {
      id,
      namespace: NS,
      chunks: [{ position: 0, content: text }],
      createdAt: "2026-11-19T09:00:00.000Z",
      generation: 1,
      metadata: { team: "core" },
      ...over,
    });
  const formDoc = (id: string, over: Partial<Parameters<FormMemoriesUseCase["execute"]>[0]> = {}) =>
    form.execute({ ref: { tenantId: T, namespace: NS, documentId: id, generation: 1 }, dreaming: "dynamic", lastAttempt: false, ...over });
  const active = async () =>
    (await store.list({ tenantId: T, namespaces: [NS], sort: "createdAt", order: "asc", offset: 0, limit: 100, now: clock.now().toISOString() })).items;

  beforeEach(() => {
    dir = tempDir();
    store = openStore(dir);
    clock = new TestClock();
    reader = new MapReader();
    events = new Events();
    extractor = new LineExtractor();
    rule.fn = () => ({ kind: "unrelated" });
    form = formationOver(store, { reader, extractor, relator: new RuleRelator((f, best) => rule.fn(f, best)), events, clock });
  });

  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("fails the document at once, without a retry, when the extractor's budget runs out", async () => {
    doc("d_big", "Sarah lives in Seattle");
    extractor.extract = async () => {
      throw new ExtractionLimitError("reading memories from the document took longer than 60 s and was stopped; split it into smaller documents");
    };
    await expect(formDoc("d_big", { lastAttempt: false })).resolves.toBe("failed");
    expect(events.failures).toEqual([
      { ref: expect.objectContaining({ documentId: "d_big" }), reason: expect.stringMatching(/^reading memories from the document took longer than 60 s/) },
    ]);
    expect(events.dones).toEqual([]);
    expect(await active()).toEqual([]);
  });

  it("applies the container tag's settings: only documents at its memory paths form memories, and its entity context joins the document's", async () => {
    const tags = new NoBuckets();
    tags.tag = { entityContext: "The user is Sarah, a product manager.", memoryFilesystemPaths: ["notes/", "README.md"] };
    form = formationOver(store, { reader, extractor, relator: new RuleRelator((f, best) => rule.fn(f, best)), events, clock, tags });
    doc("d_out", "Sarah likes jazz", { filepath: "src/index.ts" });
    doc("d_in", "Sarah likes tea", { filepath: "notes/daily.md", supportingContext: "from her journal" });
    doc("d_exact", "Sarah likes chess", { filepath: "README.md" });
    doc("d_nopath", "Sarah likes hiking");
    for (const id of ["d_out", "d_in", "d_exact", "d_nopath"]) await formDoc(id);
    expect((await active()).map((m) => m.content).sort()).toEqual(["Sarah likes chess", "Sarah likes hiking", "Sarah likes tea"]);
    // Outside the paths: done, marked formed, no memories (as superrag).
    expect(events.dones.map((r) => r.documentId).sort()).toEqual(["d_exact", "d_in", "d_nopath", "d_out"]);
    expect(await store.isFormed(T, "d_out", 1)).toBe(true);
    // The extractor saw the tag's context after the document's own, or alone.
    expect(extractor.inputs.map((x) => x.supportingContext)).toEqual([
      "from her journal\nThe user is Sarah, a product manager.",
      "The user is Sarah, a product manager.",
      "The user is Sarah, a product manager.",
    ]);
    expect(formsMemoriesAt("docs/a.md", [])).toBe(false);
    expect(formsMemoriesAt("docs/a.md", undefined)).toBe(true);
    expect(formsMemoriesAt(undefined, ["docs/"])).toBe(true);
  });

  it("writes each fact with provenance, the document's metadata and date, then reports the document done", async () => {
    doc("d_a", "static: Sarah is a product manager\nSarah visited Tokyo", { date: "2026-11-01T00:00:00.000Z", supportingContext: "about Sarah" });
    await formDoc("d_a", { title: "notes" });
    expect(extractor.inputs[0]).toMatchObject({
      referenceDate: "2026-11-01T00:00:00.000Z",
      now: "2026-11-19T09:00:00.000Z",
      supportingContext: "about Sarah",
      title: "notes",
    });
    const ms = await active();
    expect(ms.map((m) => [m.content, m.isStatic]).sort()).toEqual([
      ["Sarah is a product manager", true],
      ["Sarah visited Tokyo", false],
    ]);
    expect(ms.find((m) => m.isStatic)).toMatchObject({
      sources: [{ documentId: "d_a", chunkPositions: [0] }],
      metadata: { team: "core" },
      temporalContext: { documentDate: "2026-11-01T00:00:00.000Z" },
    });
    expect(events.dones.map((r) => r.documentId)).toEqual(["d_a"]);
    expect(await store.isFormed(T, "d_a", 1)).toBe(true);
  });

  it("gives the extractor no reference date when the document has none: its creation time only dates year-less dates (issue #30)", async () => {
    doc("d_undated", "Sarah visited Tokyo");
    await formDoc("d_undated");
    expect(extractor.inputs[0]!.referenceDate).toBeUndefined();
    expect(extractor.inputs[0]!.now).toBe("2026-11-19T09:00:00.000Z");
    expect((await active())[0]!.temporalContext).toBeUndefined();
  });

  it("dynamic: a duplicate adds a source, a changed value becomes a new version, a detail extends, an inference derives", async () => {
    doc("d_a", "Sarah lives in Seattle\nSarah has a dog", { date: "2026-10-01T00:00:00.000Z" });
    await formDoc("d_a");
    const first = await active();
    const seattle = first.find((m) => m.content === "Sarah lives in Seattle");
    const dog = first.find((m) => m.content === "Sarah has a dog");
    rule.fn = (f, best) =>
      f.content === "Sarah has a dog" && best
        ? { kind: "duplicate", targetId: best.id }
        : f.content.includes("Portland") && best
          ? { kind: "updates", targetId: best.id }
          : f.content.includes("named Rex") && best
            ? { kind: "extends", targetId: best.id }
            : f.isInference && best
              ? { kind: "derives", targetId: best.id }
              : { kind: "unrelated" };
    doc("d_b", "Sarah has a dog\nSarah lives in Portland\nSarah has a dog named Rex\ninfer: Sarah owns a pet", { date: "2026-11-19T00:00:00.000Z" });
    await formDoc("d_b");
    const now = await active();
    const byContent = new Map(now.map((m) => [m.content, m]));
    expect(byContent.get("Sarah has a dog")).toMatchObject({ id: dog!.id, sources: [{ documentId: "d_a" }, { documentId: "d_b" }] });
    expect(byContent.has("Sarah lives in Seattle")).toBe(false);
    expect(byContent.get("Sarah lives in Portland")).toMatchObject({ version: 2, parentMemoryId: seattle!.id, relation: "updates" });
    // The new version is dated by its own document, not the one it replaces.
    expect(byContent.get("Sarah lives in Portland")!.temporalContext).toEqual({ documentDate: "2026-11-19T00:00:00.000Z" });
    const rex = byContent.get("Sarah has a dog named Rex")!;
    expect(Object.values(rex.relations)).toEqual(["extends"]);
    const pet = byContent.get("Sarah owns a pet")!;
    expect(Object.values(pet.relations)).toEqual(["derives"]);
    expect(pet.isInference).toBe(true);
  });

  it("instant: each document on its own, no lookups across the container", async () => {
    doc("d_a", "Sarah lives in Seattle");
    doc("d_b", "Sarah lives in Seattle");
    await formDoc("d_a", { dreaming: "instant" });
    await formDoc("d_b", { dreaming: "instant" });
    expect((await active()).map((m) => m.sources[0]!.documentId).sort()).toEqual(["d_a", "d_b"]);
  });

  it("is idempotent: a redelivered event writes nothing new and reports done again", async () => {
    doc("d_a", "Sarah lives in Seattle\nSarah has a dog");
    await formDoc("d_a");
    await formDoc("d_a");
    expect(await active()).toHaveLength(2);
    expect(events.dones).toHaveLength(2);
    expect(extractor.inputs).toHaveLength(1);
  });

  it("retries on failure and fails the document on the last attempt (never left in a non-final state)", async () => {
    doc("d_a", "x");
    reader.fail = new Error("ingestion unavailable");
    await expect(formDoc("d_a")).rejects.toThrow("ingestion unavailable");
    expect(events.failures).toEqual([]);
    await formDoc("d_a", { lastAttempt: true });
    expect(events.failures[0]!.reason).toMatch(/memory formation failed after retries: ingestion unavailable/);
  });

  it("skips a deleted document and a stale generation", async () => {
    await formDoc("d_gone");
    doc("d_new", "a fact", { generation: 3 });
    await formDoc("d_new");
    expect(await active()).toEqual([]);
    expect(events.dones).toEqual([]);
  });

  it("retires memories whose only source is deleted; shared ones keep the other source", async () => {
    doc("d_a", "Sarah lives in Seattle\nSarah has a dog");
    await formDoc("d_a");
    rule.fn = (f, best) => (best && f.content === best.content ? { kind: "duplicate", targetId: best.id } : { kind: "unrelated" });
    doc("d_b", "Sarah has a dog");
    await formDoc("d_b");
    const retire = new RetireMemoriesUseCase(store, clock);
    expect(await retire.documentDeleted({ tenantId: T, documentId: "d_a", generation: 1 })).toBe(1);
    const left = await active();
    expect(left.map((m) => [m.content, m.sources.map((s) => s.documentId)])).toEqual([["Sarah has a dog", ["d_b"]]]);
    const all = await store.list({
      tenantId: T,
      namespaces: [NS],
      includeForgotten: true,
      sort: "createdAt",
      order: "asc",
      offset: 0,
      limit: 10,
      now: clock.now().toISOString(),
    });
    expect(all.items.find((m) => m.content === "Sarah lives in Seattle")).toMatchObject({ isForgotten: true, forgetReason: "source document d_a was deleted" });
  });
});

describe("forgetTopic", () => {
  it.each([
    ["forget everything about Project Titan", "Project Titan"],
    ["Please forget all memories about the promotion.", "promotion"],
    ["delete anything related to my old address", "old address"],
    ["Project Titan", "Project Titan"],
    ["forget", "forget"],
  ])("%s -> %s", (q, topic) => expect(forgetTopic(q)).toBe(topic));
});

describe("userNameOf", () => {
  const m = (content: string, updatedAt: string) => ({ content, updatedAt }) as Parameters<typeof userNameOf>[0][number];
  it("reads the user's name from memories stating it, the latest statement first", () => {
    expect(userNameOf([m("The user's name is Dana.", "2026-01-01"), m("Dana lives in Lisbon.", "2026-02-01")])).toBe("Dana");
    expect(userNameOf([m("The user's name is Dana.", "2026-01-01"), m("The user is called Dana Silva", "2026-03-01")])).toBe("Dana Silva");
    expect(userNameOf([m("The user's name is unknown to me", "2026-01-01")])).toBeUndefined();
  });
});
