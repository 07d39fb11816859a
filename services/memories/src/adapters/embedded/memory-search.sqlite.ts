import { type FilterExpr, matchesFilter } from "@engram/filters";
import { type EngineRecord, type HybridSearchEngine, type PartitionBudget, partitionKey, type PartitionLoader } from "@engram/index";
import type { MemoryHit, MemoryListQuery, MemoryRecord, MemorySearchQuery, MemorySource } from "@engram/memory-model";
import type { SqliteStatement } from "@engram/storage";
import { contentKey } from "../../domain/memory";
import { Bounded } from "./bounded-heap";
import { fromRow, groupSources, type Row, SELECT, type SourceRow, vectorOf } from "./memory-schema.sqlite";

export interface MemorySearchOptions {
  /** Builds the search engine over this store's partitions. */
  engine: (load: PartitionLoader) => HybridSearchEngine;
  /** Keep vectors for the dense side (only when the embedder carries semantics). */
  vectors: boolean;
  /** The process's memory budget for loaded partitions (@engram/index residency.ts); none = every partition stays once loaded. */
  budget?: PartitionBudget;
}

/** A memory partition's id in the process's memory budget (shared with the chunk index's). */
const budgetId = (key: string) => `memories\u0000${key}`;

/** Estimated bytes of one record held in memory: the object and its strings, and its entries in the maps. */
const recordBytes = (m: MemoryRecord) => 800 + 2 * m.content.length;

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
  /** Estimated bytes of the records (`recordBytes`), kept as they change (the memory budget reads it). */
  bytes: number;
}

/** A record the store just committed, for the read model to follow. */
export interface CommittedMemory {
  rid: number;
  m: MemoryRecord;
  /** The content's stored analysis. */
  analyzed: string;
  /** The new vector, when the write carried one. */
  vector?: EngineRecord;
}

/**
 * A tenant's namespaces in order, one index seek each (a skip scan written out: the least namespace after the previous
 * one). `SELECT DISTINCT namespace ... WHERE tenant_id = ?` read every row of the tenant, on every search and list that
 * names no namespace. Its plan is checked by a test.
 */
export const TENANT_NAMESPACES_SQL = `WITH RECURSIVE ns(namespace) AS (
     SELECT (SELECT MIN(namespace) FROM memories WHERE tenant_id = @tenant_id)
     UNION ALL
     SELECT (SELECT MIN(namespace) FROM memories WHERE tenant_id = @tenant_id AND namespace > ns.namespace) FROM ns WHERE ns.namespace IS NOT NULL)
   SELECT namespace FROM ns WHERE namespace IS NOT NULL ORDER BY namespace`;

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

function accepts(m: MemoryRecord, q: { includeForgotten?: boolean; isStatic?: boolean; filter?: FilterExpr; allVersions?: boolean; now: string }): boolean {
  if (!q.allVersions && !m.isLatest) return false;
  if (!q.includeForgotten && (m.isForgotten || (m.forgetAfter !== undefined && m.forgetAfter <= q.now))) return false;
  if (q.isStatic !== undefined && m.isStatic !== q.isStatic) return false;
  return !q.filter || matchesFilter(q.filter, m.metadata);
}

/**
 * The embedded memory store's read model: per (tenant, namespace) partition
 * touched, every version in memory with an index by normalised content and
 * sorted lists, and the in-memory search engine over their text. Loaded from
 * memories.db on first use; the store hands it every commit (`apply`).
 * Answers search, list and exact-content lookups.
 */
export class SqliteMemorySearch {
  private readonly engine: HybridSearchEngine;
  private readonly partitions = new Map<string, Partition>();
  /** rid -> record, for every loaded partition (the engine speaks rids). */
  private readonly byRid = new Map<number, MemoryRecord>();
  /** Engine records gathered by a partition load, handed to the engine's loader. */
  private readonly handoff = new Map<string, EngineRecord[]>();

  constructor(
    private readonly stmt: (sql: string) => SqliteStatement,
    private readonly opts: MemorySearchOptions,
  ) {
    this.engine = opts.engine((p) => this.engineRecords(p));
  }

