import { openSqlite, jsonColumn, type SqliteDatabase, type SqliteStatement, statementCache, transactor } from "@engram/storage";
import { type FilterExpr, matchesFilter } from "@engram/filters";
import { type JsonObject, matchesFilepath } from "@engram/kernel";
import {
  assertGeneration,
  type ChunkHit,
  type ChunkIndex,
  type ChunkSearchQuery,
  type IndexedChunk,
  type ListChunksQuery,
  type ReplaceOutcome,
} from "./chunk-index";
import { analyzeForStorage } from "./engine/analysis";
import { SearchEngine, type SearchEngineOptions } from "./engine/search-engine";
import type { PartitionBudget } from "./residency";
import { SnapshotFiles } from "./snapshot-files";
import { type EngineHit, type EngineRecord, type LoadOptions, partitionKey } from "./engine/types";

const MIGRATIONS = [
  `CREATE TABLE chunks (
     rid INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     tenant_id TEXT NOT NULL, namespace TEXT NOT NULL, document_id TEXT NOT NULL,
     position INTEGER NOT NULL, content TEXT NOT NULL,
     start_offset INTEGER NOT NULL, end_offset INTEGER NOT NULL, token_count INTEGER NOT NULL,
     doc TEXT NOT NULL, created_at TEXT NOT NULL,
     vector BLOB NOT NULL);
   CREATE INDEX chunks_by_document ON chunks (tenant_id, namespace, document_id, position);
   CREATE VIRTUAL TABLE chunks_fts USING fts5(terms, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');`,
  `ALTER TABLE chunks ADD COLUMN model TEXT NOT NULL DEFAULT '';`,
  // Re-indexing, deleting and metadata refreshes look a document up by id alone (it may have moved namespace).
  `CREATE INDEX chunks_by_document_id ON chunks (tenant_id, document_id);`,
  // Search moved to the in-memory engine: the analysed terms are stored with the row (NULL for rows of
  // earlier releases until the index backfills them on open), FTS5 goes, and chunk lists are ordered by date.
  `ALTER TABLE chunks ADD COLUMN terms TEXT;
   DROP TABLE chunks_fts;
   CREATE INDEX chunks_by_created ON chunks (tenant_id, namespace, created_at, document_id, position);`,
  // A partition loads in rid order, a page at a time (the index orders each scope's rows by rid), and the
  // check for rows without a stored analysis, made at every open, reads a partial index (empty once backfilled).
  `CREATE INDEX chunks_by_scope ON chunks (tenant_id, namespace);
   CREATE INDEX chunks_without_terms ON chunks (rid) WHERE terms IS NULL;`,
  // A document's rows by id alone, covering the namespace: with (tenant_id, document_id) only, SQLite chose the
  // covering chunks_by_document for "SELECT rid, namespace ... WHERE tenant_id = ? AND document_id = ?" and walked
  // every row of the tenant, so each re-index cost grew with the index (bench/README.md, scale).
  `CREATE INDEX chunks_by_document_id_ns ON chunks (tenant_id, document_id, namespace);
   DROP INDEX chunks_by_document_id;`,
  // Chunks carry the processing generation that wrote them, and each document the newest generation written (kept
  // after a delete), so a late write of an older generation (a worker evicted by a rebalance) is refused.
  `ALTER TABLE chunks ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE document_generations (
     tenant_id TEXT NOT NULL, document_id TEXT NOT NULL, generation INTEGER NOT NULL,
     PRIMARY KEY (tenant_id, document_id)) WITHOUT ROWID;`,
  // The generation a delete covered: a late write of it (or older) is refused too.
  `ALTER TABLE document_generations ADD COLUMN deleted_through INTEGER NOT NULL DEFAULT -1;`,
  // Searches filter by the document's filepath inside the engine: each row carries it ('' = the document has none).
  // Rows of earlier releases have NULL (not known) until the pipeline worker backfills them from ingestion
  // (documentsWithoutFilepath / backfillFilepath); the partial index finds them, and is empty once done.
  `ALTER TABLE chunks ADD COLUMN filepath TEXT;
   CREATE INDEX chunks_without_filepath ON chunks (tenant_id, document_id) WHERE filepath IS NULL;`,
  // Every write to a partition (rows added or removed, a document's metadata or filepath changed) moves its version in
  // the same transaction: a partition's saved copy (engine/snapshot.ts) is used only while its version is unchanged.
  `CREATE TABLE partition_versions (
     tenant_id TEXT NOT NULL, namespace TEXT NOT NULL, version INTEGER NOT NULL,
     PRIMARY KEY (tenant_id, namespace)) WITHOUT ROWID;`,
];

