import type { MemoryHit, MemoryListQuery, MemoryRecord, MemorySearchQuery, MemorySource } from "@engram/memory-model";
import { openSqlite, type SqliteDatabase, type SqliteStatement, statementCache, transactor } from "@engram/storage";
import { partitionKey } from "@engram/index";
import type { DocumentGeneration, MemoryRepository, MemoryWrite, NamespaceChanges, WriteOutcome } from "../../app/ports";
import { COLUMNS, fromRow, groupSources, MEMORY_MIGRATIONS, ONE_LATEST_PER_CHAIN, type Row, SELECT, type SourceRow, toParams } from "./memory-schema.sqlite";
import { type CommittedMemory, type MemorySearchOptions, SqliteMemorySearch } from "./memory-search.sqlite";
import { NamespaceJournal } from "./namespace-journal";

export type MemoryStoreOptions = MemorySearchOptions;

/** What a write checks of a stored row. */
interface StoredRow {
  rid: number;
  tenant_id: string;
  namespace: string;
  updated_at: string;
}

/** Rolls a write's transaction back with its outcome (a check after some of its statements failed). */
class Refused extends Error {
  constructor(readonly outcome: Exclude<WriteOutcome, "written">) {
    super(`memory write refused: ${outcome}`);
  }
}

/** The unique index of one latest version per chain refused a statement: another writer's version won. */
function isOneLatestViolation(err: unknown): boolean {
  // By shape, not `instanceof`: the driver's error class may come from another realm (a native module loaded once per process).
  const e = err as { code?: unknown; message?: unknown } | null;
  return (
    typeof e === "object" && e !== null && e.code === "SQLITE_CONSTRAINT_UNIQUE" && typeof e.message === "string" && e.message.includes(ONE_LATEST_PER_CHAIN)
  );
}

/**
 * Memories of a tenant by id (`@ids`: a JSON array). The tenant is compared with `+tenant_id`, which keeps it out of
 * the index choice: with `tenant_id = ? AND id IN (...)`, SQLite (no statistics) read every row of the tenant through
 * memories_by_chain (tenant_id, root_id) instead of each id through the unique id index. Its plan is checked by a test.
 */
export const MEMORIES_BY_ID_SQL = `SELECT ${SELECT} FROM memories WHERE id IN (SELECT value FROM json_each(@ids)) AND +tenant_id = @tenant_id`;

/**
 * Every version of the chains of the given roots (`@roots`: a JSON array): the versions naming a root, through
 * memories_by_chain (tenant_id, root_id), and the roots themselves, through the id index. One WHERE with
 * `root_id IN (...) OR id IN (...)` made SQLite read every row of the tenant instead. Its plan is checked by a test.
 */
export const CHAINS_SQL = `SELECT ${SELECT} FROM memories WHERE rid IN (
     SELECT rid FROM memories WHERE tenant_id = @tenant_id AND root_id IN (SELECT value FROM json_each(@roots))
     UNION ALL
     SELECT rid FROM memories WHERE id IN (SELECT value FROM json_each(@roots)) AND +tenant_id = @tenant_id)
   ORDER BY version`;

/**
 * Embedded memory store: <dataDir>/memories.db (SQLite, the durable copy,
 * versions, provenance and formation markers) plus its in-memory read model
 * (SqliteMemorySearch: per (tenant, namespace) partition touched, the records
 * and the search engine over their text). Implements the memories service's
 * repository, and so the memory read model recall queries. A write commits
 * to SQLite first, then updates the loaded partitions, so it is searchable
 * once it returns.
 */
export class SqliteMemoryStore implements MemoryRepository {
  private readonly db: SqliteDatabase;
  private readonly stmt: (sql: string) => SqliteStatement;
  private readonly tx: <T>(fn: () => T) => T;
  private readonly reads: SqliteMemorySearch;
  /** Namespace change counters and their recent changes (in memory: this process is memories.db's only writer). */
  private readonly journal = new NamespaceJournal();

