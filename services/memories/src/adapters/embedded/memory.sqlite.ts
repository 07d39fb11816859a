import { type FilterExpr, matchesFilter } from "@engram/filters";
import {
  analyzeForStorage,
  type EngineRecord,
  type HybridSearchEngine,
  type MemoryHit,
  type MemoryListQuery,
  type MemoryRecord,
  type MemorySearchQuery,
  type MemorySource,
  partitionKey,
  type PartitionLoader,
} from "@engram/index";
import { jsonColumn, openSqlite, type SqliteDatabase, type SqliteStatement, statementCache, transactor } from "@engram/storage";
import { contentKey } from "../../domain/memory";
import type { MemoryRepository, MemoryWrite } from "../../app/ports";

/** Schema versions of memories.db (exported for the upgrade test). */
export const MEMORY_MIGRATIONS = [
  `CREATE TABLE memories (
     rid INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     tenant_id TEXT NOT NULL, namespace TEXT NOT NULL,
     content TEXT NOT NULL, content_key TEXT NOT NULL,
     metadata TEXT, is_static INTEGER NOT NULL,
     is_forgotten INTEGER NOT NULL, forgotten_at TEXT, forget_after TEXT, forget_reason TEXT, forget_batch_id TEXT,
     temporal TEXT,
     version INTEGER NOT NULL, is_latest INTEGER NOT NULL, parent_id TEXT, root_id TEXT, relation TEXT, relations TEXT NOT NULL,
     sources TEXT NOT NULL, is_inference INTEGER, bucket_keys TEXT NOT NULL, filepath TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
     vector BLOB, model TEXT);
   CREATE INDEX memories_by_scope ON memories (tenant_id, namespace, created_at);
   CREATE INDEX memories_by_content ON memories (tenant_id, namespace, content_key);
   CREATE INDEX memories_by_chain ON memories (tenant_id, root_id);
   CREATE INDEX memories_expiring ON memories (forget_after) WHERE is_forgotten = 0 AND forget_after IS NOT NULL;
   CREATE TABLE memory_sources (
     tenant_id TEXT NOT NULL, document_id TEXT NOT NULL, memory_rid INTEGER NOT NULL,
     PRIMARY KEY (tenant_id, document_id, memory_rid)) WITHOUT ROWID;
   CREATE INDEX memory_sources_by_memory ON memory_sources (memory_rid);
   CREATE TABLE formations (
     tenant_id TEXT NOT NULL, document_id TEXT NOT NULL, generation INTEGER NOT NULL, formed_at TEXT NOT NULL,
     PRIMARY KEY (tenant_id, document_id, generation)) WITHOUT ROWID;`,
  // The analysed terms (analyzeForStorage): loading a partition into the engine then needs no re-analysis.
  `ALTER TABLE memories ADD COLUMN analyzed TEXT;`,
  // Provenance moves to one row per (memory, document) with its chunk positions and its place in the
  // memory's list: a memory seen in its n-th document gains one row instead of rewriting a list of n
  // sources in its own row (quadratic in the documents sharing a fact). memories.sources stays, unused.
  `ALTER TABLE memory_sources ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE memory_sources ADD COLUMN chunk_positions TEXT NOT NULL DEFAULT '[]';
   UPDATE memory_sources SET
     seq = COALESCE((SELECT CAST(j.key AS INTEGER) FROM memories m, json_each(m.sources) j
                     WHERE m.rid = memory_sources.memory_rid AND json_extract(j.value, '$.documentId') = memory_sources.document_id), 0),
     chunk_positions = COALESCE((SELECT json_extract(j.value, '$.chunkPositions') FROM memories m, json_each(m.sources) j
                     WHERE m.rid = memory_sources.memory_rid AND json_extract(j.value, '$.documentId') = memory_sources.document_id), '[]');
   UPDATE memories SET sources = '[]';`,
];

interface Row {
  rid: number;
  id: string;
  tenant_id: string;
  namespace: string;
  content: string;
  metadata: string | null;
  is_static: number;
  is_forgotten: number;
  forgotten_at: string | null;
  forget_after: string | null;
  forget_reason: string | null;
  forget_batch_id: string | null;
  temporal: string | null;
  version: number;
  is_latest: number;
  parent_id: string | null;
  root_id: string | null;
  relation: string | null;
  relations: string;
  is_inference: number | null;
  bucket_keys: string;
  filepath: string | null;
  created_at: string;
  updated_at: string;
  vector?: Buffer | null;
  model?: string | null;
  analyzed?: string | null;
}