/** Partitions with at least this many live chunks are saved at close (smaller ones load from their rows in well under a second). */
export const SNAPSHOT_MIN_CHUNKS = 50_000;

/** A document's rows in every namespace of its tenant (every re-index reads it first; its plan is checked by a test). */
export const DOCUMENT_ROWS_SQL = "SELECT rid, namespace FROM chunks WHERE tenant_id = ? AND document_id = ?";

/** Rows a partition load reads per query (no statement stays open between pages, so a warm-up can pause). */
const LOAD_PAGE = 512;

const ROW_COLUMNS = "rid, id, tenant_id, namespace, document_id, position, content, start_offset, end_offset, token_count, doc, created_at, filepath";

interface ChunkRow {
  rid: number;
  id: string;
  tenant_id: string;
  namespace: string;
  document_id: string;
  position: number;
  content: string;
  start_offset: number;
  end_offset: number;
  token_count: number;
  doc: string;
  created_at: string;
  /** '' when the document has none, NULL when not known yet (a row of an earlier release). */
  filepath: string | null;
}

function fromRow(r: ChunkRow): Omit<IndexedChunk, "vector"> {
  const document: IndexedChunk["document"] = jsonColumn.read(r.doc) ?? { createdAt: r.created_at, updatedAt: r.created_at };
  delete document.filepath;
  if (r.filepath) document.filepath = r.filepath;
  return {
    id: r.id,
    tenantId: r.tenant_id,
    namespace: r.namespace,
    documentId: r.document_id,
    position: r.position,
    content: r.content,
    startOffset: r.start_offset,
    endOffset: r.end_offset,
    tokenCount: r.token_count,
    document,
    createdAt: r.created_at,
  };
}

/** What a filter or a document restriction needs to know about a chunk, kept in memory for loaded partitions. */
interface DocInfo {
  documentId: string;
  metadata: JsonObject | undefined;
  /** '' = none; null = not known yet (passes a filepath filter, for the caller to check). */
  filepath: string | null;
}

/** The stored document fields: the filepath has a column of its own. */
function docJson(document: IndexedChunk["document"]): string | null {
  if (document.filepath === undefined) return jsonColumn.write(document);
  const { filepath: _filepath, ...rest } = document;
  return jsonColumn.write(rest);
}

/** A chunk partition's id in the process's memory budget (shared with the memory store's). */
const budgetId = (key: string) => `chunks\u0000${key}`;

function splitKey(partition: string): [string, string] {
  const i = partition.indexOf("\u0000");
  return [partition.slice(0, i), partition.slice(i + 1)];
}

/**
 * Embedded chunk index: the durable rows live in one SQLite file
 * (<dataDir>/index.db, with each chunk's analysed terms and float32 vector);
 * searches run in the in-memory `SearchEngine`, one partition per (tenant,
 * namespace), loaded from the rows on first use. Writes go to SQLite first, in
 * one transaction, then to the loaded partitions. Another process writing the
 * same file is noticed through `PRAGMA data_version`: the loaded partitions
 * are then dropped and reloaded on demand.
 */
export class SqliteChunkIndex implements ChunkIndex {
  private readonly db: SqliteDatabase;
  private readonly stmt: (sql: string) => SqliteStatement;
  private readonly tx: <T>(fn: () => T) => T;
  readonly engine: SearchEngine;
  /** rid -> document id and metadata, for chunks of loaded partitions. */
  private readonly info = new Map<number, DocInfo>();
  /** Namespaces holding (or having held) chunks, per tenant. */
  private readonly namespaces = new Map<string, Set<string>>();
  private dataVersion: number;

  /** The process's memory budget for loaded partitions (residency.ts); none = every partition stays once loaded. */
  private readonly budget: PartitionBudget | undefined;

  /** Saved copies of large partitions (snapshot.ts), written at close and read back on load; none = always from the rows. */
  private readonly snapshots: SnapshotFiles | undefined;
  private readonly snapshotMinChunks: number;
  /** The version of each partition's saved copy, as last read or written by this process. */
  private readonly copyVersion = new Map<string, number>();

