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
        expect(await store.write({ records: [{ ...m, sources: more }], expect: [{ id: m.id, updatedAt: m.updatedAt }] })).toBe("written");
        expect((await store.findById("t1", "m_old1"))?.sources).toEqual(more);
      } finally {
        await store.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A data directory written before versions were guarded across replicas
 * (schema 3) may hold chains a race left with two latest versions: the
 * upgrade keeps the highest version (then the newest) latest, so the unique
 * index of one latest version per chain can be created.
 */
describe("memories.db upgrade: one latest version per chain", () => {
  it("demotes all but one latest version of a chain, then refuses a second one", async () => {
    const dir = tempDir();
    try {
      const old = openSqlite({ dataDir: dir, name: "memories", migrations: MEMORY_MIGRATIONS.slice(0, 3) });
      const insert = old.prepare(
        `INSERT INTO memories (id, tenant_id, namespace, content, content_key, is_static, is_forgotten, version, is_latest, root_id, relations, sources, bucket_keys, created_at, updated_at)
         VALUES (?, 't1', 'ns1', ?, ?, 0, ?, ?, 1, ?, '{}', '[]', '[]', '2026-11-01T00:00:00.000Z', ?)`,
      );
      // Expiry made v1 latest again after v2 superseded it; two updates both made a v2 of another chain.
      insert.run("m_v1", "Ann is in Rome", "ann is in rome", 1, 1, null, "2026-11-03T00:00:00.000Z");
      insert.run("m_v2", "Ann is in Oslo", "ann is in oslo", 0, 2, "m_v1", "2026-11-02T00:00:00.000Z");
      insert.run("m_w1", "Bo is 30", "bo is 30", 0, 1, null, "2026-11-01T00:00:00.000Z");
      insert.run("m_w2a", "Bo is 31", "bo is 31", 0, 2, "m_w1", "2026-11-02T00:00:00.000Z");
      insert.run("m_w2b", "Bo is 32", "bo is 32", 0, 2, "m_w1", "2026-11-02T00:00:01.000Z");
      old.close();

      const store = new SqliteMemoryStore(dir, { engine: (load) => new SearchEngine({ load }), vectors: false });
      try {
        const latest = async (root: string) => (await store.chains("t1", [root])).filter((m) => m.isLatest).map((m) => m.id);
        expect(await latest("m_v1")).toEqual(["m_v2"]);
        expect(await latest("m_w1")).toEqual(["m_w2b"]);
        const v1 = (await store.findById("t1", "m_v1"))!;
        expect(
          await store.write({ records: [{ ...v1, isLatest: true, updatedAt: "2026-11-04T00:00:00.000Z" }], expect: [{ id: v1.id, updatedAt: v1.updatedAt }] }),
        ).toBe("conflict");
      } finally {
        await store.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