interface SourceRow {
  memory_rid: number;
  document_id: string;
  chunk_positions: string;
}

function fromRow(r: Row, sources: MemorySource[] = []): MemoryRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    namespace: r.namespace,
    content: r.content,
    ...(r.metadata !== null ? { metadata: jsonColumn.read(r.metadata) } : {}),
    isStatic: r.is_static === 1,
    isForgotten: r.is_forgotten === 1,
    ...(r.forgotten_at !== null ? { forgottenAt: r.forgotten_at } : {}),
    ...(r.forget_after !== null ? { forgetAfter: r.forget_after } : {}),
    ...(r.forget_reason !== null ? { forgetReason: r.forget_reason } : {}),
    ...(r.forget_batch_id !== null ? { forgetBatchId: r.forget_batch_id } : {}),
    ...(r.temporal !== null ? { temporalContext: jsonColumn.read(r.temporal) } : {}),
    version: r.version,
    isLatest: r.is_latest === 1,
    ...(r.parent_id !== null ? { parentMemoryId: r.parent_id } : {}),
    ...(r.root_id !== null ? { rootMemoryId: r.root_id } : {}),
    ...(r.relation !== null ? { relation: r.relation as MemoryRecord["relation"] } : {}),
    relations: jsonColumn.read(r.relations) ?? {},
    sources,
    ...(r.is_inference !== null ? { isInference: r.is_inference === 1 } : {}),
    bucketKeys: jsonColumn.read(r.bucket_keys) ?? [],
    ...(r.filepath !== null ? { filepath: r.filepath } : {}),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Row parameters; `keepAnalysis`: the text is unchanged, so the stored analysis stays (NULL keeps it). */
function toParams(m: MemoryRecord, keepAnalysis = false): Record<string, unknown> {
  return {
    id: m.id,
    tenant_id: m.tenantId,
    namespace: m.namespace,
    content: m.content,
    content_key: contentKey(m.content),
    analyzed: keepAnalysis ? null : analyzeForStorage(m.content),
    metadata: jsonColumn.write(m.metadata),
    is_static: m.isStatic ? 1 : 0,
    is_forgotten: m.isForgotten ? 1 : 0,
    forgotten_at: m.forgottenAt ?? null,
    forget_after: m.forgetAfter ?? null,
    forget_reason: m.forgetReason ?? null,
    forget_batch_id: m.forgetBatchId ?? null,
    temporal: jsonColumn.write(m.temporalContext),
    version: m.version,
    is_latest: m.isLatest ? 1 : 0,
    parent_id: m.parentMemoryId ?? null,
    root_id: m.rootMemoryId ?? null,
    relation: m.relation ?? null,
    relations: JSON.stringify(m.relations),
    sources: "[]", // provenance lives in memory_sources
    is_inference: m.isInference === undefined ? null : m.isInference ? 1 : 0,
    bucket_keys: JSON.stringify(m.bucketKeys),
    filepath: m.filepath ?? null,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
  };
}

const COLUMNS = Object.keys(toParams({ content: "", relations: {}, sources: [], bucketKeys: [] } as unknown as MemoryRecord));
/** Row columns without the vector (reads never need it except when loading a partition). */
const SELECT = `rid, ${COLUMNS.filter((c) => c !== "content_key" && c !== "analyzed" && c !== "sources").join(", ")}`;

export interface MemoryStoreOptions {
  /** Builds the search engine over this store's partitions. */
  engine: (load: PartitionLoader) => HybridSearchEngine;
  /** Keep vectors for the dense side (only when the embedder carries semantics). */
  vectors: boolean;
}

interface Partition {
  /** Every version of every memory of the scope, by rid. */
  records: Map<number, MemoryRecord>;
  /** rids by normalised content (exact-content lookups: duplicates, selection by content). */
  byKey: Map<string, Set<number>>;
  /**
   * The records ordered by a list's sort field, then id (ascending), built on
   * the first list after a change and dropped by the next write: an index for
   * lists, which then take their page from the front or the back.
   */
  sorted?: Partial<Record<"createdAt" | "updatedAt", MemoryRecord[]>>;
}