  /**
   * `snapshots`: a directory for the saved copies of partitions of `snapshotMinChunks` live chunks or more
   * (SNAPSHOT_MIN_CHUNKS), written by `close` and read instead of the rows when they still match them.
   */
  constructor(
    dataDir: string,
    opts: {
      budget?: PartitionBudget;
      snapshots?: string;
      snapshotMinChunks?: number;
      /** The engine's approximate dense pass (SearchEngineOptions.ann, onGraphsBuilt). */
      annMinVectors?: number;
      onGraphsBuilt?: SearchEngineOptions["onGraphsBuilt"];
      /** The models dense queries will use (SearchEngineOptions.vectorModels). */
      vectorModels?: readonly string[];
      /** Where large dense graphs are built (SearchEngineOptions.graphBuilder, onGraphBuildFailed). */
      graphBuilder?: SearchEngineOptions["graphBuilder"];
      onGraphBuildFailed?: SearchEngineOptions["onGraphBuildFailed"];
    } = {},
  ) {
    this.budget = opts.budget;
    this.db = openSqlite({ dataDir, name: "index", migrations: MIGRATIONS });
    this.stmt = statementCache(this.db);
    this.tx = transactor(this.db);
    this.snapshots = opts.snapshots === undefined ? undefined : new SnapshotFiles(opts.snapshots);
    this.snapshotMinChunks = opts.snapshotMinChunks ?? SNAPSHOT_MIN_CHUNKS;
    this.backfillTerms();
    for (const r of this.stmt("SELECT DISTINCT tenant_id, namespace FROM chunks").all() as { tenant_id: string; namespace: string }[])
      this.noteNamespace(r.tenant_id, r.namespace);
    this.engine = new SearchEngine({
      load: (p, o) => this.loadPartition(p, o),
      ...(this.snapshots ? { restore: (p: string) => this.restorePartition(p) } : {}),
      ...(opts.annMinVectors !== undefined ? { ann: { minVectors: opts.annMinVectors } } : {}),
      ...(opts.onGraphsBuilt ? { onGraphsBuilt: opts.onGraphsBuilt } : {}),
      ...(opts.vectorModels ? { vectorModels: opts.vectorModels } : {}),
      ...(opts.graphBuilder ? { graphBuilder: opts.graphBuilder } : {}),
      ...(opts.onGraphBuildFailed ? { onGraphBuildFailed: opts.onGraphBuildFailed } : {}),
    });
    this.dataVersion = this.readDataVersion();
  }

  /** Rows written by an earlier release have no stored analysis: compute it once. */
  private backfillTerms(): void {
    const select = this.stmt("SELECT rid, content FROM chunks WHERE terms IS NULL LIMIT 1000");
    const update = this.stmt("UPDATE chunks SET terms = ? WHERE rid = ?");
    for (;;) {
      const rows = select.all() as { rid: number; content: string }[];
      if (rows.length === 0) break;
      this.snapshots?.clear();
      this.tx(() => {
        for (const r of rows) update.run(analyzeForStorage(r.content), r.rid);
      });
    }
  }

  private readDataVersion(): number {
    // A cached statement: db.pragma() prepares anew on every call, and searches ask on every query.
    return this.stmt("PRAGMA data_version").pluck().get() as number;
  }

  /** Drops every loaded partition when another connection changed the file since we last looked. */
  private syncWithOtherWriters(): void {
    const v = this.readDataVersion();
    if (v === this.dataVersion) return;
    this.dataVersion = v;
    for (const [tenant, set] of this.namespaces)
      for (const ns of set) {
        this.engine.evict(partitionKey(tenant, ns));
        this.budget?.forget(budgetId(partitionKey(tenant, ns)));
      }
    this.info.clear();
    this.namespaces.clear();
    for (const r of this.stmt("SELECT DISTINCT tenant_id, namespace FROM chunks").all() as { tenant_id: string; namespace: string }[])
      this.noteNamespace(r.tenant_id, r.namespace);
  }

  private noteNamespace(tenantId: string, namespace: string): void {
    let set = this.namespaces.get(tenantId);
    if (!set) this.namespaces.set(tenantId, (set = new Set()));
    set.add(namespace);
  }

  private *loadPartition(partition: string, options?: LoadOptions): Iterable<EngineRecord> {
    const withVectors = options !== undefined && options.vectorModels.size > 0;
    for (const [rid, , , terms, model, vector] of this.partitionRows(partition, withVectors)) {
      const record: EngineRecord = { rid, analyzed: terms ?? "" };
      if (withVectors && vector && options!.vectorModels.has(model!)) {
        record.vector = new Float32Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
        record.model = model;
      }
      yield record;
    }
  }

