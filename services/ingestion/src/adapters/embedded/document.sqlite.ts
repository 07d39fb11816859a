import { OUTBOX_TABLE_SQL, type OutgoingMessage, SqliteOutbox } from "@engram/bus";
import { AlreadyExistsError, DOCUMENT_STATUSES, isFinalStatus, type ProfileBucket } from "@engram/kernel";
import { jsonColumn, openSqlite, type SqliteDatabase, type SqliteStatement, statementCache, transactor } from "@engram/storage";
import type { DocumentRecord } from "../../domain/document";
import type { ContainerTagRepository, DocumentListQuery, DocumentListResult, DocumentRepository, DocumentWrite } from "../../app/ports";
import type { ContainerTagMerge, ContainerTagSettings, NamespaceDocumentStats } from "../../domain/container-tag";
import { matchesFilter } from "@engram/filters";

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
  `ALTER TABLE documents ADD COLUMN file TEXT;
   ALTER TABLE documents ADD COLUMN container_tags TEXT;
   CREATE INDEX documents_by_tenant_status ON documents (tenant_id, status, updated_at);`,
  `ALTER TABLE documents ADD COLUMN requeues INTEGER NOT NULL DEFAULT 0;`,
  `ALTER TABLE documents ADD COLUMN connection_id TEXT;
   CREATE INDEX documents_by_connection ON documents (tenant_id, connection_id, created_at) WHERE connection_id IS NOT NULL;`,
  // Container-tag settings (PATCH /v3/container-tags/{tag}); the tags' statistics come from documents_by_scope.
  `CREATE TABLE container_tags (
     tenant_id TEXT NOT NULL, namespace TEXT NOT NULL,
     name TEXT, entity_context TEXT, memory_filesystem_paths TEXT, profile_buckets TEXT NOT NULL,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
     PRIMARY KEY (tenant_id, namespace)) WITHOUT ROWID;`,
  // Container-tag merge jobs (POST /v3/container-tags/merge): the record is the job, claimed by a replica with a lease.
  `CREATE TABLE container_tag_merges (
     id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, job TEXT NOT NULL,   -- job: the ContainerTagMerge as JSON
     status TEXT NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID;
   CREATE INDEX container_tag_merges_unfinished ON container_tag_merges (created_at) WHERE status IN ('queued', 'running');`,
  // The summary the pipeline makes of each document's text.
  `ALTER TABLE documents ADD COLUMN summary TEXT;`,
];

/** Per-tag document statistics of a tenant (one tag when @namespace is set). */
export const NAMESPACE_STATS_SQL = `SELECT namespace, count(*) AS n, min(created_at) AS first_created, max(updated_at) AS last_updated FROM documents
  WHERE tenant_id = @tenant_id AND (@namespace IS NULL OR namespace = @namespace) GROUP BY namespace ORDER BY namespace`;

interface TagRow {
  tenant_id: string;
  namespace: string;
  name: string | null;
  entity_context: string | null;
  memory_filesystem_paths: string | null;
  profile_buckets: string;
  created_at: string;
  updated_at: string;
}