function sortedRecords(p: Partition, key: "createdAt" | "updatedAt"): MemoryRecord[] {
  let list = p.sorted?.[key];
  if (!list) {
    list = [...p.records.values()].sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    (p.sorted ??= {})[key] = list;
  }
  return list;
}

function indexKey(p: Partition, rid: number, before: MemoryRecord | undefined, after: MemoryRecord): void {
  if (before) {
    const old = contentKey(before.content);
    if (old === contentKey(after.content)) return;
    p.byKey.get(old)?.delete(rid);
  }
  const key = contentKey(after.content);
  let set = p.byKey.get(key);
  if (!set) p.byKey.set(key, (set = new Set()));
  set.add(rid);
}

/** Source rows (ordered by memory, then place) grouped into each memory's list. */
function groupSources(rows: SourceRow[], into: Map<number, MemorySource[]>): Map<number, MemorySource[]> {
  for (const r of rows) {
    let list = into.get(r.memory_rid);
    if (!list) into.set(r.memory_rid, (list = []));
    list.push({ documentId: r.document_id, chunkPositions: jsonColumn.read(r.chunk_positions) ?? [] });
  }
  return into;
}

/**
 * Embedded memory store: <dataDir>/memories.db (SQLite, the durable copy,
 * versions, provenance and formation markers) plus, per (tenant, namespace)
 * partition touched, the records in memory and the in-memory search engine
 * over their text. Implements the memories service's repository and the
 * MemoryIndex read model recall queries. A write commits to SQLite first,
 * then updates the loaded partitions, so it is searchable once it returns.
 */
export class SqliteMemoryStore implements MemoryRepository {
  private readonly db: SqliteDatabase;
  private readonly stmt: (sql: string) => SqliteStatement;
  private readonly tx: <T>(fn: () => T) => T;
  private readonly engine: HybridSearchEngine;
  private readonly partitions = new Map<string, Partition>();
  /** rid -> record, for every loaded partition (the engine speaks rids). */
  private readonly byRid = new Map<number, MemoryRecord>();
  /** Engine records gathered by a partition load, handed to the engine's loader. */
  private readonly handoff = new Map<string, EngineRecord[]>();

  constructor(
    dataDir: string,
    private readonly opts: MemoryStoreOptions,
  ) {
    this.db = openSqlite({ dataDir, name: "memories", migrations: MEMORY_MIGRATIONS });
    this.stmt = statementCache(this.db);
    this.tx = transactor(this.db);
    this.engine = opts.engine((p) => this.engineRecords(p));
  }

  // --- partitions in memory ---

  private load(key: string): Partition {
    let p = this.partitions.get(key);
    if (p) return p;
    const [tenantId, namespace] = key.split("\u0000") as [string, string];
    p = { records: new Map(), byKey: new Map() };
    const forEngine: EngineRecord[] = [];
    const rows = this.stmt(
      `SELECT ${SELECT}, analyzed${this.opts.vectors ? ", vector, model" : ""} FROM memories WHERE tenant_id = ? AND namespace = ?`,
    ).iterate(tenantId, namespace) as Iterable<Row>;
    const sources = this.sourcesIn(tenantId, namespace);
    for (const r of rows) {
      const m = fromRow(r, sources.get(r.rid));
      p.records.set(r.rid, m);
      indexKey(p, r.rid, undefined, m);
      this.byRid.set(r.rid, m);
      forEngine.push({ rid: r.rid, ...(typeof r.analyzed === "string" ? { analyzed: r.analyzed } : { text: m.content }), ...vectorOf(r) });
    }
    this.partitions.set(key, p);
    this.handoff.set(key, forEngine);
    return p;
  }