  /** A partition's rows in rid order, a page at a time, each entered in the rid map (document, metadata, filepath) before it is yielded. */
  private *partitionRows(partition: string, withVectors: boolean): Generator<[number, string, string | null, string | null, string?, Buffer?]> {
    const [tenantId, namespace] = splitKey(partition);
    const page = this.stmt(
      `SELECT rid, document_id, filepath, terms${withVectors ? ", model, vector" : ""} FROM chunks WHERE tenant_id = ? AND namespace = ? AND rid > ? ORDER BY rid LIMIT ${LOAD_PAGE}`,
    ).raw(true);
    const docOf = this.stmt("SELECT rid, doc FROM chunks WHERE rid IN (SELECT value FROM json_each(?))").raw(true);
    // Chunks of one document share one parsed copy of its fields (those of its first chunk).
    const docs = new Map<string, DocInfo>();
    for (let after = 0; ;) {
      const rows = page.all(tenantId, namespace, after) as [number, string, string | null, string | null, string?, Buffer?][];
      if (rows.length === 0) return;
      after = rows[rows.length - 1]![0];
      // The first row of a document not seen yet is its first chunk (rows come in rid order).
      const firsts = new Map<string, number>();
      for (const r of rows) if (!docs.has(r[1]) && !firsts.has(r[1])) firsts.set(r[1], r[0]);
      if (firsts.size > 0) {
        const byRid = new Map(docOf.all(JSON.stringify([...firsts.values()])) as [number, string][]);
        for (const r of rows)
          if (!docs.has(r[1]))
            docs.set(r[1], { documentId: r[1], metadata: jsonColumn.read<IndexedChunk["document"]>(byRid.get(r[0]) ?? null)?.metadata, filepath: r[2] });
      }
      for (const row of rows) {
        this.info.set(row[0], docs.get(row[1])!);
        yield row;
      }
    }
  }

  /** Moves the version of partitions whose rows change in the transaction under way (their saved copies no longer apply). */
  private moved(tenantId: string, namespaces: Iterable<string>): void {
    const bump = this.stmt(
      "INSERT INTO partition_versions (tenant_id, namespace, version) VALUES (?, ?, 1) ON CONFLICT (tenant_id, namespace) DO UPDATE SET version = version + 1",
    );
    for (const ns of new Set(namespaces)) bump.run(tenantId, ns);
  }

  private partitionVersion(partition: string): number {
    const [tenantId, namespace] = splitKey(partition);
    return (
      (this.stmt("SELECT version FROM partition_versions WHERE tenant_id = ? AND namespace = ?").pluck().get(tenantId, namespace) as number | undefined) ?? 0
    );
  }

  /**
   * A partition's saved copy when it was saved at the partition's current version: the engine's part,
   * and the rid map's entries, which are entered now (as a load from the rows would). Undefined otherwise.
   */
  private restorePartition(partition: string): { bytes: Uint8Array } | undefined {
    const copy = this.snapshots!.read(partition);
    if (!copy || copy.sections.length !== 4 || copy.version !== this.partitionVersion(partition)) return undefined;
    this.copyVersion.set(partition, copy.version);
    const [docsJson, ridBytes, docIndexBytes, engine] = copy.sections as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    let docs: [string, JsonObject | null, string | null][];
    try {
      docs = JSON.parse(new TextDecoder().decode(docsJson)) as typeof docs;
    } catch {
      return undefined;
    }
    const rids = new Float64Array(ridBytes.buffer, ridBytes.byteOffset, ridBytes.byteLength / 8);
    const docIndex = new Uint32Array(docIndexBytes.buffer, docIndexBytes.byteOffset, docIndexBytes.byteLength / 4);
    if (rids.length !== docIndex.length) return undefined;
    const infos = docs.map(([documentId, metadata, filepath]) => ({ documentId, metadata: metadata ?? undefined, filepath }));
    for (let i = 0; i < rids.length; i++) {
      const d = infos[docIndex[i]!];
      if (!d) return undefined;
      this.info.set(rids[i]!, d);
    }
    return { bytes: engine };
  }

  /**
   * Saves the loaded partitions of `snapshotMinChunks` live chunks or more that changed since they were
   * loaded or saved, each with the partition's version and the rid map's entries for its records. A copy
   * that fails to save only makes the next start read the rows (reported to `onError`; the stack logs it).
   */
  saveSnapshots(onError?: (partition: string, err: unknown) => void): { partitions: number; bytes: number } {
    const out = { partitions: 0, bytes: 0 };
    if (!this.snapshots || !this.db.open) return out;
    for (const [tenant, set] of [...this.namespaces])
      for (const ns of [...set]) {
        const key = partitionKey(tenant, ns);
        if (this.engine.liveRecords(key) < this.snapshotMinChunks) continue;
        // The version first, then a check that no other process wrote since this one looked (else the partition is
        // dropped, not saved): the copy is then exactly the rows at that version.
        const version = this.partitionVersion(key);
        this.syncWithOtherWriters();
        // Saved when the partition changed in memory, or its rows did in a way memory does not show (a metadata update).
        const engine = this.engine.snapshot(key, this.copyVersion.get(key) !== version);
        if (!engine) continue;
        try {
          const rids = this.engine.loadedRids(key);
          const docIndex = new Uint32Array(rids.length);
          const seen = new Map<DocInfo, number>();
          const docs: [string, JsonObject | null, string | null][] = [];
          rids.forEach((rid, i) => {
            const d = this.info.get(rid);
            if (!d) throw new Error(`chunk ${rid} of a loaded partition has no document entry`);
            let at = seen.get(d);
            if (at === undefined) {
              seen.set(d, (at = docs.length));
              docs.push([d.documentId, d.metadata ?? null, d.filepath]);
            }
            docIndex[i] = at;
          });
          const ridBytes = Float64Array.from(rids);
          out.bytes += this.snapshots.write(key, version, [
            [new TextEncoder().encode(JSON.stringify(docs))],
            [new Uint8Array(ridBytes.buffer)],
            [new Uint8Array(docIndex.buffer)],
            engine,
          ]);
          out.partitions++;
          this.copyVersion.set(key, version);
        } catch (err) {
          this.copyVersion.delete(key);
          onError?.(key, err);
        }
      }
    return out;
  }

