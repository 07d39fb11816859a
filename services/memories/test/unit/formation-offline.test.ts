import fs from "node:fs";
import { OfflineFactExtractor, OfflineMemoryRelator } from "@engram/nlp";
import type { SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import type { FormMemoriesUseCase } from "../../src/app/form-memories.usecase";
import { allVersions, Events, formationOver, MapReader, openStore, tempDir, TestClock } from "./helpers";

const T = "acme";
const NS = "notes";

/** Memory formation with the offline extractor and relator (the default), on notes rather than a chat transcript. */
describe("memory formation from prose notes (offline extractor and relator)", () => {
  let dir: string;
  let store: SqliteMemoryStore;
  let reader: MapReader;
  let form: FormMemoriesUseCase;
  const clock = new TestClock();

  beforeEach(() => {
    dir = tempDir();
    store = openStore(dir);
    reader = new MapReader();
    form = formationOver(store, { reader, extractor: new OfflineFactExtractor(), relator: new OfflineMemoryRelator(), events: new Events(), clock });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const add = async (id: string, text: string, date: string) => {
    reader.docs.set(id, { id, namespace: NS, chunks: [{ position: 0, content: text }], createdAt: date, date, generation: 1 });
    await form.execute({ ref: { tenantId: T, namespace: NS, documentId: id, generation: 1 }, dreaming: "dynamic", lastAttempt: true });
  };
  const all = () => allVersions(store, T, NS, clock);

  it("keeps every fact of call notes, resolves the pronoun and the month, and a later correction updates the move", async () => {
    await add(
      "d_call",
      "Call notes, 3 May 2025. Tomasz Weber said he is moving from Gdansk to Leipzig in August to join a robotics start-up. He prefers meetings before 10am.",
      "2025-05-03T00:00:00.000Z",
    );
    const first = await all();
    const contents = first.map((m) => m.content);
    expect(contents).toContain("Tomasz Weber is moving from Gdansk to Leipzig in August 2025 to join a robotics start-up.");
    expect(contents).toContain("Tomasz Weber prefers meetings before 10am.");

    await add("d_update", "Update, 2 September 2025: Tomasz Weber has moved to Dresden, not Leipzig; the start-up relocated.", "2025-09-02T00:00:00.000Z");
    const after = await all();
    const dresden = after.find((m) => m.content.startsWith("Tomasz Weber has moved to Dresden"))!;
    const leipzig = after.find((m) => m.content.includes("to Leipzig in August 2025"))!;
    expect(dresden).toMatchObject({ isLatest: true, version: 2, parentMemoryId: leipzig.id });
    expect(leipzig.isLatest).toBe(false);
  });

  it("resolves relative dates against the date a note states, not the time it was added; the caller's date still wins (issue #30)", async () => {
    const standup = "# Standup 3 Nov\n\nDana will ship the mobile release on Friday. Omar is on holiday next week.";
    const addUndated = async (id: string, text: string, date?: string) => {
      // Added on Sunday 29 November 2026.
      reader.docs.set(id, { id, namespace: NS, chunks: [{ position: 0, content: text }], createdAt: "2026-11-29T10:00:00.000Z", date, generation: 1 });
      await form.execute({ ref: { tenantId: T, namespace: NS, documentId: id, generation: 1 }, dreaming: "instant", lastAttempt: true });
    };
    /** A document's memories, as [content, temporalContext], by content. */
    const of = async (id: string) =>
      (await all())
        .filter((m) => m.sources.some((x) => x.documentId === id))
        .map((m) => [m.content, m.temporalContext])
        .sort();

    await addUndated("d_standup", standup);
    expect(await of("d_standup")).toEqual([
      ["Dana will ship the mobile release on 2026-11-06.", { eventDates: ["2026-11-06"] }],
      ["Omar is on holiday in the week of 2026-11-09.", { eventDates: ["2026-11-09"] }],
    ]);

    // No date anywhere: the relative dates stay as written.
    await addUndated("d_plain", "Priya will send the contract on Friday. Lena is in Lisbon next week.");
    expect(await of("d_plain")).toEqual([
      ["Lena is in Lisbon next week.", undefined],
      ["Priya will send the contract on Friday.", undefined],
    ]);

    // The caller's date (Wednesday 18 November 2026) wins over the title's.
    await addUndated("d_dated", standup.replace("Dana", "Dan").replace("Omar", "Olga"), "2026-11-18T09:00:00.000Z");
    expect(await of("d_dated")).toEqual([
      ["Dan will ship the mobile release on 2026-11-20.", { documentDate: "2026-11-18T09:00:00.000Z", eventDates: ["2026-11-20"] }],
      ["Olga is on holiday in the week of 2026-11-23.", { documentDate: "2026-11-18T09:00:00.000Z", eventDates: ["2026-11-23"] }],
    ]);
  });
});
