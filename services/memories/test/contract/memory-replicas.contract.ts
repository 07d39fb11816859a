import { type DeliveredMessage, eventMessage } from "@engram/bus";
import type { Embedder } from "@engram/index";
import { ConflictError } from "@engram/kernel";
import type { MemoryRecord } from "@engram/memory-model";
import { CreateMemoriesUseCase } from "../../src/app/create-memories.usecase";
import { FormMemoriesUseCase } from "../../src/app/form-memories.usecase";
import { KeyedMutex } from "../../src/app/keyed-mutex";
import { memoryEventsHandler } from "../../src/app/memory-events.consumer";
import { MemoryWriter } from "../../src/app/memory-writer";
import type { MemoryRepository, MemoryWrite } from "../../src/app/ports";
import { RetireMemoriesUseCase } from "../../src/app/retire-memories.usecase";
import { UpdateMemoryUseCase } from "../../src/app/update-memory.usecase";
import { Events, LineExtractor, logger, MapReader, NoBuckets, RuleRelator, TestClock, WordClassifier } from "../unit/helpers";
import { Pausable } from "./pausable";

/** A fresh, empty store shared by the replicas of one test, and the embedder their writers use. */
export interface ReplicaStoreHarness {
  repo: MemoryRepository;
  embedder: Embedder;
  cleanup(): Promise<void>;
}

const T = "acme";
const NS = "user_1";

/**
 * Issue #31: two replicas of the memories service on one store. Each replica
 * here is its own set of use cases (its own KeyedMutex, writer, formation
 * events and bus handler) over its own view of the one store; a test holds
 * replica A's write after A read what it decides on, lets replica B act, then
 * releases A. The store's conditional writes must keep the state whole: one
 * active memory per fact, one latest version per chain, no memory citing a
 * deleted document. The clock is shared and does not move, as two replicas'
 * clocks may agree to the millisecond.
 */