  /**
   * Loads every partition of the store into memory ahead of the first search, in slices of about
   * `sliceMs` with the event loop free in between (searches and writes meanwhile are served; a search
   * that needs a partition still loading loads it at once).
   */
  async warm(sliceMs = 20): Promise<void> {
    this.syncWithOtherWriters();
    // Most recently written first, while the memory budget has room: those are the likeliest to be searched.
    const scopes = this.stmt("SELECT tenant_id, namespace FROM chunks GROUP BY tenant_id, namespace ORDER BY MAX(rid) DESC").all() as {
      tenant_id: string;
      namespace: string;
    }[];
    for (const { tenant_id, namespace } of scopes) {
      if (this.budget && !this.budget.hasRoom()) break;
      const key = partitionKey(tenant_id, namespace);
      await this.engine.warm(key, sliceMs);
      if (this.engine.isLoaded(key)) this.resident([key]);
    }
  }

  /** Records a use of loaded partitions with the memory budget, which may then drop others (least recently used first). */
  private resident(keys: readonly string[]): void {
    const budget = this.budget;
    if (!budget) return;
    for (const key of keys)
      if (this.engine.isLoaded(key)) budget.use(budgetId(key), { measure: () => this.engine.partitionBytes(key), evict: () => this.unload(key) });
    budget.enforce(keys.map(budgetId));
  }

  /** Drops a loaded partition from memory, with its rows' document map; the next search reads it back. */
  private unload(key: string): void {
    for (const rid of this.engine.loadedRids(key)) this.info.delete(rid);
    this.engine.evict(key);
  }

  /**
   * One transaction: the document's stored generation is read, a write of an older one is refused (`stale`), else the
   * document's rows in every namespace are replaced and the generation recorded. Readers of the file (this process,
   * another one) see the rows before or after, never a mix.
   */
  async replaceDocumentChunks(tenantId: string, namespace: string, documentId: string, chunks: IndexedChunk[], generation: number): Promise<ReplaceOutcome> {
    assertGeneration(generation);
    for (const c of chunks)
      if (c.tenantId !== tenantId || c.namespace !== namespace || c.documentId !== documentId) throw new Error("chunk scope does not match its document");
    const insert = this.stmt(
      `INSERT INTO chunks (id, tenant_id, namespace, document_id, position, content, start_offset, end_offset, token_count, doc, created_at, vector, model, terms, generation, filepath)
       VALUES (@id, @tenantId, @namespace, @documentId, @position, @content, @startOffset, @endOffset, @tokenCount, @doc, @createdAt, @vector, @model, @terms, @generation, @filepath)`,
    );
    const stored = this.stmt("SELECT generation, deleted_through AS deletedThrough FROM document_generations WHERE tenant_id = ? AND document_id = ?");
    const record = this.stmt(
      `INSERT INTO document_generations (tenant_id, document_id, generation) VALUES (?, ?, ?)
       ON CONFLICT (tenant_id, document_id) DO UPDATE SET generation = excluded.generation`,
    );
    const analyzed = chunks.map((c) => c.analyzed ?? analyzeForStorage(c.content));
    const doc = chunks.length ? docJson(chunks[0]!.document) : null;
    const rids: number[] = [];
    this.syncWithOtherWriters();
    const removed = this.tx(() => {
      const known = stored.get(tenantId, documentId) as { generation: number; deletedThrough: number } | undefined;
      if (known && (known.generation > generation || known.deletedThrough >= generation)) return undefined;
      const gone = this.deleteSync(tenantId, undefined, documentId);
      record.run(tenantId, documentId, generation);
      this.moved(tenantId, [...(chunks.length ? [namespace] : []), ...gone.map((r) => r.namespace)]);
      chunks.forEach((c, i) => {
        const info = insert.run({
          id: c.id,
          tenantId,
          namespace,
          documentId,
          position: c.position,
          content: c.content,
          startOffset: c.startOffset,
          endOffset: c.endOffset,
          tokenCount: c.tokenCount,
          createdAt: c.createdAt,
          model: c.model ?? "",
          doc: i === 0 || c.document !== chunks[0]!.document ? docJson(c.document) : doc,
          filepath: c.document.filepath ?? "",
          vector: Buffer.from(c.vector.buffer, c.vector.byteOffset, c.vector.byteLength),
          terms: analyzed[i]!,
          generation,
        });
        rids.push(Number(info.lastInsertRowid));
      });
      return gone;
    });
    if (removed === undefined) return "stale";
    this.dataVersion = this.readDataVersion();
    this.forget(tenantId, removed);
    if (chunks.length === 0) return "written";
    this.noteNamespace(tenantId, namespace);
    const p = partitionKey(tenantId, namespace);
    if (!this.engine.isLoaded(p) && !this.engine.isWarming(p)) return "written";
    const infos = new Map<string, DocInfo>();
    const records: EngineRecord[] = chunks.map((c, i) => {
      const key = JSON.stringify([c.document.metadata ?? null, c.document.filepath ?? ""]);
      let d = infos.get(key);
      if (!d) infos.set(key, (d = { documentId, metadata: c.document.metadata, filepath: c.document.filepath ?? "" }));
      this.info.set(rids[i]!, d);
      return { rid: rids[i]!, analyzed: analyzed[i]!, vector: c.vector, ...(c.model !== undefined ? { model: c.model } : {}) };
    });
    this.engine.upsert(p, records);
    return "written";
  }