  /** The engine's loader: the records gathered by `load` when it just ran, else a fresh scan (the engine reloads a partition after evict or for a new vector model). */
  private engineRecords(key: string): Iterable<EngineRecord> {
    if (!this.partitions.has(key)) this.load(key);
    const handed = this.handoff.get(key);
    this.handoff.delete(key);
    if (handed) return handed;
    const [tenantId, namespace] = key.split("\u0000") as [string, string];
    const rows = this.stmt(
      `SELECT rid, content, analyzed${this.opts.vectors ? ", vector, model" : ""} FROM memories WHERE tenant_id = ? AND namespace = ?`,
    ).all(tenantId, namespace) as Row[];
    return rows.map((r) => ({ rid: r.rid, ...(typeof r.analyzed === "string" ? { analyzed: r.analyzed } : { text: r.content }), ...vectorOf(r) }));
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

  /** The sources of every memory of a partition (by rid). */
  private sourcesIn(tenantId: string, namespace: string): Map<number, MemorySource[]> {
    const rows = this.stmt(
      `SELECT s.memory_rid, s.document_id, s.chunk_positions FROM memories m JOIN memory_sources s ON s.memory_rid = m.rid
       WHERE m.tenant_id = ? AND m.namespace = ? ORDER BY s.memory_rid, s.seq`,
    ).all(tenantId, namespace) as SourceRow[];
    return groupSources(rows, new Map());
  }

  /**
   * Loads every (tenant, namespace) partition ahead of the first search: the
   * records in one read per partition, then the engine's structures in short
   * slices with the event loop free in between.
   */
  async warm(sliceMs = 20): Promise<void> {
    const scopes = this.stmt("SELECT DISTINCT tenant_id, namespace FROM memories").all() as { tenant_id: string; namespace: string }[];
    for (const s of scopes) {
      const key = partitionKey(s.tenant_id, s.namespace);
      this.load(key);
      await (this.engine.warm?.(key, sliceMs) ?? Promise.resolve());
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  // --- repository ---

  async findById(tenantId: string, id: string): Promise<MemoryRecord | undefined> {
    const r = this.stmt(`SELECT ${SELECT} FROM memories WHERE id = ? AND tenant_id = ?`).get(id, tenantId) as Row | undefined;
    return r ? fromRow(r, this.sourcesOf([r.rid]).get(r.rid)) : undefined;
  }

  async findByContentKey(tenantId: string, namespace: string, key: string): Promise<MemoryRecord[]> {
    const p = this.partitions.get(partitionKey(tenantId, namespace));
    if (p) {
      const found = [...(p.byKey.get(key) ?? [])].map((rid) => [rid, p.records.get(rid)!] as const);
      return found
        .sort(([ra, a], [rb, b]) => Number(b.isLatest) - Number(a.isLatest) || (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : rb - ra))
        .map(([, m]) => m);
    }
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

  async isFormed(tenantId: string, documentId: string, generation: number): Promise<boolean> {
    return !!this.stmt("SELECT 1 FROM formations WHERE tenant_id = ? AND document_id = ? AND generation = ?").get(tenantId, documentId, generation);
  }

  async write(w: MemoryWrite): Promise<boolean> {
    const upsert = this.stmt(
      `INSERT INTO memories (${COLUMNS.join(", ")}, vector, model) VALUES (${COLUMNS.map((c) => "@" + c).join(", ")}, @vector, @model)
       ON CONFLICT(id) DO UPDATE SET ${COLUMNS.filter((c) => c !== "id")
         .map((c) => (c === "analyzed" ? `analyzed = COALESCE(excluded.analyzed, memories.analyzed)` : `${c} = excluded.${c}`))
         .join(", ")}, vector = COALESCE(excluded.vector, memories.vector), model = COALESCE(excluded.model, memories.model)`,
    );
    const ridOf = this.stmt("SELECT rid FROM memories WHERE id = ?");
    const check = this.stmt("SELECT updated_at FROM memories WHERE id = ?");
    const storedSources = this.stmt("SELECT memory_rid, document_id, chunk_positions FROM memory_sources WHERE memory_rid = ? ORDER BY seq");
    const clearSources = this.stmt("DELETE FROM memory_sources WHERE memory_rid = ?");
    const putSource = this.stmt(
      `INSERT INTO memory_sources (tenant_id, document_id, memory_rid, seq, chunk_positions) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, document_id, memory_rid) DO UPDATE SET chunk_positions = excluded.chunk_positions`,
    );
    const written: { rid: number; m: MemoryRecord; analyzed: string; vector?: EngineRecord }[] = [];
    const ok = this.tx(() => {
      for (const e of w.expect ?? []) {
        const cur = check.get(e.id) as { updated_at: string } | undefined;
        if (!cur || cur.updated_at !== e.updatedAt) return false;
      }
      for (const m of w.records) {
        const v = this.opts.vectors ? w.vectors?.get(m.id) : undefined;
        // A memory gaining a source or a flag keeps its text: its stored analysis is not recomputed.
        const known = ridOf.get(m.id) as { rid: number } | undefined;
        const before = known ? this.byRid.get(known.rid) : undefined;
        const params = toParams(m, !v && before !== undefined && before.content === m.content);
        if (known && before && before.tenantId === m.tenantId && !v) {
          // An update of a row known in memory writes only the columns that changed (a memory gaining a
          // source changes updated_at alone), so SQLite leaves the indexes of the others untouched.
          const was = toParams(before, true);
          const changed = COLUMNS.filter((c) => params[c] !== was[c]);
          if (changed.length > 0)
            this.stmt(`UPDATE memories SET ${changed.map((c) => `${c} = @${c}`).join(", ")} WHERE rid = @rid`).run({
              rid: known.rid,
              ...Object.fromEntries(changed.map((c) => [c, params[c]])),
            });
        } else upsert.run({ ...params, vector: v ? Buffer.from(v.vector.buffer, v.vector.byteOffset, v.vector.byteLength) : null, model: v?.model ?? null });
        // An update keeps its row (ON CONFLICT DO UPDATE): only a new memory needs its rid read back.
        const rid = known?.rid ?? (ridOf.get(m.id) as { rid: number }).rid;
        // Provenance rows, seq = place in the memory's list. The common change appends sources (a memory
        // seen in many documents gains one at a time) or changes positions in place: only those rows are
        // written. Anything else (a source dropped, a new order) rewrites the memory's rows.
        const prev =
          before && before.tenantId === m.tenantId
            ? before.sources
            : known
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
      if (w.formation)
        this.stmt("INSERT OR IGNORE INTO formations (tenant_id, document_id, generation, formed_at) VALUES (?, ?, ?, ?)").run(
          w.formation.tenantId,
          w.formation.documentId,
          w.formation.generation,
          new Date().toISOString(),
        );
      return true;
    });
    if (!ok) return false;
    // Loaded partitions follow the commit; text changes reach the engine.
    const toEngine = new Map<string, EngineRecord[]>();
    for (const { rid, m, analyzed, vector } of written) {
      const key = partitionKey(m.tenantId, m.namespace);
      const p = this.partitions.get(key);
      if (!p) continue; // loaded (with this write) on first use
      const before = p.records.get(rid);
      p.records.set(rid, m);
      p.sorted = undefined;
      indexKey(p, rid, before, m);
      this.byRid.set(rid, m);
      if (!before || before.content !== m.content || vector) {
        const list = toEngine.get(key) ?? [];
        list.push({ rid, analyzed, ...(vector ? { vector: vector.vector, model: vector.model } : {}) });
        toEngine.set(key, list);
      }
    }
    for (const [key, records] of toEngine) this.engine.upsert(key, records);
    return true;
  }

  // --- read model (MemoryIndex) ---

  async namespaces(tenantId: string): Promise<string[]> {
    return (this.stmt("SELECT DISTINCT namespace FROM memories WHERE tenant_id = ? ORDER BY namespace").all(tenantId) as { namespace: string }[]).map(
      (r) => r.namespace,
    );
  }

  private accepts(m: MemoryRecord, q: { includeForgotten?: boolean; isStatic?: boolean; filter?: FilterExpr; allVersions?: boolean; now: string }): boolean {
    if (!q.allVersions && !m.isLatest) return false;
    if (!q.includeForgotten && (m.isForgotten || (m.forgetAfter !== undefined && m.forgetAfter <= q.now))) return false;
    if (q.isStatic !== undefined && m.isStatic !== q.isStatic) return false;
    return !q.filter || matchesFilter(q.filter, m.metadata);
  }

  async search(q: MemorySearchQuery): Promise<MemoryHit[]> {
    const namespaces = q.namespaces ?? (await this.namespaces(q.tenantId));
    if (namespaces.length === 0 || !q.text.trim()) return [];
    const keys = namespaces.map((ns) => partitionKey(q.tenantId, ns));
    keys.forEach((k) => this.load(k));
    const hits = this.engine.search({
      partitions: keys,
      text: q.text,
      vector: q.vector,
      model: q.model,
      denseWeight: q.denseWeight ?? 0,
      limit: q.limit,
      accept: (rid) => {
        const m = this.byRid.get(rid);
        return !!m && m.tenantId === q.tenantId && this.accepts(m, q);
      },
    });
    return hits.flatMap((h) => {
      const memory = this.byRid.get(h.rid);
      return memory ? [{ memory, similarity: h.similarity, ownSimilarity: h.ownSimilarity, score: h.score }] : [];
    });
  }

  async getMany(tenantId: string, ids: string[], namespace?: string): Promise<MemoryRecord[]> {
    if (ids.length === 0) return [];
    const found = new Map(
      this.rows(`SELECT ${SELECT} FROM memories WHERE tenant_id = ? AND id IN (${ids.map(() => "?").join(",")})`, tenantId, ...ids).map((m) => [m.id, m]),
    );
    return ids.flatMap((id) => {
      const m = found.get(id);
      return m && (namespace === undefined || m.namespace === namespace) ? [m] : [];
    });
  }

  async chains(tenantId: string, rootIds: string[]): Promise<MemoryRecord[]> {
    if (rootIds.length === 0) return [];
    const marks = rootIds.map(() => "?").join(",");
    return this.rows(
      `SELECT ${SELECT} FROM memories WHERE tenant_id = ? AND (root_id IN (${marks}) OR id IN (${marks})) ORDER BY version`,
      tenantId,
      ...rootIds,
      ...rootIds,
    );
  }

  async list(q: MemoryListQuery): Promise<{ items: MemoryRecord[]; total: number }> {
    const namespaces = q.namespaces ?? (await this.namespaces(q.tenantId));
    const dir = q.order === "asc" ? 1 : -1;
    const key = q.sort;
    // Order: the sort field, then id; `before(a, b)` = a comes first in the requested order.
    const before = (a: MemoryRecord, b: MemoryRecord) => {
      const x = a[key];
      const y = b[key];
      return (x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * dir < 0;
    };
    const want = q.offset + q.limit;
    const counting = q.countTotal !== false;
    // Each partition is walked in the requested order (its sorted index): the heap, which merges partitions,
    // fills with the best records at once and rejects the rest with one comparison each.
    if (namespaces.length === 1) {
      // One partition: its walk already is the requested order.
      const records = sortedRecords(this.load(partitionKey(q.tenantId, namespaces[0]!)), key);
      const page: MemoryRecord[] = [];
      let total = 0;
      for (let k = 0; k < records.length; k++) {
        const m = records[dir < 0 ? records.length - 1 - k : k]!;
        if (!this.accepts(m, q)) continue;
        if (total >= q.offset && total < want) page.push(m);
        total++;
        if (!counting && total >= want) break;
      }
      return { items: page, total };
    }
    const top = new Bounded<MemoryRecord>(want, before);
    let total = 0;
    for (const ns of namespaces) {
      const records = sortedRecords(this.load(partitionKey(q.tenantId, ns)), key);
      // Without a count, a partition's walk ends after `want` matches: its later records cannot make the page.
      let matched = 0;
      for (let k = 0; k < records.length; k++) {
        const m = records[dir < 0 ? records.length - 1 - k : k]!;
        if (!this.accepts(m, q)) continue;
        total++;
        top.offer(m);
        if (!counting && ++matched >= want) break;
      }
    }
    const items = top.sorted().slice(q.offset);
    return { items, total: counting ? total : q.offset + items.length };
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

/**
 * The first `capacity` items of a stream in the order `before` defines,
 * without sorting the whole stream: a binary heap whose root is the item that
 * would be dropped next.
 */
class Bounded<T> {
  private readonly heap: T[] = [];
  constructor(
    private readonly capacity: number,
    private readonly before: (a: T, b: T) => boolean,
  ) {}

  offer(x: T): void {
    const h = this.heap;
    if (this.capacity <= 0) return;
    if (h.length < this.capacity) {
      h.push(x);
      let i = h.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.before(h[parent]!, h[i]!)) break;
        [h[parent], h[i]] = [h[i]!, h[parent]!];
        i = parent;
      }
      return;
    }
    if (!this.before(x, h[0]!)) return;
    h[0] = x;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && this.before(h[worst]!, h[l]!)) worst = l;
      if (r < h.length && this.before(h[worst]!, h[r]!)) worst = r;
      if (worst === i) break;
      [h[worst], h[i]] = [h[i]!, h[worst]!];
      i = worst;
    }
  }

  sorted(): T[] {
    return [...this.heap].sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
  }
}

function vectorOf(r: Row): { vector?: Float32Array; model?: string } {
  if (!r.vector || !r.model) return {};
  // Copy into an aligned buffer (the row's bytes may start at any offset).
  const copy = new Float32Array(r.vector.byteLength / 4);
  new Uint8Array(copy.buffer).set(r.vector);
  return { vector: copy, model: r.model };
}