export function memoryReplicasContract(name: string, make: () => Promise<ReplicaStoreHarness>): void {
  describe(`two memories replicas on one store: ${name}`, () => {
    let h: ReplicaStoreHarness;
    let clock: TestClock;
    let reader: MapReader;

    beforeEach(async () => {
      h = await make();
      clock = new TestClock();
      reader = new MapReader();
    });
    afterEach(async () => {
      await h.cleanup();
    });

    function replica() {
      const view = new Pausable(h.repo);
      const repo = view.repo;
      const lock = new KeyedMutex();
      const writer = new MemoryWriter(repo, h.embedder);
      const buckets = new NoBuckets();
      const events = new Events();
      const form = new FormMemoriesUseCase({
        repo,
        writer,
        reader,
        extractor: new LineExtractor(),
        // Only exact content deduplicates (findByContentKey); everything else is a new fact.
        relator: new RuleRelator(() => ({ kind: "unrelated" })),
        buckets,
        tags: buckets,
        events,
        clock,
        lock,
        logger,
      });
      const retire = new RetireMemoriesUseCase(repo, clock);
      return {
        view,
        events,
        form,
        retire,
        /** This replica's bus consumer (group `memories`). */
        handle: memoryEventsHandler({ form, retire, maxAttempts: 5, logger }),
        create: new CreateMemoriesUseCase({ repo, writer, classifier: new WordClassifier(), buckets, clock, lock }),
        update: new UpdateMemoryUseCase({ repo, writer, clock, lock }),
      };
    }

    const doc = (id: string, text: string, generation = 1) =>
      reader.docs.set(id, { id, namespace: NS, chunks: [{ position: 0, content: text }], createdAt: "2026-11-19T09:00:00.000Z", generation });
    const formDoc = (r: ReturnType<typeof replica>, documentId: string, generation = 1) =>
      r.form.execute({ ref: { tenantId: T, namespace: NS, documentId, generation }, dreaming: "dynamic", lastAttempt: false });
    const deleted = (documentId: string, generation = 1, withdrawn = false): DeliveredMessage => ({
      ...eventMessage("DocumentDeleted", documentId, { document: { tenantId: T, namespace: NS, documentId, generation }, withdrawn }),
      partition: 0,
      offset: 0,
      attempt: 1,
    });
    const now = () => clock.now().toISOString();
    const everything = async () =>
      (
        await h.repo.list({
          tenantId: T,
          namespaces: [NS],
          allVersions: true,
          includeForgotten: true,
          sort: "createdAt",
          order: "asc",
          offset: 0,
          limit: 100,
          now: now(),
        })
      ).items;
    const active = async () => (await h.repo.list({ tenantId: T, namespaces: [NS], sort: "createdAt", order: "asc", offset: 0, limit: 100, now: now() })).items;
    const latestOf = async (m: MemoryRecord) => (await h.repo.chains(T, [m.rootMemoryId ?? m.id])).filter((v) => v.isLatest);
    const withRecords = (w: MemoryWrite) => w.records.length > 0;

    it("(a) two formations of the same fact: one active memory, with both documents as its sources", async () => {
      const [a, b] = [replica(), replica()];
      doc("d_a", "Sarah lives in Seattle");
      doc("d_b", "Sarah lives in Seattle");
      // A looked the fact up and found nothing; before it writes, B forms the same fact from its document.
      const hold = a.view.holdBefore("write", withRecords);
      const formingA = formDoc(a, "d_a");
      await hold.reached;
      await formDoc(b, "d_b");
      hold.release();
      await formingA;
      const facts = (await active()).filter((m) => m.content === "Sarah lives in Seattle");
      expect(facts).toHaveLength(1);
      expect(facts[0]!.sources.map((s) => s.documentId).sort()).toEqual(["d_a", "d_b"]);
      expect([...a.events.dones, ...b.events.dones].map((r) => r.documentId).sort()).toEqual(["d_a", "d_b"]);
    });

    it("(a') two creations of the same memory: one memory, both calls answer with it", async () => {
      const [a, b] = [replica(), replica()];
      const hold = a.view.holdBefore("write");
      const creatingA = a.create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Dana prefers aisle seats" }] });
      await hold.reached;
      const [fromB] = await b.create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Dana prefers aisle seats" }] });
      hold.release();
      const [fromA] = await creatingA;
      expect(await active()).toHaveLength(1);
      expect(fromA!.id).toBe(fromB!.id);
    });

    it("(b) update against update of one memory: one wins, the other fails with a conflict; never two latest versions", async () => {
      const [a, b] = [replica(), replica()];
      const [m] = await a.create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Sarah works at Acme" }] });
      const hold = a.view.holdBefore("write");
      const updatingA = a.update.execute({ tenantId: T, namespace: NS, selector: { id: m!.id }, newContent: "Sarah works at Globex" });
      await hold.reached;
      const fromB = await b.update.execute({ tenantId: T, namespace: NS, selector: { id: m!.id }, newContent: "Sarah works at Initech" });
      hold.release();
      await expect(updatingA).rejects.toBeInstanceOf(ConflictError);
      const latest = await latestOf(m!);
      expect(latest.map((v) => [v.id, v.content])).toEqual([[fromB.id, "Sarah works at Initech"]]);
      expect((await active()).map((x) => x.content)).toEqual(["Sarah works at Initech"]);
    });

    it("(b') update against a source added by a formation: the update re-reads and applies on the newer version, keeping the source", async () => {
      const [a, b] = [replica(), replica()];
      const [m] = await a.create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Sarah lives in Seattle" }] });
      doc("d_b", "Sarah lives in Seattle");
      const hold = a.view.holdBefore("write");
      const updatingA = a.update.execute({ tenantId: T, namespace: NS, selector: { id: m!.id }, newContent: "Sarah lives in Portland" });
      await hold.reached;
      await formDoc(b, "d_b");
      hold.release();
      const next = await updatingA;
      expect(next).toMatchObject({ content: "Sarah lives in Portland", version: 2, parentMemoryId: m!.id });
      expect(next.sources.map((s) => s.documentId)).toEqual(["d_b"]);
      expect((await latestOf(m!)).map((v) => v.id)).toEqual([next.id]);
      expect((await h.repo.findById(T, m!.id))!.sources.map((s) => s.documentId)).toEqual(["d_b"]);
    });

    it("(c) a delete while a formation extracts: the formation writes nothing, no memory cites the document", async () => {
      const [a, b] = [replica(), replica()];
      doc("d_a", "Sarah lives in Seattle\nSarah has a dog");
      // A read the document (it existed) and extracted its facts; before A writes, the document is deleted and B retires it.
      const hold = a.view.holdBefore("write", withRecords);
      const formingA = formDoc(a, "d_a");
      await hold.reached;
      reader.docs.delete("d_a");
      await b.handle(deleted("d_a"));
      hold.release();
      await formingA;
      expect(await h.repo.findByDocument(T, "d_a")).toEqual([]);
      expect(await active()).toEqual([]);
      expect(a.events.dones).toEqual([]);
      expect(a.events.failures).toEqual([]);
    });

    it("(c') a delete while a formation decides again (the namespace changed under it): the document's one write is refused, nothing cites it", async () => {
      const [a, b] = [replica(), replica()];
      doc("d_a", "Sarah lives in Seattle\nSarah has a dog");
      // A decided both facts; before its write, B writes a memory of the namespace (A must decide again) and retires d_a.
      const hold = a.view.holdBefore("write", withRecords);
      const formingA = formDoc(a, "d_a");
      await hold.reached;
      await b.create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Sarah has a cat" }] });
      reader.docs.delete("d_a");
      await b.handle(deleted("d_a"));
      hold.release();
      await formingA;
      expect(await h.repo.findByDocument(T, "d_a")).toEqual([]);
      expect((await everything()).map((m) => m.content)).toEqual(["Sarah has a cat"]);
      expect(a.events.dones).toEqual([]);
      expect(a.events.failures).toEqual([]);
    });

    it("(c'') a formation writing after the retire read the document's memories: the retire re-reads and drops it too", async () => {
      const [a, b] = [replica(), replica()];
      doc("d_a", "Sarah lives in Seattle");
      await formDoc(a, "d_a");
      // New content of the document (generation 2) is being formed while the document is deleted: B's retire read
      // the document's memories (generation 1's) and is about to write; A's formation of generation 2 writes meanwhile.
      doc("d_a", "Sarah lives in Seattle\nSarah has a dog", 2);
      const hold = b.view.holdBefore("write");
      const retiringB = b.handle(deleted("d_a", 2));
      await hold.reached;
      await formDoc(a, "d_a", 2);
      hold.release();
      await retiringB;
      expect(await h.repo.findByDocument(T, "d_a")).toEqual([]);
      expect(await active()).toEqual([]);
    });

    it("a document withdrawn at one generation forms memories again at the next", async () => {
      const [a, b] = [replica(), replica()];
      doc("d_a", "Sarah lives in Seattle");
      await formDoc(a, "d_a");
      await b.handle(deleted("d_a", 1, true));
      expect(await active()).toEqual([]);
      doc("d_a", "Sarah lives in Lisbon", 2);
      await formDoc(b, "d_a", 2);
      expect((await active()).map((m) => [m.content, m.sources.map((s) => s.documentId)])).toEqual([["Sarah lives in Lisbon", ["d_a"]]]);
      expect(b.events.dones.map((r) => r.generation)).toEqual([2]);
    });

    it("(d) the expiry sweep against an update: the superseded version is never made latest again", async () => {
      const [a, b] = [replica(), replica()];
      const past = new Date(clock.t - 3_600_000).toISOString();
      const future = new Date(clock.t + 86_400_000).toISOString();
      const [m] = await a.create.execute({ tenantId: T, namespace: NS, memories: [{ content: "Sarah is in Paris this week", forgetAfter: past }] });
      // A's sweep found the memory expired; before it forgets it, B renews it with a new version.
      const hold = a.view.holdBefore("write");
      const sweeping = a.retire.expire();
      await hold.reached;
      const renewed = await b.update.execute({
        tenantId: T,
        namespace: NS,
        selector: { id: m!.id },
        newContent: "Sarah is in Paris until next week",
        forgetAfter: { value: future },
      });
      hold.release();
      await sweeping;
      expect((await latestOf(m!)).map((v) => [v.id, v.isForgotten])).toEqual([[renewed.id, false]]);
      expect((await h.repo.findById(T, m!.id))!.isLatest).toBe(false);
      expect((await active()).map((x) => x.id)).toEqual([renewed.id]);
    });
  });
}