  /** Removes deleted rows from the loaded partitions and the rid map. */
  private forget(tenantId: string, removed: { rid: number; namespace: string }[]): void {
    const byNs = new Map<string, number[]>();
    for (const r of removed) {
      this.info.delete(r.rid);
      let list = byNs.get(r.namespace);
      if (!list) byNs.set(r.namespace, (list = []));
      list.push(r.rid);
    }
    for (const [ns, list] of byNs) this.engine.remove(partitionKey(tenantId, ns), list);
  }

  /** Deletes a document's chunks in one namespace, or in every namespace of the tenant when none is given. */
  private deleteSync(tenantId: string, namespace: string | undefined, documentId: string): { rid: number; namespace: string }[] {
    const scope = namespace === undefined ? "tenant_id = ? AND document_id = ?" : "tenant_id = ? AND namespace = ? AND document_id = ?";
    const args = namespace === undefined ? [tenantId, documentId] : [tenantId, namespace, documentId];
    const rows = this.stmt(namespace === undefined ? DOCUMENT_ROWS_SQL : `SELECT rid, namespace FROM chunks WHERE ${scope}`).all(...args) as {
      rid: number;
      namespace: string;
    }[];
    if (rows.length) this.stmt(`DELETE FROM chunks WHERE ${scope}`).run(...args);
    return rows;
  }

  async deleteDocument(tenantId: string, namespace: string, documentId: string, generation?: number): Promise<number> {
    const through = generation && generation > 0 ? generation : Number.MAX_SAFE_INTEGER;
    const mark = this.stmt(
      `INSERT INTO document_generations (tenant_id, document_id, generation, deleted_through) VALUES (?, ?, 0, ?)
       ON CONFLICT (tenant_id, document_id) DO UPDATE SET deleted_through = MAX(deleted_through, excluded.deleted_through)`,
    );
    const newer = this.stmt("SELECT COUNT(*) FROM chunks WHERE tenant_id = ? AND document_id = ? AND generation > ?").pluck();
    const elsewhere = this.stmt("SELECT COUNT(*) FROM chunks WHERE tenant_id = ? AND document_id = ? AND namespace <> ?").pluck();
    this.syncWithOtherWriters();
    const removed = this.tx(() => {
      // Chunks of a newer generation than the delete covers (new content after a withdrawal) stay.
      if ((newer.get(tenantId, documentId, through) as number) > 0) return [];
      const gone = this.deleteSync(tenantId, namespace, documentId);
      this.moved(
        tenantId,
        gone.map((r) => r.namespace),
      );
      // The document is gone (not merely absent from a namespace it never was in): later writes it covers are refused.
      if (gone.length > 0 || (elsewhere.get(tenantId, documentId, namespace) as number) === 0) mark.run(tenantId, documentId, through);
      return gone;
    });
    this.dataVersion = this.readDataVersion();
    this.forget(tenantId, removed);
    return removed.length;
  }

