import fs from "node:fs";
import { openSqlite, type SqliteDatabase } from "@engram/storage";
import { memory } from "../contract/memory-repository.contract";
import { CHAINS_SQL, MEMORIES_BY_ID_SQL } from "../../src/adapters/embedded/memory.sqlite";
import { MEMORY_MIGRATIONS } from "../../src/adapters/embedded/memory-schema.sqlite";
import { TENANT_NAMESPACES_SQL } from "../../src/adapters/embedded/memory-search.sqlite";
import { openStore, tempDir } from "./helpers";

/**
 * Lookups by id, chain and tenant read the rows they return through an index, never every row of the tenant
 * (their cost does not grow with the store). Plans as the store runs them: without statistics (it never runs ANALYZE).
 */
describe("memories.db query plans", () => {
  let dir: string;
  let db: SqliteDatabase;
  const plan = (sql: string, params: Record<string, unknown>) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail).join("; ");

  beforeAll(async () => {
    dir = tempDir();
    const store = openStore(dir);
    const v1 = memory({ content: "Mia is 30", isLatest: false });
    const v2 = memory({ content: "Mia is 31", version: 2, parentMemoryId: v1.id, rootMemoryId: v1.id, relation: "updates" });
    const others = Array.from({ length: 30 }, (_, i) => memory({ content: `fact ${i}`, tenantId: `t${1 + (i % 2)}`, namespace: `ns${i % 3}` }));
    await store.write({ records: [v1, v2, ...others] });
    expect(await store.namespaces("t1")).toEqual(["ns0", "ns1", "ns2"]);
    expect((await store.chains("t1", [v1.id])).map((m) => m.id)).toEqual([v1.id, v2.id]);
    expect((await store.getMany("t1", [v2.id, others[1]!.id, others[0]!.id])).map((m) => m.id)).toEqual([v2.id, others[0]!.id]);
    await store.close();
    db = openSqlite({ dataDir: dir, name: "memories", migrations: MEMORY_MIGRATIONS });
  });

  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("getMany reads each id through the unique id index", () => {
    const p = plan(MEMORIES_BY_ID_SQL, { tenant_id: "t1", ids: '["m_a","m_b","m_c"]' });
    expect(p).toMatch(/SEARCH memories USING INDEX sqlite_autoindex_memories_1 \(id=\?\)/);
    expect(p).not.toMatch(/\(tenant_id=\?\)|SCAN memories/);
  });

  it("chains reads the versions by (tenant, root) and the roots by id", () => {
    const p = plan(CHAINS_SQL, { tenant_id: "t1", roots: '["m_a","m_b"]' });
    expect(p).toMatch(/USING (COVERING )?INDEX memories_by_chain \(tenant_id=\? AND root_id=\?\)/);
    expect(p).toMatch(/USING INDEX sqlite_autoindex_memories_1 \(id=\?\)/);
    expect(p).not.toMatch(/\(tenant_id=\?\)|SCAN memories/);
  });

  it("a tenant's namespaces are found one index seek each, not by reading the tenant's rows", () => {
    const p = plan(TENANT_NAMESPACES_SQL, { tenant_id: "t1" });
    // The first MIN(namespace) of the tenant is one seek (SQLite's min optimisation); each next one is a range seek.
    expect(p).toMatch(/USING COVERING INDEX memories_by_\w+ \(tenant_id=\? AND namespace>\?\)/);
    expect(p).not.toMatch(/SCAN memories/);
  });
});