  private load(key: string): Partition {
    let p = this.partitions.get(key);
    if (p) return p;
    const [tenantId, namespace] = key.split("\u0000") as [string, string];
    p = { records: new Map(), byKey: new Map(), bytes: 0 };
    const forEngine: EngineRecord[] = [];
    const rows = this.stmt(
      `SELECT ${SELECT}, analyzed${this.opts.vectors ? ", vector, model" : ""} FROM memories WHERE tenant_id = ? AND namespace = ?`,
    ).iterate(tenantId, namespace) as Iterable<Row>;
    const sources = this.sourcesIn(tenantId, namespace);
    for (const r of rows) {
      const m = fromRow(r, sources.get(r.rid));
      p.records.set(r.rid, m);
      p.bytes += recordBytes(m);
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
    // Most recently written first, while the memory budget has room: those are the likeliest to be used.
    const scopes = this.stmt("SELECT tenant_id, namespace FROM memories GROUP BY tenant_id, namespace ORDER BY MAX(rid) DESC").all() as {
      tenant_id: string;
      namespace: string;
    }[];
    for (const s of scopes) {
      if (this.opts.budget && !this.opts.budget.hasRoom()) break;
      const key = partitionKey(s.tenant_id, s.namespace);
      this.load(key);
      await (this.engine.warm?.(key, sliceMs) ?? Promise.resolve());
      this.resident([key]);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Stops the engine's background work (graph builds). */
  close(): void {
    this.engine.close?.();
  }

  /** Records a use of loaded partitions with the memory budget, which may then drop others (least recently used first). */
  private resident(keys: readonly string[]): void {
    const budget = this.opts.budget;
    if (!budget) return;
    for (const key of keys) {
      const p = this.partitions.get(key);
      if (!p) continue;
      budget.use(budgetId(key), {
        measure: () => (this.engine.partitionBytes?.(key) ?? 0) + p.bytes,
        evict: () => this.drop(key, false),
      });
    }
    budget.enforce(keys.map(budgetId));
  }

  /** The record of a rid, when its partition is loaded. */
  loaded(rid: number): MemoryRecord | undefined {
    return this.byRid.get(rid);
  }

  /** Memories of a loaded partition whose contentKey equals `key`, latest versions first; undefined when the partition is not loaded. */
  byContentKey(tenantId: string, namespace: string, key: string): MemoryRecord[] | undefined {
    const p = this.partitions.get(partitionKey(tenantId, namespace));
    if (!p) return undefined;
    const found = [...(p.byKey.get(key) ?? [])].map((rid) => [rid, p.records.get(rid)!] as const);
    return found
      .sort(([ra, a], [rb, b]) => Number(b.isLatest) - Number(a.isLatest) || (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : rb - ra))
      .map(([, m]) => m);
  }

  /** Loaded partitions follow a commit; text changes reach the engine. */
  apply(written: CommittedMemory[]): void {
    const toEngine = new Map<string, EngineRecord[]>();
    for (const { rid, m, analyzed, vector } of written) {
      const key = partitionKey(m.tenantId, m.namespace);
      const p = this.partitions.get(key);
      if (!p) continue; // loaded (with this write) on first use
      const before = p.records.get(rid);
      p.records.set(rid, m);
      p.bytes += recordBytes(m) - (before ? recordBytes(before) : 0);
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
  }

  /** Forgets every loaded partition of the tenant (its rows are gone): the next use loads them again, empty. */
  dropTenant(tenantId: string): void {
    for (const key of [...this.partitions.keys()]) if (key.split("\u0000")[0] === tenantId) this.drop(key);
  }

  /** Forgets the tenant's partitions of these namespaces (their rows changed namespace): the next use loads them again. */
  dropPartitions(tenantId: string, namespaces: string[]): void {
    for (const ns of namespaces) this.drop(partitionKey(tenantId, ns));
  }

  /** Forgets a loaded partition (the next use reads it back); `counted`: the budget is told (not when it is the budget that drops it). */
  private drop(key: string, counted = true): void {
    if (counted) this.opts.budget?.forget(budgetId(key));
    const p = this.partitions.get(key);
    if (p) for (const rid of p.records.keys()) this.byRid.delete(rid);
    this.partitions.delete(key);
    this.handoff.delete(key);
    this.engine.evict(key);
  }

  async namespaces(tenantId: string): Promise<string[]> {
    return (this.stmt(TENANT_NAMESPACES_SQL).all({ tenant_id: tenantId }) as { namespace: string }[]).map((r) => r.namespace);
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
      ...(q.calibration ? { calibration: q.calibration } : {}),
      ...(q.subjects ? { subjects: q.subjects } : {}),
      limit: q.limit,
      accept: (rid) => {
        const m = this.byRid.get(rid);
        return !!m && m.tenantId === q.tenantId && accepts(m, q);
      },
    });
    const found = hits.flatMap((h) => {
      const memory = this.byRid.get(h.rid);
      return memory ? [{ memory, similarity: h.similarity, ownSimilarity: h.ownSimilarity, score: h.score }] : [];
    });
    this.resident(keys);
    return found;
  }

  async list(q: MemoryListQuery): Promise<{ items: MemoryRecord[]; total: number }> {
    const namespaces = q.namespaces ?? (await this.namespaces(q.tenantId));
    const page = this.listIn(namespaces, q);
    this.resident(namespaces.map((ns) => partitionKey(q.tenantId, ns)));
    return page;
  }

  private listIn(namespaces: readonly string[], q: MemoryListQuery): { items: MemoryRecord[]; total: number } {
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
        if (!accepts(m, q)) continue;
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
        if (!accepts(m, q)) continue;
        total++;
        top.offer(m);
        if (!counting && ++matched >= want) break;
      }
    }
    const items = top.sorted().slice(q.offset);
    return { items, total: counting ? total : q.offset + items.length };
  }
}