  async updateDocumentMetadata(
    tenantId: string,
    documentId: string,
    metadata: JsonObject | undefined,
    updatedAt: string,
    fields?: { filepath: string | undefined },
  ): Promise<number> {
    this.syncWithOtherWriters();
    const select = this.stmt("SELECT rid, namespace, doc, filepath FROM chunks WHERE tenant_id = ? AND document_id = ?");
    const upd = this.stmt("UPDATE chunks SET doc = ?, filepath = ? WHERE rid = ?");
    // Read and written in one transaction: a concurrent write of the document's chunks comes before or after, whole.
    const rows = this.tx(() => {
      const found = select.all(tenantId, documentId) as { rid: number; namespace: string; doc: string; filepath: string | null }[];
      this.moved(
        tenantId,
        found.map((r) => r.namespace),
      );
      for (const r of found) {
        const doc = jsonColumn.read<IndexedChunk["document"]>(r.doc) ?? { createdAt: updatedAt, updatedAt };
        if (fields) r.filepath = fields.filepath ?? "";
        upd.run(docJson({ ...doc, metadata, updatedAt }), r.filepath, r.rid);
      }
      return found;
    });
    this.dataVersion = this.readDataVersion();
    const infos = new Map<string | null, DocInfo>();
    for (const r of rows) {
      if (!this.info.has(r.rid)) continue;
      let d = infos.get(r.filepath);
      if (!d) infos.set(r.filepath, (d = { documentId, metadata, filepath: r.filepath }));
      this.info.set(r.rid, d);
    }
    return rows.length;
  }

  async documentsWithoutFilepath(limit: number): Promise<{ tenantId: string; documentId: string }[]> {
    const n = Math.max(0, Math.floor(limit));
    if (n === 0) return [];
    const rows = this.stmt("SELECT DISTINCT tenant_id, document_id FROM chunks WHERE filepath IS NULL LIMIT ?").all(n) as {
      tenant_id: string;
      document_id: string;
    }[];
    return rows.map((r) => ({ tenantId: r.tenant_id, documentId: r.document_id }));
  }

  async backfillFilepath(tenantId: string, documentId: string, filepath: string | undefined): Promise<number> {
    this.syncWithOtherWriters();
    const select = this.stmt("SELECT rid, namespace FROM chunks WHERE tenant_id = ? AND document_id = ? AND filepath IS NULL");
    const upd = this.stmt("UPDATE chunks SET filepath = ? WHERE tenant_id = ? AND document_id = ? AND filepath IS NULL");
    const rids = this.tx(() => {
      const found = select.all(tenantId, documentId) as { rid: number; namespace: string }[];
      if (found.length) upd.run(filepath ?? "", tenantId, documentId);
      this.moved(
        tenantId,
        found.map((r) => r.namespace),
      );
      return found.map((r) => r.rid);
    });
    this.dataVersion = this.readDataVersion();
    const infos = new Map<DocInfo, DocInfo>();
    for (const rid of rids) {
      const old = this.info.get(rid);
      if (!old) continue;
      let d = infos.get(old);
      if (!d) infos.set(old, (d = { ...old, filepath: filepath ?? "" }));
      this.info.set(rid, d);
    }
    return rids.length;
  }

  async listDocumentChunks(tenantId: string, namespace: string, documentId: string): Promise<Omit<IndexedChunk, "vector">[]> {
    const rows = this.stmt(`SELECT ${ROW_COLUMNS} FROM chunks WHERE tenant_id = ? AND namespace = ? AND document_id = ? ORDER BY position`).all(
      tenantId,
      namespace,
      documentId,
    ) as ChunkRow[];
    return rows.map(fromRow);
  }

  async listChunks(q: ListChunksQuery): Promise<{ items: Omit<IndexedChunk, "vector">[]; total: number }> {
    const dir = q.order === "desc" ? "DESC" : "ASC";
    const order = `ORDER BY created_at ${dir}, document_id ${dir}, position ${dir}`;
    const offset = Math.max(0, Math.floor(q.offset));
    const limit = Math.max(0, Math.floor(q.limit));
    if (!q.filter) {
      const total = (this.stmt("SELECT COUNT(*) AS n FROM chunks WHERE tenant_id = ? AND namespace = ?").get(q.tenantId, q.namespace) as { n: number }).n;
      const rows = this.stmt(`SELECT ${ROW_COLUMNS} FROM chunks WHERE tenant_id = ? AND namespace = ? ${order} LIMIT ? OFFSET ?`).all(
        q.tenantId,
        q.namespace,
        limit,
        offset,
      ) as ChunkRow[];
      return { items: rows.map(fromRow), total };
    }
    // Filtered: the filter runs on each document's metadata once, in list order; only the page is read in full.
    const filter = q.filter;
    const verdict = new Map<string, boolean>();
    const page: number[] = [];
    let total = 0;
    for (const r of this.stmt(`SELECT rid, document_id, doc FROM chunks WHERE tenant_id = ? AND namespace = ? ${order}`).iterate(
      q.tenantId,
      q.namespace,
    ) as Iterable<{
      rid: number;
      document_id: string;
      doc: string;
    }>) {
      let ok = verdict.get(r.document_id);
      if (ok === undefined) verdict.set(r.document_id, (ok = matchesFilter(filter, jsonColumn.read<IndexedChunk["document"]>(r.doc)?.metadata)));
      if (!ok) continue;
      if (total >= offset && page.length < limit) page.push(r.rid);
      total++;
    }
    return { items: this.rowsByRid(page).map(fromRow), total };
  }

