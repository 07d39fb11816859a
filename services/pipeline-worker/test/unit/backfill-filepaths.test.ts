import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { HashingEmbedder, type IndexedChunk, SqliteChunkIndex } from "@engram/index";
import { rootLogger } from "@engram/observability";
import { BackfillFilepathsUseCase } from "../../src/app/backfill-filepaths.usecase";

const embedder = new HashingEmbedder(16);

function chunk(documentId: string, position: number, filepath?: string): IndexedChunk {
  const content = `${documentId} part ${position} about herons`;
  return {
    id: `c_${documentId}_${position}`,
    tenantId: "t",
    namespace: "ns",
    documentId,
    position,
    content,
    startOffset: 0,
    endOffset: content.length,
    tokenCount: 5,
    vector: embedder.embedOne(content),
    document: { createdAt: "2024-01-01T00:00:00.000Z", updatedAt: "2024-01-01T00:00:00.000Z", ...(filepath ? { filepath } : {}) },
    createdAt: "2024-01-01T00:00:00.000Z",
  };
}

describe("BackfillFilepathsUseCase over the embedded index", () => {
  let dir = "";
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-backfill-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("fills in the filepath of chunks of an earlier release from ingestion, then searches filter them in the index", async () => {
    let index = new SqliteChunkIndex(dir);
    for (let d = 0; d < 150; d++) await index.replaceDocumentChunks("t", "ns", `d${d}`, [chunk(`d${d}`, 0, `x/${d}.md`), chunk(`d${d}`, 1, `x/${d}.md`)], 1);
    await index.close();
    // As an upgrade finds the file: rows without a filepath.
    const db = new Database(path.join(dir, "index.db"));
    db.prepare("UPDATE chunks SET filepath = NULL").run();
    db.close();
    index = new SqliteChunkIndex(dir);
    const asked: string[] = [];
    const documents = {
      filepath: async (_t: string, documentId: string) => {
        asked.push(documentId);
        // d0 is gone from ingestion; d1 has no filepath; the others live under docs/.
        if (documentId === "d0") return { found: false };
        return documentId === "d1" ? { found: true } : { found: true, filepath: `docs/${documentId}.md` };
      },
    };
    const uc = new BackfillFilepathsUseCase({ index, documents, logger: rootLogger({ level: "silent" }) });
    expect(await uc.execute()).toBe(150);
    // Each document once, over two rounds of the index's listing.
    expect(asked).toHaveLength(150);
    expect(new Set(asked).size).toBe(150);
    expect(await index.documentsWithoutFilepath(10)).toEqual([]);
    const hits = await index.search({ tenantId: "t", text: "herons", vector: embedder.embedOne("herons"), limit: 400, filepath: "docs/" });
    expect(hits).toHaveLength(2 * 148);
    expect(hits.every((h) => h.chunk.document.filepath === `docs/${h.chunk.documentId}.md`)).toBe(true);
    expect((await index.listDocumentChunks("t", "ns", "d1"))[0]!.document).not.toHaveProperty("filepath");
    // Nothing left: a second start asks nothing.
    expect(await uc.execute()).toBe(0);
    expect(asked).toHaveLength(150);
    await index.close();
  });

  it("keepTrying runs it again after a failure (ingestion unreachable) until it completes, and stops when aborted", async () => {
    const filled: string[] = [];
    let pending = [{ tenantId: "t", documentId: "d" }];
    const index = {
      documentsWithoutFilepath: async () => pending,
      backfillFilepath: async (_t: string, documentId: string, filepath: string | undefined) => {
        filled.push(`${documentId}:${filepath}`);
        pending = [];
        return 1;
      },
    };
    let calls = 0;
    const documents = {
      filepath: async () => {
        if (++calls < 3) throw new Error("ingestion unavailable");
        return { found: true, filepath: "a.md" };
      },
    };
    await new BackfillFilepathsUseCase({ index, documents, logger: rootLogger({ level: "silent" }) }).keepTrying(new AbortController().signal, 1);
    expect(calls).toBe(3);
    expect(filled).toEqual(["d:a.md"]);
    // Stopped while waiting to try again: it resolves without another attempt.
    const stop = new AbortController();
    const failing = { filepath: async () => Promise.reject(new Error("down")) };
    pending = [{ tenantId: "t", documentId: "e" }];
    const running = new BackfillFilepathsUseCase({ index, documents: failing, logger: rootLogger({ level: "silent" }) }).keepTrying(stop.signal, 60_000);
    stop.abort();
    await running;
    expect(filled).toEqual(["d:a.md"]);
  });

  it("stops after a round that changed nothing, and between documents when stopped", async () => {
    const stuck = {
      documentsWithoutFilepath: async () => [{ tenantId: "t", documentId: "d" }],
      backfillFilepath: async () => 0,
    };
    const documents = { filepath: async () => ({ found: true, filepath: "a.md" }) };
    expect(await new BackfillFilepathsUseCase({ index: stuck, documents, logger: rootLogger({ level: "silent" }) }).execute()).toBe(0);
    const stop = new AbortController();
    stop.abort();
    let reads = 0;
    const counting = { filepath: async () => (reads++, { found: true }) };
    await new BackfillFilepathsUseCase({ index: stuck, documents: counting, logger: rootLogger({ level: "silent" }) }).execute(stop.signal);
    expect(reads).toBe(0);
  });
});
