import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { InvalidArgumentError, derivedId, systemClock } from "@engram/kernel";
import { SqliteDocumentRepository } from "../../src/adapters/embedded/document.sqlite";
import { FsFileStore } from "../../src/adapters/filesystem/file-store.fs";
import { DocumentArchiveUseCase } from "../../src/app/document-archive.usecase";
import { parseArchiveDocument, toArchiveDocument } from "../../src/domain/archive";
import { at, record as baseRecord } from "../contract/document-repository.contract";

const record: typeof baseRecord = (over = {}) => baseRecord({ contentHash: "ab".repeat(32), ...over });

async function* bytesOf(s: string): AsyncIterable<Uint8Array> {
  yield Buffer.from(s);
}

describe("document export and import (issue #34)", () => {
  let dir: string;
  let repo: SqliteDocumentRepository;
  let files: FsFileStore;
  let uc: DocumentArchiveUseCase;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-archive-"));
    repo = new SqliteDocumentRepository(dir);
    files = new FsFileStore(dir);
    uc = new DocumentArchiveUseCase(repo, files, systemClock, 1024 * 1024, () => undefined);
  });
  afterEach(async () => {
    await repo.close();
    await files.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("pages the tenant's documents oldest first within the byte budget, every one exactly once", async () => {
    for (let i = 0; i < 30; i++) await repo.insert(record({ content: `document ${i} `.repeat(50), createdAt: at(i), updatedAt: at(i), status: "done" }), []);
    await repo.insert(record({ tenantId: "other" }), []);
    const seen: string[] = [];
    let cursor = "";
    let pages = 0;
    do {
      const page = await uc.exportPage("acme", cursor, 2000);
      pages++;
      // Over the budget only when one record alone is (never here: each is ~700 bytes).
      expect(page.records.reduce((n, r) => n + Buffer.byteLength(r), 0)).toBeLessThanOrEqual(2000);
      seen.push(...page.records.map((r) => parseArchiveDocument(r).content));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toBeGreaterThan(5);
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => `document ${i} `.repeat(50)));
    await expect(uc.exportPage("acme", "not-a-cursor", 0)).rejects.toThrow(InvalidArgumentError);
  });

  it("keeps free ids, derives stable new ones for ids another tenant holds, and writes nothing twice", async () => {
    const mine = record({ tenantId: "acme", status: "done", customId: "note-1" });
    await repo.insert(mine, []);
    const line = JSON.stringify(toArchiveDocument(mine));
    const plan = await uc.plan("globex", [{ id: mine.id, namespace: mine.namespace, customId: mine.customId }]);
    expect(Object.fromEntries(plan.newIds)).toEqual({ [mine.id]: derivedId("document", "globex", mine.id) });
    const [res] = await uc.importRecords("globex", [line], plan.newIds);
    expect(res).toEqual({ sourceId: mine.id, id: derivedId("document", "globex", mine.id) });
    const written = (await repo.findById("globex", res!.id!))!;
    // Re-indexed here: queued with its generation, everything else as archived.
    expect(written).toMatchObject({ status: "queued", generation: mine.generation, content: mine.content, customId: "note-1", createdAt: mine.createdAt });
    // A second plan finds it: the same document, not a new one.
    const again = await uc.plan("globex", [{ id: mine.id, namespace: mine.namespace, customId: mine.customId }]);
    expect(Object.fromEntries(again.existingIds)).toEqual({ [mine.id]: res!.id });
    expect((await uc.importRecords("globex", [line], again.newIds))[0]).toEqual({ sourceId: mine.id, id: mine.id });
    expect((await repo.list({ tenantId: "globex", sort: "createdAt", order: "asc", offset: 0, limit: 10 })).total).toBe(1);
  });

  it("refuses bad records by name, and a file whose bytes do not match its record", async () => {
    const bad = await uc.importRecords(
      "acme",
      ["{", JSON.stringify({ id: "d_1", namespace: "ns" }), JSON.stringify({ ...toArchiveDocument(record()), tenantId: "x" })],
      new Map(),
    );
    expect(bad.map((r) => r.error)).toEqual([
      "an archive document record is not valid JSON",
      expect.stringMatching(/^invalid archive document record: /),
      expect.stringMatching(/tenantId/),
    ]);
    const withFile = record({ sourceKind: "file", content: "", file: { key: "k", sizeBytes: 5, sha256: "a".repeat(64) } });
    await expect(uc.importFile("acme", JSON.stringify(toArchiveDocument(withFile)), new Map(), bytesOf("hello"))).rejects.toThrow(/does not match/);
    expect(await repo.findById("acme", withFile.id)).toBeUndefined();
  });
});
