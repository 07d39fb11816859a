import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DUE_FOR_SYNC_SQL, SqliteConnectionRepository } from "../../src/adapters/embedded/connections.sqlite";
import { SqliteSettingsRepository } from "../../src/adapters/embedded/settings.sqlite";
import { newSyncRun } from "../../src/domain/connection";
import { emptySettings } from "../../src/domain/settings";
import { conn, connectionRepositoryContract, item } from "./connection-repository.contract";

describe("SqliteConnectionRepository (connection repository contract)", () => {
  connectionRepositoryContract(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-connections-"));
    let repo = new SqliteConnectionRepository(dir);
    return {
      get repo() {
        return repo;
      },
      reopen: async () => {
        await repo.close();
        repo = new SqliteConnectionRepository(dir);
        return repo;
      },
      bindSecretKey: async (fingerprints, o) => repo.bindSecretKey(fingerprints, o),
      boundKeyId: async () => repo.boundSecretKeyId(),
      rawStored: async () => {
        // Closed first, so that everything is in the database file.
        await repo.close();
        const raw = Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f))));
        repo = new SqliteConnectionRepository(dir);
        return raw;
      },
      close: async () => {
        await repo.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

/** What only the embedded store has: its file beside the settings store's, and its query plans. */
describe("SqliteConnectionRepository storage", () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-connections-"));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps its own file (connectors.db) beside the settings store's connections.db, each with its own migrations", async () => {
    const settings = new SqliteSettingsRepository(dir);
    const connections = new SqliteConnectionRepository(dir);
    await settings.update("acme", () => ({ ...emptySettings("acme"), filterPrompt: "p", updatedAt: "2025-01-01T00:00:00.000Z" }));
    const c = await connections.create(conn());
    await settings.close();
    await connections.close();
    expect(
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".db"))
        .sort(),
    ).toEqual(["connections.db", "connectors.db"]);
    // Reopened in the other order: neither store skips or repeats the other's migrations.
    const again = new SqliteConnectionRepository(dir);
    const settingsAgain = new SqliteSettingsRepository(dir);
    expect(await again.get("acme", c.id)).toEqual(c);
    expect((await settingsAgain.get("acme"))?.filterPrompt).toBe("p");
    expect(again.db.pragma("user_version", { simple: true })).toBe(5);
    await again.close();
    await settingsAgain.close();
  });

  it("serves every query path from an index (no full table scan)", async () => {
    const repo = new SqliteConnectionRepository(dir);
    const c = await repo.create(conn());
    await repo.upsertItem("acme", item(c.id, "k"));
    const plan = (sql: string, ...args: unknown[]) =>
      (repo.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join(" | ");
    const queries: [string, string, unknown[]][] = [
      ["get", "SELECT * FROM connections WHERE id = ? AND tenant_id = ?", [c.id, "acme"]],
      ["list", "SELECT * FROM connections WHERE tenant_id = ? ORDER BY created_at DESC, id DESC", ["acme"]],
      ["by provider", "SELECT * FROM connections WHERE tenant_id = ? AND provider = ? ORDER BY created_at DESC, id DESC", ["acme", "notion"]],
      [
        "item keys",
        "SELECT item_key FROM connection_items WHERE connection_id = ? AND tenant_id = ? AND item_key > ? ORDER BY item_key LIMIT ?",
        [c.id, "acme", "", 10],
      ],
      ["document ids", "SELECT DISTINCT document_id FROM connection_items WHERE connection_id = ? AND tenant_id = ? ORDER BY document_id", [c.id, "acme"]],
      ["last run", "SELECT * FROM sync_runs WHERE connection_id = ? AND tenant_id = ? ORDER BY started_at DESC, id DESC LIMIT 1", [c.id, "acme"]],
      ["running runs", "SELECT * FROM sync_runs WHERE connection_id = ? AND tenant_id = ? AND status = 'running'", [c.id, "acme"]],
      // dueForSync's statement, with and without the providers, and the backfill's look for rows without a due time.
      ["due", DUE_FOR_SYNC_SQL, [{ now: "2030-01-01T00:00:00.000Z", now_ms: Date.parse("2030-01-01T00:00:00.000Z"), providers: '["web-crawler"]', limit: 10 }]],
      ["due, any provider", DUE_FOR_SYNC_SQL, [{ now: "2030-01-01T00:00:00.000Z", now_ms: 0, providers: null, limit: 10 }]],
      [
        "to backfill",
        "SELECT id, tenant_id FROM connections WHERE status IN (SELECT value FROM json_each(?)) AND next_sync_at IS NULL",
        ['["active","expired"]'],
      ],
      // recordDelivery's forgetting of the connection's expired ids, and delete's removal of them.
      [
        "expired deliveries",
        "DELETE FROM webhook_deliveries WHERE connection_id = ? AND tenant_id = ? AND received_at < ?",
        [c.id, "acme", "2030-01-01T00:00:00.000Z"],
      ],
      ["deliveries", "DELETE FROM webhook_deliveries WHERE connection_id = ? AND tenant_id = ?", [c.id, "acme"]],
    ];
    for (const [label, sql, args] of queries) {
      const p = plan(sql, ...args);
      expect({
        label,
        scans: /SCAN (connections|connection_items|sync_runs|webhook_deliveries)\b(?! USING)/.test(p),
        temp: p.includes("USE TEMP B-TREE"),
      }).toEqual({
        label,
        scans: false,
        temp: false,
      });
    }
    // The due look walks connections_due in its order (not a covering scan of another index).
    expect(plan("SELECT id FROM connections WHERE status = 'active' AND next_sync_at <= ? ORDER BY next_sync_at, id LIMIT 5", "2030-01-01")).toMatch(
      /SEARCH connections USING (COVERING )?INDEX connections_due \(status=\? AND next_sync_at<\?\)/,
    );
    await repo.close();
  });

  it("gives connections stored before scheduled syncs existed their due time when it opens", async () => {
    const repo = new SqliteConnectionRepository(dir);
    const synced = await repo.create(conn({ provider: "web-crawler", config: { startUrl: "https://a.example/" } }, "2025-03-01T10:00:00.000Z"));
    const never = await repo.create(conn({ provider: "granola", namespace: "never" }, "2025-03-02T10:00:00.000Z"));
    await repo.startRun(newSyncRun({ tenantId: "acme", connectionId: synced.id, trigger: "initial" }, "2025-03-01T10:05:00.000Z"));
    // As a store written before migration 2 would hold them: no schedule columns filled in.
    repo.db.exec("UPDATE connections SET next_sync_at = NULL, last_sync_started_at = NULL");
    await repo.close();
    const reopened = new SqliteConnectionRepository(dir);
    expect(await reopened.dueForSync(new Date("2025-03-08T10:04:59.999Z"), { limit: 10 })).toEqual([
      { tenantId: "acme", connectionId: never.id, provider: "granola", dueAt: "2025-03-02T10:00:00.000Z", requested: false },
    ]);
    // Its most recent run counts, finished or not (the run was likely cut short by the upgrade's restart).
    expect((await reopened.dueForSync(new Date("2025-03-08T10:05:00.000Z"), { limit: 10 })).map((d) => [d.connectionId, d.dueAt])).toEqual([
      [never.id, "2025-03-02T10:00:00.000Z"],
      [synced.id, "2025-03-08T10:05:00.000Z"],
    ]);
    await reopened.close();
  });
});
