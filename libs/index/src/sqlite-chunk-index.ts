import { openSqlite, jsonColumn, type SqliteDatabase, type SqliteStatement, statementCache, transactor } from "@engram/storage";
import { type FilterExpr, matchesFilter } from "@engram/filters";
import type { JsonObject } from "@engram/kernel";
import type { ChunkHit, ChunkIndex, ChunkSearchQuery, IndexedChunk } from "./chunk-index";
import { analyze } from "./text";
import { dot } from "./embedder";
import { fuse, keywordCoverage } from "./scoring";

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
];

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
}

function fromRow(r: ChunkRow): Omit<IndexedChunk, "vector"> {
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
    document: jsonColumn.read(r.doc) ?? { createdAt: r.created_at, updatedAt: r.created_at },
    createdAt: r.created_at,
  };
}

/** FTS5 query from analysed terms: each term quoted (no operator injection), OR-ed. */
export function ftsQuery(text: string): string | undefined {
  const terms = [...new Set(analyze(text))].slice(0, 64);
  if (terms.length === 0) return undefined;
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(" OR ");
}

const CANDIDATES = 200;

/**
 * Embedded chunk index: one SQLite file (<dataDir>/index.db) with a
 * contentless FTS5 table over analysed terms (BM25) and float32 vectors
 * scanned exactly (cosine). Shared by the worker (writer) and recall (reader).
 */
export class SqliteChunkIndex implements ChunkIndex {
  private readonly db: SqliteDatabase;
  private readonly stmt: (sql: string) => SqliteStatement;
  private readonly tx: <T>(fn: () => T) => T;

  constructor(dataDir: string) {
    this.db = openSqlite({ dataDir, name: "index", migrations: MIGRATIONS });
    this.stmt = statementCache(this.db);
    this.tx = transactor(this.db);
  }

  async replaceDocumentChunks(tenantId: string, namespace: string, documentId: string, chunks: IndexedChunk[]): Promise<void> {
    const insert = this.stmt(
      `INSERT INTO chunks (id, tenant_id, namespace, document_id, position, content, start_offset, end_offset, token_count, doc, created_at, vector, model)
       VALUES (@id, @tenantId, @namespace, @documentId, @position, @content, @startOffset, @endOffset, @tokenCount, @doc, @createdAt, @vector, @model)`,
    );
    const insertFts = this.stmt("INSERT INTO chunks_fts (rowid, terms) VALUES (?, ?)");
    this.tx(() => {
      this.deleteSync(tenantId, undefined, documentId);
      for (const c of chunks) {
        if (c.tenantId !== tenantId || c.namespace !== namespace || c.documentId !== documentId) throw new Error("chunk scope does not match its document");
        const info = insert.run({
          ...c,
          model: c.model ?? "",
          doc: jsonColumn.write(c.document),
          vector: Buffer.from(c.vector.buffer, c.vector.byteOffset, c.vector.byteLength),
        });
        insertFts.run(info.lastInsertRowid, analyze(c.content).join(" "));
      }
    });
  }

  /** Deletes a document's chunks in one namespace, or in every namespace of the tenant when none is given. */
  private deleteSync(tenantId: string, namespace: string | undefined, documentId: string): number {
    const scope = namespace === undefined ? "tenant_id = ? AND document_id = ?" : "tenant_id = ? AND namespace = ? AND document_id = ?";
    const args = namespace === undefined ? [tenantId, documentId] : [tenantId, namespace, documentId];
    const rids = this.stmt(`SELECT rid FROM chunks WHERE ${scope}`).all(...args) as { rid: number }[];
    const delFts = this.stmt("DELETE FROM chunks_fts WHERE rowid = ?");
    for (const r of rids) delFts.run(r.rid);
    this.stmt(`DELETE FROM chunks WHERE ${scope}`).run(...args);
    return rids.length;
  }

  async deleteDocument(tenantId: string, namespace: string, documentId: string): Promise<number> {
    return this.tx(() => this.deleteSync(tenantId, namespace, documentId));
  }

  async updateDocumentMetadata(tenantId: string, documentId: string, metadata: JsonObject | undefined, updatedAt: string): Promise<number> {
    const rows = this.stmt("SELECT rid, doc FROM chunks WHERE tenant_id = ? AND document_id = ?").all(tenantId, documentId) as {
      rid: number;
      doc: string;
    }[];
    const upd = this.stmt("UPDATE chunks SET doc = ? WHERE rid = ?");
    this.tx(() => {
      for (const r of rows) {
        const doc = jsonColumn.read<IndexedChunk["document"]>(r.doc) ?? { createdAt: updatedAt, updatedAt };
        upd.run(jsonColumn.write({ ...doc, metadata, updatedAt }), r.rid);
      }
    });
    return rows.length;
  }