  constructor(
    dataDir: string,
    private readonly opts: MemoryStoreOptions,
  ) {
    this.db = openSqlite({ dataDir, name: "memories", migrations: MEMORY_MIGRATIONS });
    this.stmt = statementCache(this.db);
    this.tx = transactor(this.db);
    this.reads = new SqliteMemorySearch(this.stmt, opts);
  }

  private rows(sql: string, ...args: unknown[]): MemoryRecord[] {
    const rows = this.stmt(sql).all(...args) as Row[];
    const sources = this.sourcesOf(rows.map((r) => r.rid));
    return rows.map((r) => fromRow(r, sources.get(r.rid)));
  }

  /** The sources of these memories (by rid), each list in its memory's order. */
  private sourcesOf(rids: number[]): Map<number, MemorySource[]> {
    const out = new Map<number, MemorySource[]>();
    for (let i = 0; i < rids.length; i += 500) {
      const part = rids.slice(i, i + 500);
      const rows = this.stmt(
        `SELECT memory_rid, document_id, chunk_positions FROM memory_sources WHERE memory_rid IN (${part.map(() => "?").join(",")}) ORDER BY memory_rid, seq`,
      ).all(...part) as SourceRow[];
      groupSources(rows, out);
    }
    return out;
  }

  // --- repository ---

