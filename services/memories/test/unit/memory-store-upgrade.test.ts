import fs from "node:fs";
import { SearchEngine } from "@engram/index";
import { openSqlite } from "@engram/storage";
import { SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import { MEMORY_MIGRATIONS } from "../../src/adapters/embedded/memory-schema.sqlite";
import { tempDir } from "./helpers";

/**
 * A data directory written before provenance had its own rows (schema 2:
 * each memory's sources as a JSON list in its row) opens with the same
 * sources, in the same order, and takes new sources from there.
 */
describe("memories.db upgrade: sources from the memory row to provenance rows", () => {
  it("keeps every memory's sources, their order and positions", async () => {
    const dir = tempDir();
    try {
      const old = openSqlite({ dataDir: dir, name: "memories", migrations: MEMORY_MIGRATIONS.slice(0, 2) });
      const insert = old.prepare(
        `INSERT INTO memories (id, tenant_id, namespace, content, content_key, is_static, is_forgotten, version, is_latest, relations, sources, bucket_keys, created_at, updated_at)
         VALUES (?, 't1', 'ns1', ?, ?, 0, 0, 1, 1, '{}', ?, '[]', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`,
      );
      const sources = [
        { documentId: "d9", chunkPositions: [4, 7] },
        { documentId: "d2", chunkPositions: [] },
        { documentId: "d5", chunkPositions: [1] },
      ];
      const rid = Number(insert.run("m_old1", "Pia keeps bees", "pia keeps bees", JSON.stringify(sources)).lastInsertRowid);
      insert.run("m_old2", "No sources here", "no sources here", "[]");
      for (const s of sources) old.prepare("INSERT INTO memory_sources (tenant_id, document_id, memory_rid) VALUES ('t1', ?, ?)").run(s.documentId, rid);
      old.close();

      const store = new SqliteMemoryStore(dir, { engine: (load) => new SearchEngine({ load }), vectors: false });
      try {
        expect((await store.findById("t1", "m_old1"))?.sources).toEqual(sources);
        expect((await store.findById("t1", "m_old2"))?.sources).toEqual([]);
        expect((await store.findByDocument("t1", "d5")).map((m) => m.id)).toEqual(["m_old1"]);
        const [hit] = await store.search({ tenantId: "t1", namespaces: ["ns1"], text: "bees", limit: 3, now: "2026-11-20T00:00:00.000Z" });
        expect(hit?.memory.sources).toEqual(sources);
        const m = (await store.findById("t1", "m_old1"))!;
        const more = [...sources, { documentId: "d1", chunkPositions: [0] }];
        await store.write({ records: [{ ...m, sources: more }] });
        expect((await store.findById("t1", "m_old1"))?.sources).toEqual(more);
      } finally {
        await store.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
