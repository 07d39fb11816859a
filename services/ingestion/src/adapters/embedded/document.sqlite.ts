import { OUTBOX_TABLE_SQL, type OutgoingMessage, SqliteOutbox } from "@engram/bus";
import { AlreadyExistsError } from "@engram/kernel";
import { jsonColumn, openSqlite, type SqliteDatabase } from "@engram/storage";
import type { DocumentRecord } from "../../domain/document";
import type { DocumentRepository } from "../../app/ports";

const MIGRATIONS = [
  `CREATE TABLE documents (
     id TEXT PRIMARY KEY,
     tenant_id TEXT NOT NULL, namespace TEXT NOT NULL, custom_id TEXT,
     content TEXT NOT NULL, supporting_context TEXT, metadata TEXT, grp TEXT, date TEXT, filepath TEXT,
     status TEXT NOT NULL, status_reason TEXT, task_type TEXT NOT NULL, dreaming TEXT NOT NULL,
     source_kind TEXT NOT NULL, url TEXT, title TEXT, content_type TEXT,
     content_hash TEXT NOT NULL, generation INTEGER NOT NULL, state_sequence INTEGER NOT NULL,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE UNIQUE INDEX documents_custom_id ON documents (tenant_id, namespace, custom_id) WHERE custom_id IS NOT NULL;
   CREATE INDEX documents_by_scope ON documents (tenant_id, namespace, created_at);
   CREATE INDEX documents_by_custom_id ON documents (tenant_id, custom_id, updated_at) WHERE custom_id IS NOT NULL;
   CREATE INDEX documents_by_status ON documents (status, updated_at);
   ${OUTBOX_TABLE_SQL}`,
];

interface Row {
  id: string;
  tenant_id: string;
  namespace: string;
  custom_id: string | null;
  content: string;
  supporting_context: string | null;
  metadata: string | null;
  grp: string | null;
  date: string | null;
  filepath: string | null;
  status: string;
  status_reason: string | null;
  task_type: string;
  dreaming: string;
  source_kind: string;
  url: string | null;
  title: string | null;
  content_type: string | null;
  content_hash: string;
  generation: number;
  state_sequence: number;
  created_at: string;
  updated_at: string;
}

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

function fromRow(r: Row): DocumentRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    namespace: r.namespace,
    customId: opt(r.custom_id),
    content: r.content,
    supportingContext: opt(r.supporting_context),
    metadata: jsonColumn.read(r.metadata),
    group: jsonColumn.read(r.grp),
    date: opt(r.date),
    filepath: opt(r.filepath),
    status: r.status as DocumentRecord["status"],
    statusReason: opt(r.status_reason),
    taskType: r.task_type as DocumentRecord["taskType"],
    dreaming: r.dreaming as DocumentRecord["dreaming"],
    sourceKind: r.source_kind as DocumentRecord["sourceKind"],
    url: opt(r.url),
    title: opt(r.title),
    contentType: opt(r.content_type),
    contentHash: r.content_hash,
    generation: r.generation,
    stateSequence: r.state_sequence,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toParams(d: DocumentRecord): Record<string, unknown> {
  return {
    id: d.id,
    tenant_id: d.tenantId,
    namespace: d.namespace,
    custom_id: d.customId ?? null,
    content: d.content,
    supporting_context: d.supportingContext ?? null,
    metadata: jsonColumn.write(d.metadata),
    grp: jsonColumn.write(d.group),
    date: d.date ?? null,
    filepath: d.filepath ?? null,
    status: d.status,
    status_reason: d.statusReason ?? null,
    task_type: d.taskType,
    dreaming: d.dreaming,
    source_kind: d.sourceKind,
    url: d.url ?? null,
    title: d.title ?? null,
    content_type: d.contentType ?? null,
    content_hash: d.contentHash,
    generation: d.generation,
    state_sequence: d.stateSequence,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

const COLUMNS = Object.keys(toParams({} as DocumentRecord));

/** Embedded document store: <dataDir>/ingestion.db with the outbox beside the documents. */
export class SqliteDocumentRepository implements DocumentRepository {
  readonly db: SqliteDatabase;
  readonly outbox: SqliteOutbox;
  private readonly insertStmt;
  private readonly updateStmt;

  constructor(dataDir: string) {
    this.db = openSqlite({ dataDir, name: "ingestion", migrations: MIGRATIONS });
    this.outbox = new SqliteOutbox(this.db);
    this.insertStmt = this.db.prepare(`INSERT INTO documents (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map((c) => "@" + c).join(", ")})`);
    this.updateStmt = this.db.prepare(
      `UPDATE documents SET ${COLUMNS.filter((c) => c !== "id")
        .map((c) => `${c} = @${c}`)
        .join(", ")}
       WHERE id = @id AND tenant_id = @tenant_id AND updated_at = @prev_updated_at AND generation = @prev_generation AND state_sequence = @prev_state_sequence`,
    );
  }

  async findById(tenantId: string, id: string): Promise<DocumentRecord | undefined> {
    const r = this.db.prepare("SELECT * FROM documents WHERE tenant_id = ? AND id = ?").get(tenantId, id) as Row | undefined;
    return r && fromRow(r);
  }

  async findByCustomId(tenantId: string, namespace: string, customId: string): Promise<DocumentRecord | undefined> {
    const r = this.db.prepare("SELECT * FROM documents WHERE tenant_id = ? AND namespace = ? AND custom_id = ?").get(tenantId, namespace, customId) as
      Row | undefined;
    return r && fromRow(r);
  }

  async findByCustomIdInTenant(tenantId: string, customId: string): Promise<DocumentRecord | undefined> {
    const r = this.db.prepare("SELECT * FROM documents WHERE tenant_id = ? AND custom_id = ? ORDER BY updated_at DESC LIMIT 1").get(tenantId, customId) as
      Row | undefined;
    return r && fromRow(r);
  }

  async insert(doc: DocumentRecord, events: OutgoingMessage[]): Promise<void> {
    try {
      this.db.transaction(() => {
        this.insertStmt.run(toParams(doc));
        this.outbox.add(events);
      })();
    } catch (err) {
      if ((err as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE")
        throw new AlreadyExistsError(`a document with id ${doc.customId} already exists in ${doc.namespace}`);
      throw err;
    }
  }

  async update(previous: DocumentRecord, next: DocumentRecord, events: OutgoingMessage[]): Promise<boolean> {
    return this.db.transaction(() => {
      const res = this.updateStmt.run({
        ...toParams(next),
        prev_updated_at: previous.updatedAt,
        prev_generation: previous.generation,
        prev_state_sequence: previous.stateSequence,
      });
      if (res.changes !== 1) return false;
      this.outbox.add(events);
      return true;
    })();
  }

  async listStale(olderThan: string, limit: number): Promise<DocumentRecord[]> {
    const rows = this.db
      .prepare("SELECT * FROM documents WHERE status NOT IN ('done', 'failed') AND updated_at < ? ORDER BY updated_at LIMIT ?")
      .all(olderThan, limit) as Row[];
    return rows.map(fromRow);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