  async ownersOf(ids: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      const part = unique.slice(i, i + 500);
      const rows = this.stmt(`SELECT id, tenant_id FROM memories WHERE id IN (${part.map(() => "?").join(",")})`).all(...part) as {
        id: string;
        tenant_id: string;
      }[];
      for (const r of rows) out.set(r.id, r.tenant_id);
    }
    return out;
  }

  async findById(tenantId: string, id: string): Promise<MemoryRecord | undefined> {
    const r = this.stmt(`SELECT ${SELECT} FROM memories WHERE id = ? AND tenant_id = ?`).get(id, tenantId) as Row | undefined;
    return r ? fromRow(r, this.sourcesOf([r.rid]).get(r.rid)) : undefined;
  }

  async findByContentKey(tenantId: string, namespace: string, key: string): Promise<MemoryRecord[]> {
    const loaded = this.reads.byContentKey(tenantId, namespace, key);
    if (loaded) return loaded;
    return this.rows(
      `SELECT ${SELECT} FROM memories WHERE tenant_id = ? AND namespace = ? AND content_key = ? ORDER BY is_latest DESC, updated_at DESC, rid DESC`,
      tenantId,
      namespace,
      key,
    );
  }

  async findByDocument(tenantId: string, documentId: string): Promise<MemoryRecord[]> {
    return this.rows(
      `SELECT ${SELECT.replace(/(^|, )/g, "$1m.")} FROM memory_sources s JOIN memories m ON m.rid = s.memory_rid WHERE s.tenant_id = ? AND s.document_id = ? ORDER BY m.rid`,
      tenantId,
      documentId,
    );
  }

  async findExpired(now: string, limit: number): Promise<MemoryRecord[]> {
    return this.rows(
      `SELECT ${SELECT} FROM memories WHERE is_forgotten = 0 AND forget_after IS NOT NULL AND forget_after <= ? ORDER BY forget_after LIMIT ?`,
      now,
      limit,
    );
  }

  async namespaceVersion(tenantId: string, namespace: string): Promise<number> {
    return this.journal.version(partitionKey(tenantId, namespace));
  }

  async changesSince(tenantId: string, namespace: string, version: number): Promise<NamespaceChanges | undefined> {
    return this.journal.since(partitionKey(tenantId, namespace), version);
  }

  async isFormed(tenantId: string, documentId: string, generation: number): Promise<boolean> {
    return !!this.stmt("SELECT 1 FROM formations WHERE tenant_id = ? AND document_id = ? AND generation = ?").get(tenantId, documentId, generation);
  }

  /**
   * One transaction (SQLite serialises them, so the checks and the writes
   * are atomic against every other write): the formation source check, the
   * expectations (a stored record must be expected; no blind replace), the
   * rows, the absence of duplicates, the formation marker, the tombstone and
   * the check that nothing cites a retired document. A refusal rolls it all
   * back; the unique index of one latest version per chain is a conflict too.
   */
  async write(w: MemoryWrite): Promise<WriteOutcome> {
    // One row per id: the last record given for an id wins.
    const records = [...new Map(w.records.map((m) => [m.id, m])).values()];
    const upsert = this.stmt(
      `INSERT INTO memories (${COLUMNS.join(", ")}, vector, model) VALUES (${COLUMNS.map((c) => "@" + c).join(", ")}, @vector, @model)
       ON CONFLICT(id) DO UPDATE SET ${COLUMNS.filter((c) => c !== "id")
         .map((c) => (c === "analyzed" ? `analyzed = COALESCE(excluded.analyzed, memories.analyzed)` : `${c} = excluded.${c}`))
         .join(", ")}, vector = COALESCE(excluded.vector, memories.vector), model = COALESCE(excluded.model, memories.model)`,
    );
    const ridOf = this.stmt("SELECT rid FROM memories WHERE id = ?");
    const storedRow = this.stmt("SELECT rid, tenant_id, namespace, updated_at FROM memories WHERE id = ?");
    const storedSources = this.stmt("SELECT memory_rid, document_id, chunk_positions FROM memory_sources WHERE memory_rid = ? ORDER BY seq");
    const clearSources = this.stmt("DELETE FROM memory_sources WHERE memory_rid = ?");
    const putSource = this.stmt(
      `INSERT INTO memory_sources (tenant_id, document_id, memory_rid, seq, chunk_positions) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, document_id, memory_rid) DO UPDATE SET chunk_positions = excluded.chunk_positions`,
    );
    const written: CommittedMemory[] = [];
    let outcome: WriteOutcome;
    try {
      outcome = this.tx((): WriteOutcome => {
        // The counter moves only after a commit, and the commit is synchronous: nothing else runs in between.
        if (w.expectNamespace && this.journal.version(partitionKey(w.expectNamespace.tenantId, w.expectNamespace.namespace)) !== w.expectNamespace.version)
          return "conflict";
        if (w.source) {
          const refused = this.sourceRefusal(w.source);
          if (refused) return refused;
        }
        const expected = new Set<string>();
        for (const e of w.expect ?? []) {
          const cur = storedRow.get(e.id) as StoredRow | undefined;
          if (!cur || cur.updated_at !== e.updatedAt) return "conflict";
          expected.add(e.id);
        }
        const plan = records.map((m) => ({ m, cur: storedRow.get(m.id) as StoredRow | undefined }));
        // A stored row is replaced only when expected, and never moved to another tenant or namespace (moveNamespaces does that).
        if (plan.some(({ m, cur }) => cur && (!expected.has(m.id) || cur.tenant_id !== m.tenantId || cur.namespace !== m.namespace))) return "conflict";
        // Replacements before insertions: a version demoted before its successor is inserted keeps one latest version per
        // chain at every statement (the unique index checks each one).
        for (const { m, cur } of [...plan.filter((p) => p.cur), ...plan.filter((p) => !p.cur)]) {
          const v = this.opts.vectors ? w.vectors?.get(m.id) : undefined;
          // A memory gaining a source or a flag keeps its text: its stored analysis is not recomputed.
          const before = cur ? this.reads.loaded(cur.rid) : undefined;
          const params = toParams(m, !v && before !== undefined && before.content === m.content);
          if (cur && before && before.tenantId === m.tenantId && !v) {
            // An update of a row known in memory writes only the columns that changed (a memory gaining a
            // source changes updated_at alone), so SQLite leaves the indexes of the others untouched.
            const was = toParams(before, true);
            const changed = COLUMNS.filter((c) => params[c] !== was[c]);
            if (changed.length > 0)
              this.stmt(`UPDATE memories SET ${changed.map((c) => `${c} = @${c}`).join(", ")} WHERE rid = @rid`).run({
                rid: cur.rid,
                ...Object.fromEntries(changed.map((c) => [c, params[c]])),
              });
          } else upsert.run({ ...params, vector: v ? Buffer.from(v.vector.buffer, v.vector.byteOffset, v.vector.byteLength) : null, model: v?.model ?? null });
          // An update keeps its row (ON CONFLICT DO UPDATE): only a new memory needs its rid read back.
          const rid = cur?.rid ?? (ridOf.get(m.id) as { rid: number }).rid;
          // Provenance rows, seq = place in the memory's list. The common change appends sources (a memory
          // seen in many documents gains one at a time) or changes positions in place: only those rows are
          // written. Anything else (a source dropped, a new order) rewrites the memory's rows.
          const prev =
            before && before.tenantId === m.tenantId
              ? before.sources
              : cur
                ? (groupSources(storedSources.all(rid) as SourceRow[], new Map()).get(rid) ?? [])
                : [];
          const appended = m.sources.length >= prev.length && prev.every((x, i) => x.documentId === m.sources[i]!.documentId);
          if (!appended) clearSources.run(rid);
          m.sources.forEach((x, seq) => {
            const was = appended ? prev[seq] : undefined;
            if (was === x) return; // the same (immutable) source object: unchanged
            const positions = JSON.stringify(x.chunkPositions);
            if (was !== undefined && positions === JSON.stringify(was.chunkPositions)) return;
            putSource.run(m.tenantId, x.documentId, rid, seq, positions);
          });
          written.push({ rid, m, analyzed: params.analyzed as string, ...(v ? { vector: { rid, vector: v.vector, model: v.model } } : {}) });
        }
        const ours = new Set(records.map((m) => m.id));
        for (const d of w.expectNoDuplicate ?? []) {
          const active = this.stmt(
            `SELECT id FROM memories WHERE tenant_id = ? AND namespace = ? AND content_key = ? AND is_latest = 1 AND is_forgotten = 0
               AND (forget_after IS NULL OR forget_after > ?)`,
          ).all(d.tenantId, d.namespace, d.contentKey, d.now) as { id: string }[];
          if (active.some((r) => !ours.has(r.id))) throw new Refused("conflict");
        }
        if (w.formation)
          this.stmt("INSERT OR IGNORE INTO formations (tenant_id, document_id, generation, formed_at) VALUES (?, ?, ?, ?)").run(
            w.formation.tenantId,
            w.formation.documentId,
            w.formation.generation,
            new Date().toISOString(),
          );
        if (w.retire) {
          const { tenantId, documentId, generation, at } = w.retire;
          this.stmt(
            `INSERT INTO tombstones (tenant_id, document_id, generation, deleted_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (tenant_id, document_id) DO UPDATE SET generation = MAX(generation, excluded.generation), deleted_at = MAX(deleted_at, excluded.deleted_at)`,
          ).run(tenantId, documentId, generation, at);
          // A memory that still cites the document was written after the caller read the document's memories.
          if (this.stmt("SELECT 1 FROM memory_sources WHERE tenant_id = ? AND document_id = ? LIMIT 1").get(tenantId, documentId))
            throw new Refused("conflict");
        }
        return "written";
      });
    } catch (err) {
      if (err instanceof Refused) return err.outcome;
      if (isOneLatestViolation(err)) return "conflict";
      throw err;
    }
    if (outcome !== "written") return outcome;
    // Loaded partitions follow the commit; text changes reach the engine.
    this.reads.apply(written);
    // Each namespace written moves its counter by one, with what this write stored there.
    const byScope = new Map<string, MemoryRecord[]>();
    for (const { m } of written) {
      const key = partitionKey(m.tenantId, m.namespace);
      byScope.set(key, [...(byScope.get(key) ?? []), m]);
    }
    for (const [key, ms] of byScope) this.journal.record(key, ms);
    return "written";
  }

  /** Why a formation write of this document generation is refused (inside the write's transaction); undefined: it is not. */
  private sourceRefusal(s: DocumentGeneration): "source-deleted" | "source-superseded" | undefined {
    const tomb = this.stmt("SELECT generation FROM tombstones WHERE tenant_id = ? AND document_id = ?").get(s.tenantId, s.documentId) as
      { generation: number } | undefined;
    if (tomb && tomb.generation >= s.generation) return "source-deleted";
    const newer = this.stmt("SELECT 1 FROM formations WHERE tenant_id = ? AND document_id = ? AND generation > ? LIMIT 1").get(
      s.tenantId,
      s.documentId,
      s.generation,
    );
    return newer ? "source-superseded" : undefined;
  }

  async pruneTombstones(before: string): Promise<number> {
    return this.stmt("DELETE FROM tombstones WHERE deleted_at < ?").run(before).changes;
  }

  // --- read model ---

  /** Loads every partition ahead of the first search, in short slices (see SqliteMemorySearch.warm). */
  warm(sliceMs = 20): Promise<void> {
    return this.reads.warm(sliceMs);
  }

  namespaces(tenantId: string): Promise<string[]> {
    return this.reads.namespaces(tenantId);
  }

  search(q: MemorySearchQuery): Promise<MemoryHit[]> {
    return this.reads.search(q);
  }

  list(q: MemoryListQuery): Promise<{ items: MemoryRecord[]; total: number }> {
    return this.reads.list(q);
  }

  async getMany(tenantId: string, ids: string[], namespace?: string): Promise<MemoryRecord[]> {
    if (ids.length === 0) return [];
    const found = new Map(this.rows(MEMORIES_BY_ID_SQL, { tenant_id: tenantId, ids: JSON.stringify(ids) }).map((m) => [m.id, m]));
    return ids.flatMap((id) => {
      const m = found.get(id);
      return m && (namespace === undefined || m.namespace === namespace) ? [m] : [];
    });
  }

  /** Tombstones stay (a formation in flight during the reset must still find them); they are pruned in time. */
  async purgeTenant(tenantId: string): Promise<number> {
    const removed = this.tx(() => {
      this.stmt("DELETE FROM memory_sources WHERE tenant_id = ?").run(tenantId);
      this.stmt("DELETE FROM formations WHERE tenant_id = ?").run(tenantId);
      return this.stmt("DELETE FROM memories WHERE tenant_id = ?").run(tenantId).changes;
    });
    this.reads.dropTenant(tenantId);
    for (const key of this.journal.keysOf(partitionKey(tenantId, ""))) this.journal.invalidate(key);
    return removed;
  }

  async moveNamespaces(tenantId: string, sources: string[], target: string): Promise<number> {
    const from = sources.filter((ns) => ns !== target);
    if (from.length === 0) return 0;
    const moved = this.tx(() =>
      from.reduce((n, ns) => n + this.stmt("UPDATE memories SET namespace = ? WHERE tenant_id = ? AND namespace = ?").run(target, tenantId, ns).changes, 0),
    );
    // The partitions involved load again from the rows.
    this.reads.dropPartitions(tenantId, [...from, target]);
    for (const ns of [...from, target]) this.journal.invalidate(partitionKey(tenantId, ns));
    return moved;
  }

  async chains(tenantId: string, rootIds: string[]): Promise<MemoryRecord[]> {
    if (rootIds.length === 0) return [];
    return this.rows(CHAINS_SQL, { tenant_id: tenantId, roots: JSON.stringify(rootIds) });
  }

  async close(): Promise<void> {
    this.reads.close();
    if (this.db.open) this.db.close();
  }
}