const fromTagRow = (r: TagRow): ContainerTagSettings => ({
  tenantId: r.tenant_id,
  namespace: r.namespace,
  name: r.name,
  entityContext: r.entity_context,
  memoryFilesystemPaths: r.memory_filesystem_paths === null ? null : (JSON.parse(r.memory_filesystem_paths) as string[]),
  profileBuckets: JSON.parse(r.profile_buckets) as ProfileBucket[],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

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
  summary: string | null;
  content_hash: string;
  generation: number;
  state_sequence: number;
  requeues: number;
  created_at: string;
  updated_at: string;
  file: string | null;
  container_tags: string | null;
  connection_id: string | null;
}

/**
 * The stale-document sweep's statement (RequeueStaleUseCase, every INGESTION_STALE_SWEEP_MS). The non-final statuses are
 * spelled out: with `status NOT IN ('done', 'failed')` SQLite scanned every document (nearly all of them final) and sorted
 * the matches on every sweep; an IN list reads documents_by_status (status, updated_at) up to the cut-off for each status,
 * so a sweep costs the stale documents it finds. Its plan is checked by a test.
 */
export const STALE_DOCUMENTS_SQL = `SELECT * FROM documents WHERE status IN (${DOCUMENT_STATUSES.filter((s) => !isFinalStatus(s))
  .map((s) => `'${s}'`)
  .join(", ")}) AND updated_at < ? ORDER BY updated_at LIMIT ?`;

/** Every column of a document row but its content, which is "" and measured (content_bytes, UTF-8). */
export const WITHOUT_CONTENT_COLUMNS = `${[
  "id",
  "tenant_id",
  "namespace",
  "custom_id",
  "supporting_context",
  "metadata",
  "grp",
  "date",
  "filepath",
  "status",
  "status_reason",
  "task_type",
  "dreaming",
  "source_kind",
  "url",
  "title",
  "content_type",
  "summary",
  "content_hash",
  "generation",
  "state_sequence",
  "requeues",
  "created_at",
  "updated_at",
  "file",
  "container_tags",
  "connection_id",
].join(", ")}, '' AS content, octet_length(content) AS content_bytes`;

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
    summary: opt(r.summary),
    contentHash: r.content_hash,
    generation: r.generation,
    stateSequence: r.state_sequence,
    requeues: r.requeues || undefined,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    file: jsonColumn.read(r.file),
    containerTags: jsonColumn.read(r.container_tags),
    connectionId: opt(r.connection_id),
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
    summary: d.summary ?? null,
    content_hash: d.contentHash,
    generation: d.generation,
    state_sequence: d.stateSequence,
    requeues: d.requeues ?? 0,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
    file: jsonColumn.write(d.file),
    container_tags: jsonColumn.write(d.containerTags?.length ? d.containerTags : undefined),
    connection_id: d.connectionId ?? null,
  };
}

const COLUMNS = Object.keys(toParams({} as DocumentRecord));

/** Embedded document store: <dataDir>/ingestion.db with the outbox beside the documents. */
export class SqliteDocumentRepository implements DocumentRepository, ContainerTagRepository {
  readonly db: SqliteDatabase;
  private readonly stmt: (sql: string) => SqliteStatement;
  private readonly tx: <T>(fn: () => T) => T;
  readonly outbox: SqliteOutbox;
  private readonly insertStmt;
  private readonly updateStmt;

  constructor(dataDir: string) {
    this.db = openSqlite({ dataDir, name: "ingestion", migrations: MIGRATIONS });
    this.stmt = statementCache(this.db);
    this.tx = transactor(this.db);
    this.outbox = new SqliteOutbox(this.db);
    this.insertStmt = this.stmt(`INSERT INTO documents (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map((c) => "@" + c).join(", ")})`);
    this.updateStmt = this.stmt(
      `UPDATE documents SET ${COLUMNS.filter((c) => c !== "id")
        .map((c) => `${c} = @${c}`)
        .join(", ")}
       WHERE id = @id AND tenant_id = @tenant_id AND updated_at = @prev_updated_at AND generation = @prev_generation AND state_sequence = @prev_state_sequence`,
    );
  }