  /** Rows by rid, in the order given (missing rows skipped). */
  private rowsByRid(rids: number[]): ChunkRow[] {
    if (rids.length === 0) return [];
    const rows = this.stmt(`SELECT ${ROW_COLUMNS} FROM chunks WHERE rid IN (SELECT value FROM json_each(?))`).all(JSON.stringify(rids)) as ChunkRow[];
    const byRid = new Map(rows.map((r) => [r.rid, r]));
    return rids.flatMap((rid) => byRid.get(rid) ?? []);
  }

  /** Record predicate of a query: document restriction and metadata filter, each document's verdict computed once. */
  private acceptFor(documentId: string | undefined, filter: FilterExpr | undefined, filepath: string | undefined): ((rid: number) => boolean) | undefined {
    if (documentId === undefined && !filter && !filepath) return undefined;
    const verdict = new Map<DocInfo, boolean>();
    return (rid) => {
      const d = this.info.get(rid);
      if (!d) return false;
      let ok = verdict.get(d);
      if (ok === undefined) {
        ok =
          (documentId === undefined || d.documentId === documentId) &&
          // A filepath not known yet passes: the caller checks it (see ChunkSearchQuery.filepath).
          (!filepath || d.filepath === null || matchesFilepath(d.filepath || undefined, filepath)) &&
          (!filter || matchesFilter(filter, d.metadata));
        verdict.set(d, ok);
      }
      return ok;
    };
  }

  async search(q: ChunkSearchQuery): Promise<ChunkHit[]> {
    this.syncWithOtherWriters();
    const namespaces = q.namespaces ?? [...(this.namespaces.get(q.tenantId) ?? [])];
    if (namespaces.length === 0) return [];
    const denseWeight = q.denseWeight ?? 0.5;
    const keys = namespaces.map((ns) => partitionKey(q.tenantId, ns));
    const hits = this.engine.search({
      partitions: keys,
      text: q.text,
      vector: q.vector,
      // Chunks stored without a model id carry "" (vectors of an unnamed embedder compare with each other only).
      model: q.model ?? "",
      denseWeight,
      limit: q.limit,
      accept: this.acceptFor(q.documentId, q.filter, q.filepath),
    });
    const kept = this.select(hits, q.minSimilarity, q.group);
    this.resident(keys);
    const rows = this.rowsByRid(kept.map((h) => h.rid));
    const byRid = new Map(rows.map((r) => [r.rid, r]));
    return kept.flatMap((h) => {
      const row = byRid.get(h.rid);
      if (!row) return [];
      return [{ chunk: fromRow(row), score: h.score, similarity: h.similarity, keywordScore: h.keywordScore, vectorScore: h.vectorScore }];
    });
  }

  /**
   * The hits a query reads back, in rank order: those at or above the similarity floor and, when grouped,
   * within the first `documents` documents and the first `chunksPerDocument` chunks of each (the document
   * comes from the in-memory rid map; a rid missing from it counts as a document of its own).
   */
  private select(hits: EngineHit[], minSimilarity: number | undefined, group: ChunkSearchQuery["group"]): EngineHit[] {
    if (minSimilarity === undefined && !group) return hits;
    const out: EngineHit[] = [];
    const perDocument = new Map<string | number, number>();
    for (const h of hits) {
      if (minSimilarity !== undefined && h.similarity < minSimilarity) continue;
      if (group) {
        const doc = this.info.get(h.rid)?.documentId ?? h.rid;
        const seen = perDocument.get(doc) ?? 0;
        if (seen === 0 ? perDocument.size >= group.documents : seen >= group.chunksPerDocument) continue;
        perDocument.set(doc, seen + 1);
      }
      out.push(h);
    }
    return out;
  }

  /** Closes the store; the partitions worth it are saved first (saveSnapshots). */
  async close(onSnapshotError?: (partition: string, err: unknown) => void): Promise<void> {
    if (!this.db.open) return;
    this.engine.close();
    this.saveSnapshots(onSnapshotError);
    this.db.close();
  }
}
