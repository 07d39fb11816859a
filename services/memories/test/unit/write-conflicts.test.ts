import fs from "node:fs";
import { type DeliveredMessage, eventMessage } from "@engram/bus";
import { ConflictError } from "@engram/kernel";
import type { SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import { CreateMemoriesUseCase } from "../../src/app/create-memories.usecase";
import { memoryEventsHandler } from "../../src/app/memory-events.consumer";
import { MemoryWriter } from "../../src/app/memory-writer";
import type { MemoryRepository, MemoryWrite } from "../../src/app/ports";
import { RetireMemoriesUseCase, TOMBSTONE_RETENTION_MS } from "../../src/app/retire-memories.usecase";
import { UpdateMemoryUseCase } from "../../src/app/update-memory.usecase";
import { RETRY, retryOnConflict, WRITE_ATTEMPTS } from "../../src/app/write-conflicts";
import { addSources, changedAt, forgetMemory, nextVersion } from "../../src/domain/memory";
import { HashingEmbedder } from "@engram/index";
import {
  Events,
  formationOver,
  LineExtractor,
  logger,
  MapReader,
  mutex,
  NoBuckets,
  openStore,
  RuleRelator,
  tempDir,
  TestClock,
  WordClassifier,
} from "./helpers";
import { memory } from "../contract/memory-repository.contract";

const T = "acme";
const NS = "user_1";

describe("updatedAt, the version the stores compare", () => {
  it("moves forward on every change, also when the clock has not (one millisecond, or a clock behind another replica's)", () => {
    expect(changedAt("2026-11-20T10:00:00.000Z", "2026-11-20T10:00:05.000Z")).toBe("2026-11-20T10:00:05.000Z");
    expect(changedAt("2026-11-20T10:00:00.000Z", "2026-11-20T10:00:00.000Z")).toBe("2026-11-20T10:00:00.001Z");
    expect(changedAt("2026-11-20T10:00:00.000Z", "2026-11-20T09:59:00.000Z")).toBe("2026-11-20T10:00:00.001Z");
    const m = memory({ content: "Rae knits", createdAt: "2026-11-20T10:00:00.000Z", updatedAt: "2026-11-20T10:00:00.000Z" });
    const now = m.updatedAt;
    expect(addSources(m, [{ documentId: "d1", chunkPositions: [] }], now).updatedAt > m.updatedAt).toBe(true);
    expect(forgetMemory(m, now).updatedAt > m.updatedAt).toBe(true);
    expect(nextVersion(m, { content: "Rae crochets" }, "m_next", now).previous.updatedAt > m.updatedAt).toBe(true);
  });
});

describe("retryOnConflict", () => {
  it("decides again on a conflict, then gives up with a ConflictError the caller may retry", async () => {
    let calls = 0;
    await expect(retryOnConflict("op", async () => (++calls < 3 ? RETRY : "done"))).resolves.toBe("done");
    expect(calls).toBe(3);
    calls = 0;
    const failing = retryOnConflict("update memory", async () => {
      calls++;
      return RETRY;
    });
    await expect(failing).rejects.toBeInstanceOf(ConflictError);
    await expect(failing).rejects.toThrow(/update memory: the memories involved kept changing concurrently \(5 attempts\)/);
    expect(calls).toBe(WRITE_ATTEMPTS);
  });
});

describe("memories use cases against a store that keeps conflicting", () => {
  let dir: string;
  let store: SqliteMemoryStore;
  let writes: MemoryWrite[];
  let conflicting: boolean;
  let repo: MemoryRepository;
  const clock = new TestClock();

  beforeEach(() => {
    dir = tempDir();
    store = openStore(dir);
    writes = [];
    conflicting = false;
    // Another replica wins every write while `conflicting` is on.
    repo = new Proxy(store, {
      get(target, prop) {
        if (prop === "write") return async (w: MemoryWrite) => (conflicting ? (writes.push(w), "conflict") : target.write(w));
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("reads again and decides again a bounded number of times, writing nothing, then answers with a conflict (409)", async () => {
    const writer = new MemoryWriter(repo, new HashingEmbedder(64));
    const create = new CreateMemoriesUseCase({ repo, writer, classifier: new WordClassifier(), buckets: new NoBuckets(), clock, lock: mutex() });
    const update = new UpdateMemoryUseCase({ repo, writer, clock, lock: mutex() });
    const [m] = await create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Sol paints" }] });
    conflicting = true;
    await expect(update.execute({ tenantId: T, namespace: NS, selector: { id: m!.id }, newContent: "Sol sculpts" })).rejects.toThrow(ConflictError);
    expect(writes).toHaveLength(WRITE_ATTEMPTS);
    await expect(create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Sol sings" }] })).rejects.toThrow(/send the request again|kept changing/);
    const retire = new RetireMemoriesUseCase(repo, clock);
    await expect(retire.documentDeleted({ tenantId: T, documentId: "d1", generation: 1 })).rejects.toBeInstanceOf(ConflictError);
    conflicting = false;
    expect((await store.findById(T, m!.id))!.isLatest).toBe(true);
    expect(await store.findByContentKey(T, NS, "sol sings")).toEqual([]);
  });
});

describe("DocumentDeleted and tombstones", () => {
  let dir: string;
  let store: SqliteMemoryStore;
  let reader: MapReader;
  let events: Events;
  const clock = new TestClock();

  beforeEach(() => {
    dir = tempDir();
    store = openStore(dir);
    reader = new MapReader();
    events = new Events();
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const deleted = (documentId: string, generation: number, withdrawn = false): DeliveredMessage => ({
    ...eventMessage("DocumentDeleted", documentId, { document: { tenantId: T, namespace: NS, documentId, generation }, withdrawn }),
    partition: 0,
    offset: 0,
    attempt: 1,
  });

  it("a delete without a generation (an older event) covers every generation; a withdrawal without one covers none", async () => {
    const form = formationOver(store, { reader, extractor: new LineExtractor(), relator: new RuleRelator(() => ({ kind: "unrelated" })), events, clock });
    const retire = new RetireMemoriesUseCase(store, clock);
    const handle = memoryEventsHandler({ form, retire, maxAttempts: 3, logger });
    await handle(deleted("d_old", 0));
    await handle(deleted("d_failed", 0, true));
    const source = (documentId: string) => ({ tenantId: T, documentId, generation: 7 });
    expect(await store.write({ records: [], source: source("d_old") })).toBe("source-deleted");
    expect(await store.write({ records: [], source: source("d_failed") })).toBe("written");
  });

  it("a formation stopped by a tombstone reports the document neither done nor failed", async () => {
    const form = formationOver(store, { reader, extractor: new LineExtractor(), relator: new RuleRelator(() => ({ kind: "unrelated" })), events, clock });
    reader.docs.set("d_a", { id: "d_a", namespace: NS, chunks: [{ position: 0, content: "Tia rides" }], createdAt: clock.now().toISOString(), generation: 2 });
    // Deleted (ingestion's record is gone for a later read) at generation 2 while the reader still answered.
    await new RetireMemoriesUseCase(store, clock).documentDeleted({ tenantId: T, documentId: "d_a", generation: 2 });
    const outcome = await form.execute({ ref: { tenantId: T, namespace: NS, documentId: "d_a", generation: 2 }, dreaming: "dynamic", lastAttempt: true });
    expect(outcome).toBe("document-deleted");
    expect(events.dones).toEqual([]);
    expect(events.failures).toEqual([]);
    expect(await store.findByDocument(T, "d_a")).toEqual([]);
  });

  it("prunes tombstones once they are older than the retention", async () => {
    const at = new TestClock();
    const retire = new RetireMemoriesUseCase(store, at);
    await retire.documentDeleted({ tenantId: T, documentId: "d_a", generation: 1 });
    at.advance(TOMBSTONE_RETENTION_MS - 1);
    expect(await retire.pruneTombstones()).toBe(0);
    at.advance(2);
    expect(await retire.pruneTombstones()).toBe(1);
  });
});