  async ownersOf(ids: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      const part = unique.slice(i, i + 500);
      const rows = this.stmt(`SELECT id, tenant_id FROM documents WHERE id IN (${part.map(() => "?").join(",")})`).all(...part) as {
        id: string;
        tenant_id: string;
      }[];
      for (const r of rows) out.set(r.id, r.tenant_id);
    }
    return out;
  }

  async findById(tenantId: string, id: string): Promise<DocumentRecord | undefined> {
    const r = this.stmt("SELECT * FROM documents WHERE tenant_id = ? AND id = ?").get(tenantId, id) as Row | undefined;
    return r && fromRow(r);
  }

  async findByCustomId(tenantId: string, namespace: string, customId: string): Promise<DocumentRecord | undefined> {
    const r = this.stmt("SELECT * FROM documents WHERE tenant_id = ? AND namespace = ? AND custom_id = ?").get(tenantId, namespace, customId) as
      Row | undefined;
    return r && fromRow(r);
  }

  async findByCustomIds(tenantId: string, namespace: string, customIds: string[]): Promise<Map<string, DocumentRecord>> {
    const out = new Map<string, DocumentRecord>();
    const unique = [...new Set(customIds)];
    for (let i = 0; i < unique.length; i += 500) {
      const part = unique.slice(i, i + 500);
      const rows = this.stmt(`SELECT * FROM documents WHERE tenant_id = ? AND namespace = ? AND custom_id IN (${part.map(() => "?").join(",")})`).all(
        tenantId,
        namespace,
        ...part,
      ) as Row[];
      for (const r of rows) out.set(r.custom_id!, fromRow(r));
    }
    return out;
  }

  async findByCustomIdInTenant(tenantId: string, customId: string): Promise<DocumentRecord | undefined> {
    const r = this.stmt("SELECT * FROM documents WHERE tenant_id = ? AND custom_id = ? ORDER BY updated_at DESC LIMIT 1").get(tenantId, customId) as
      Row | undefined;
    return r && fromRow(r);
  }

  async insert(doc: DocumentRecord, events: OutgoingMessage[]): Promise<void> {
    try {
      this.tx(() => {
        this.insertStmt.run(toParams(doc));
        this.outbox.add(events);
      });
    } catch (err) {
      if ((err as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE")
        throw new AlreadyExistsError(`a document with id ${doc.customId} already exists in ${doc.namespace}`);
      throw err;
    }
  }

  async update(previous: DocumentRecord, next: DocumentRecord, events: OutgoingMessage[]): Promise<boolean> {
    try {
      return this.updateTx(previous, next, events);
    } catch (err) {
      if ((err as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE")
        throw new AlreadyExistsError(`a document with id ${next.customId} already exists in ${next.namespace}`);
      throw err;
    }
  }

  private updateTx(previous: DocumentRecord, next: DocumentRecord, events: OutgoingMessage[]): boolean {
    return this.tx(() => {
      const res = this.updateStmt.run({
        ...toParams(next),
        prev_updated_at: previous.updatedAt,
        prev_generation: previous.generation,
        prev_state_sequence: previous.stateSequence,
      });
      if (res.changes !== 1) return false;
      this.outbox.add(events);
      return true;
    });
  }

  async writeMany(writes: DocumentWrite[]): Promise<boolean[]> {
    return this.tx(() =>
      writes.map((w) => {
        try {
          // Each write in its own savepoint: a lost race fails that item only.
          return this.tx(() => {
            if (!w.previous) this.insertStmt.run(toParams(w.next));
            else {
              const res = this.updateStmt.run({
                ...toParams(w.next),
                prev_updated_at: w.previous.updatedAt,
                prev_generation: w.previous.generation,
                prev_state_sequence: w.previous.stateSequence,
              });
              if (res.changes !== 1) return false;
            }
            this.outbox.add(w.events);
            return true;
          });
        } catch (err) {
          if ((err as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") return false;
          throw err;
        }
      }),
    );
  }

  async delete(docs: DocumentRecord[], events: OutgoingMessage[]): Promise<string[]> {
    const del = this.stmt("DELETE FROM documents WHERE tenant_id = ? AND id = ?");
    return this.tx(() => {
      const removed = docs.filter((d) => del.run(d.tenantId, d.id).changes === 1).map((d) => d.id);
      const keep = new Set(removed);
      // Only events of documents that were really removed are published.
      this.outbox.add(events.filter((e) => keep.has(e.key)));
      return removed;
    });
  }

  async list(q: DocumentListQuery): Promise<DocumentListResult> {
    const where: string[] = ["tenant_id = ?"];
    const args: unknown[] = [q.tenantId];
    if (q.namespaces) {
      if (q.namespaces.length === 0) return { items: [], total: 0 };
      where.push(`namespace IN (${q.namespaces.map(() => "?").join(",")})`);
      args.push(...q.namespaces);
    }
    if (q.statuses?.length) {
      where.push(`status IN (${q.statuses.map(() => "?").join(",")})`);
      args.push(...q.statuses);
    }
    if (q.connectionId !== undefined) {
      where.push("connection_id = ?");
      args.push(q.connectionId);
    }
    if (q.filepath) {
      if (q.filepath.endsWith("/")) {
        where.push("substr(filepath, 1, ?) = ?");
        args.push(q.filepath.length, q.filepath);
      } else {
        where.push("filepath = ?");
        args.push(q.filepath);
      }
    }
    const order = `${q.sort === "updatedAt" ? "updated_at" : "created_at"} ${q.order === "asc" ? "ASC" : "DESC"}, id ${q.order === "asc" ? "ASC" : "DESC"}`;
    const sql = `FROM documents WHERE ${where.join(" AND ")}`;
    // Without content: its size only (octet_length reads the stored length, not the text).
    const columns = q.withoutContent ? WITHOUT_CONTENT_COLUMNS : "*";
    const result = (rows: Row[], total: number): DocumentListResult =>
      q.withoutContent
        ? { items: rows.map(fromRow), total, contentBytes: rows.map((r) => (r as Row & { content_bytes: number }).content_bytes) }
        : { items: rows.map(fromRow), total };
    if (!q.filter) {
      const total = (this.stmt(`SELECT COUNT(*) AS n ${sql}`).get(...args) as { n: number }).n;
      const rows = this.stmt(`SELECT ${columns} ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...args, q.limit, q.offset) as Row[];
      return result(rows, total);
    }
    // Metadata filters are evaluated on each candidate of the scope, streamed in order.
    const rows: Row[] = [];
    let total = 0;
    for (const r of this.stmt(`SELECT ${columns} ${sql} ORDER BY ${order}`).iterate(...args) as Iterable<Row>) {
      if (!matchesFilter(q.filter, jsonColumn.read(r.metadata))) continue;
      if (total >= q.offset && rows.length < q.limit) rows.push(r);
      total++;
    }
    return result(rows, total);
  }

  async contents(tenantId: string, ids: string[]): Promise<Map<string, string>> {
    const get = this.stmt("SELECT content FROM documents WHERE tenant_id = ? AND id = ?");
    const out = new Map<string, string>();
    for (const id of new Set(ids)) {
      const r = get.get(tenantId, id) as { content: string } | undefined;
      if (r) out.set(id, r.content);
    }
    return out;
  }

  async listStale(olderThan: string, limit: number): Promise<DocumentRecord[]> {
    const rows = this.stmt(STALE_DOCUMENTS_SQL).all(olderThan, limit) as Row[];
    return rows.map(fromRow);
  }

  async getTag(tenantId: string, namespace: string): Promise<ContainerTagSettings | undefined> {
    const r = this.stmt("SELECT * FROM container_tags WHERE tenant_id = ? AND namespace = ?").get(tenantId, namespace) as TagRow | undefined;
    return r ? fromTagRow(r) : undefined;
  }

  async listTags(tenantId: string): Promise<ContainerTagSettings[]> {
    return (this.stmt("SELECT * FROM container_tags WHERE tenant_id = ? ORDER BY namespace").all(tenantId) as TagRow[]).map(fromTagRow);
  }

  async putTag(t: ContainerTagSettings): Promise<void> {
    this.stmt(
      `INSERT INTO container_tags (tenant_id, namespace, name, entity_context, memory_filesystem_paths, profile_buckets, created_at, updated_at)
       VALUES (@tenant_id, @namespace, @name, @entity_context, @memory_filesystem_paths, @profile_buckets, @created_at, @updated_at)
       ON CONFLICT (tenant_id, namespace) DO UPDATE SET name = excluded.name, entity_context = excluded.entity_context,
         memory_filesystem_paths = excluded.memory_filesystem_paths, profile_buckets = excluded.profile_buckets, updated_at = excluded.updated_at`,
    ).run({
      tenant_id: t.tenantId,
      namespace: t.namespace,
      name: t.name,
      entity_context: t.entityContext,
      memory_filesystem_paths: t.memoryFilesystemPaths === null ? null : JSON.stringify(t.memoryFilesystemPaths),
      profile_buckets: JSON.stringify(t.profileBuckets),
      created_at: t.createdAt,
      updated_at: t.updatedAt,
    });
  }

  async deleteTag(tenantId: string, namespace: string): Promise<boolean> {
    return this.stmt("DELETE FROM container_tags WHERE tenant_id = ? AND namespace = ?").run(tenantId, namespace).changes > 0;
  }

  async namespaceStats(tenantId: string, namespace?: string): Promise<NamespaceDocumentStats[]> {
    // documents_by_scope (tenant_id, namespace, created_at) covers the grouping and the first creation time.
    const rows = this.stmt(NAMESPACE_STATS_SQL).all({ tenant_id: tenantId, namespace: namespace ?? null }) as {
      namespace: string;
      n: number;
      first_created: string;
      last_updated: string;
    }[];
    return rows.map((r) => ({ namespace: r.namespace, documentCount: r.n, firstCreatedAt: r.first_created, lastUpdatedAt: r.last_updated }));
  }

  async putMerge(m: ContainerTagMerge): Promise<void> {
    this.stmt(
      `INSERT INTO container_tag_merges (id, tenant_id, job, status, created_at) VALUES (@id, @tenant_id, @job, @status, @created_at)
       ON CONFLICT (id) DO UPDATE SET job = excluded.job, status = excluded.status`,
    ).run({ id: m.id, tenant_id: m.tenantId, job: JSON.stringify(m), status: m.status, created_at: m.createdAt });
  }

  async getMerge(tenantId: string, id: string): Promise<ContainerTagMerge | undefined> {
    const r = this.stmt("SELECT job FROM container_tag_merges WHERE id = ? AND tenant_id = ?").get(id, tenantId) as { job: string } | undefined;
    return r ? (JSON.parse(r.job) as ContainerTagMerge) : undefined;
  }

  async unfinishedMerges(limit: number): Promise<ContainerTagMerge[]> {
    const rows = this.stmt("SELECT job FROM container_tag_merges WHERE status IN ('queued', 'running') ORDER BY created_at LIMIT ?").all(limit) as {
      job: string;
    }[];
    return rows.map((r) => JSON.parse(r.job) as ContainerTagMerge);
  }

  async claimMerge(tenantId: string, id: string, holder: string, now: string, until: string): Promise<ContainerTagMerge | undefined> {
    return this.tx(() => {
      const r = this.stmt("SELECT job FROM container_tag_merges WHERE id = ? AND tenant_id = ?").get(id, tenantId) as { job: string } | undefined;
      if (!r) return undefined;
      const m = JSON.parse(r.job) as ContainerTagMerge;
      const free = m.status === "queued" || (m.status === "running" && (m.leaseHolder === holder || !m.leaseUntil || m.leaseUntil <= now));
      if (!free) return undefined;
      const claimed: ContainerTagMerge = { ...m, status: "running", leaseHolder: holder, leaseUntil: until, updatedAt: now };
      this.stmt("UPDATE container_tag_merges SET job = ?, status = 'running' WHERE id = ?").run(JSON.stringify(claimed), id);
      return claimed;
    });
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
