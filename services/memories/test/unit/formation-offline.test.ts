import fs from "node:fs";
import { OfflineFactExtractor, OfflineMemoryRelator } from "@engram/nlp";
import type { SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import type { FormMemoriesUseCase } from "../../src/app/form-memories.usecase";
import { Events, formationOver, MapReader, openStore, tempDir, TestClock } from "./helpers";

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
  const all = async () =>
    (
      await store.list({
        tenantId: T,
        namespaces: [NS],
        sort: "createdAt",
        order: "asc",
        offset: 0,
        limit: 100,
        now: clock.now().toISOString(),
        allVersions: true,
      })
    ).items;

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
});