  async listDocumentChunks(tenantId: string, namespace: string, documentId: string): Promise<Omit<IndexedChunk, "vector">[]> {
    const rows = this.stmt("SELECT * FROM chunks WHERE tenant_id = ? AND namespace = ? AND document_id = ? ORDER BY position").all(
      tenantId,
      namespace,
      documentId,
    ) as ChunkRow[];
    return rows.map(fromRow);
  }

  /** Chunks (rowids) of the scope whose document metadata passes the filter. */
  private allowedRids(scope: string, scopeArgs: unknown[], filter: FilterExpr): Set<number> {
    const out = new Set<number>();
    for (const r of this.stmt(`SELECT c.rid AS rid, c.doc AS doc FROM chunks c WHERE ${scope}`).iterate(...scopeArgs) as Iterable<{
      rid: number;
      doc: string;
    }>) {
      if (matchesFilter(filter, jsonColumn.read<IndexedChunk["document"]>(r.doc)?.metadata)) out.add(r.rid);
    }
    return out;
  }

  async search(q: ChunkSearchQuery): Promise<ChunkHit[]> {
    if (q.namespaces && q.namespaces.length === 0) return [];
    const ns = q.namespaces ? ` AND c.namespace IN (${q.namespaces.map(() => "?").join(",")})` : "";
    const scope = `c.tenant_id = ?${ns}${q.documentId ? " AND c.document_id = ?" : ""}`;
    const scopeArgs: unknown[] = [q.tenantId, ...(q.namespaces ?? []), ...(q.documentId ? [q.documentId] : [])];
    const allowed = q.filter ? this.allowedRids(scope, scopeArgs, q.filter) : undefined;

    const keyword = new Map<number, number>();
    const match = ftsQuery(q.text);
    if (match) {
      // Filtered searches rank every keyword match, then keep the allowed ones.
      const limit = allowed ? "" : ` LIMIT ${CANDIDATES}`;
      const rows = this.stmt(
        `SELECT c.rid AS rid, -bm25(chunks_fts) AS s FROM chunks_fts JOIN chunks c ON c.rid = chunks_fts.rowid WHERE chunks_fts MATCH ? AND ${scope} ORDER BY bm25(chunks_fts)${limit}`,
      ).all(match, ...scopeArgs) as { rid: number; s: number }[];
      for (const r of rows) {
        if (allowed && !allowed.has(r.rid)) continue;
        keyword.set(r.rid, r.s);
        if (keyword.size >= CANDIDATES) break;
      }
    }

    const dense = new Map<number, number>();
    const sameModel = q.model === undefined ? "" : " AND c.model = ?";
    // Without a dense weight the exact scan would only feed similarity: skip it and score the final rows alone.
    const scanDense = q.denseWeight === undefined || q.denseWeight > 0;
    const vecRows = (
      !scanDense
        ? []
        : this.stmt(`SELECT c.rid AS rid, c.vector AS vector FROM chunks c WHERE ${scope}${sameModel}`).all(
            ...scopeArgs,
            ...(q.model === undefined ? [] : [q.model]),
          )
    ) as {
      rid: number;
      vector: Buffer;
    }[];
    const scored: { rid: number; s: number }[] = [];
    for (const r of vecRows) {
      if (allowed && !allowed.has(r.rid)) continue;
      const v = new Float32Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength / 4);
      scored.push({ rid: r.rid, s: dot(q.vector, v) });
    }
    scored.sort((a, b) => b.s - a.s);
    for (const r of scored.slice(0, CANDIDATES)) dense.set(r.rid, r.s);

    const fused = fuse(keyword, dense, q.denseWeight).slice(0, q.limit);
    if (fused.length === 0) return [];
    const rows = this.stmt(`SELECT * FROM chunks WHERE rid IN (${fused.map(() => "?").join(",")})`).all(...fused.map((f) => f.rid)) as ChunkRow[];
    const byRid = new Map(rows.map((r) => [r.rid, r]));
    const queryTerms = analyze(q.text);
    return fused.flatMap((f) => {
      const row = byRid.get(f.rid);
      if (!row) return [];
      const own = row as ChunkRow & { vector: Buffer; model: string };
      const vectorScore =
        dense.get(f.rid) ??
        (!scanDense && (q.model === undefined || own.model === q.model)
          ? dot(q.vector, new Float32Array(own.vector.buffer, own.vector.byteOffset, own.vector.byteLength / 4))
          : 0);
      const coverage = keywordCoverage(queryTerms, row.content);
      return [
        {
          chunk: fromRow(row),
          score: f.score,
          similarity: Math.max(0, Math.min(1, Math.max(vectorScore, coverage))),
          keywordScore: keyword.get(f.rid) ?? 0,
          vectorScore,
        },
      ];
    });
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
