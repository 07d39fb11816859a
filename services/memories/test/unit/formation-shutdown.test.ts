import fs from "node:fs";
import type { ExtractedFact, ExtractionInput, FactExtractor } from "@engram/nlp";
import type { SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import { allVersions, Events, formationOver, LineExtractor, MapReader, openStore, RuleRelator, tempDir, TestClock } from "./helpers";

const T = "acme";
const NS = "notes";
const FACTS = ["Ada lives in Lyon.", "Ada works as a pilot.", "Ada owns a grey cat.", "Ada speaks Finnish.", "Ada plays the cello."];

/** Memory formation stopped by the shutdown (the event's signal aborts): nothing half-applied, and the redelivery completes it. */
describe("memory formation stopped by the shutdown", () => {
  let dir: string;
  let store: SqliteMemoryStore;
  let reader: MapReader;
  let events: Events;
  const clock = new TestClock();
  const ref = { tenantId: T, namespace: NS, documentId: "d_big", generation: 1 };

  beforeEach(() => {
    dir = tempDir();
    store = openStore(dir);
    reader = new MapReader();
    events = new Events();
    reader.docs.set("d_big", {
      id: "d_big",
      namespace: NS,
      chunks: [{ position: 0, content: FACTS.join("\n") }],
      createdAt: clock.now().toISOString(),
      generation: 1,
    });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const memories = async () => (await allVersions(store, T, NS, clock)).map((m) => m.content);

  it("mid-extraction, even on the last attempt: rejects with the abort, writes nothing, reports neither done nor failed", async () => {
    let started = false;
    /** Runs until the signal aborts it, as a terminated extraction thread does. */
    const extractor: FactExtractor = {
      id: "stoppable",
      extract: (_input: ExtractionInput, signal?: AbortSignal) => {
        started = true;
        return new Promise<ExtractedFact[]>((_, reject) => signal!.addEventListener("abort", () => reject(signal!.reason), { once: true }));
      },
    };
    const form = formationOver(store, { reader, extractor, relator: new RuleRelator(() => ({ kind: "unrelated" })), events, clock });
    const stop = new AbortController();
    const running = form.execute({ ref, dreaming: "dynamic", lastAttempt: true, signal: stop.signal });
    while (!started) await new Promise((r) => setImmediate(r));
    const reason = new Error("the process is stopping");
    stop.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(await memories()).toEqual([]);
    expect(await store.isFormed(T, "d_big", 1)).toBe(false);
    expect(events).toMatchObject({ dones: [], failures: [] });
  });

  it("between relation decisions: nothing is written, the document is not marked formed; the redelivered event writes every fact once and reports done", async () => {
    const stop = new AbortController();
    let related = 0;
    // The shutdown arrives while the second fact is being related: the document's one write never starts.
    const relator = new RuleRelator(() => {
      if (++related === 2) stop.abort(new Error("the process is stopping"));
      return { kind: "unrelated" };
    });
    const form = formationOver(store, { reader, extractor: new LineExtractor(), relator, events, clock });
    await expect(form.execute({ ref, dreaming: "dynamic", lastAttempt: true, signal: stop.signal })).rejects.toThrow("the process is stopping");
    expect(await memories()).toEqual([]);
    expect(await store.isFormed(T, "d_big", 1)).toBe(false);
    expect(events).toMatchObject({ dones: [], failures: [] });

    // Redelivered after the restart: formation runs again and completes, each fact once.
    await expect(form.execute({ ref, dreaming: "dynamic", lastAttempt: false, signal: new AbortController().signal })).resolves.toBe("formed");
    // The test clock stands still, so createdAt ties: compare as sets, not in listing order.
    expect((await memories()).sort()).toEqual([...FACTS].sort());
    expect(await store.isFormed(T, "d_big", 1)).toBe(true);
    expect(events.dones).toHaveLength(1);
    expect(events.failures).toEqual([]);
  });
});
