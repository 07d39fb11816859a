import { analyzeForStorage } from "@engram/index";
import type { MemoryRecord, MemorySource } from "@engram/memory-model";
import { jsonColumn } from "@engram/storage";
import { contentKey } from "../../domain/memory";

/**
 * memories.db: its schema versions and the mapping between its rows and
 * memory records (shared by the store's writes and its in-memory read model).
 */

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
  // Issue #31, replicas on one store. The invariant of versions: a chain (its root and every version naming it as
  // root) has exactly one latest version, forgotten or not (forgetting keeps a version latest, and only the latest
  // gets a next version). The normalised content is deliberately not unique: instant formation keeps each document's
  // facts on their own, an update may word a memory like another, an expired memory stays latest until the sweep.
  // Rows a race left with two latest versions of one chain keep the highest version (then the newest) as latest.
  // Tombstones of deleted source documents (RetireMemoriesUseCase): formation writes of a generation at or below the
  // tombstone's are refused.
  `UPDATE memories SET is_latest = 0 WHERE rid IN (
     SELECT rid FROM (
       SELECT rid, ROW_NUMBER() OVER (PARTITION BY tenant_id, COALESCE(root_id, id) ORDER BY version DESC, updated_at DESC, rid DESC) AS n
       FROM memories WHERE is_latest = 1)
     WHERE n > 1);
   CREATE UNIQUE INDEX memories_one_latest_per_chain ON memories (tenant_id, COALESCE(root_id, id)) WHERE is_latest = 1;
   CREATE TABLE tombstones (
     tenant_id TEXT NOT NULL, document_id TEXT NOT NULL, generation INTEGER NOT NULL, deleted_at TEXT NOT NULL,
     PRIMARY KEY (tenant_id, document_id)) WITHOUT ROWID;
   CREATE INDEX tombstones_by_time ON tombstones (deleted_at);`,
];

/** The name of the unique index of one latest version per chain (its violation is a write conflict). */
export const ONE_LATEST_PER_CHAIN = "memories_one_latest_per_chain";

export interface Row {
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

export interface SourceRow {
  memory_rid: number;
  document_id: string;
  chunk_positions: string;
}

export function fromRow(r: Row, sources: MemorySource[] = []): MemoryRecord {
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
export function toParams(m: MemoryRecord, keepAnalysis = false): Record<string, unknown> {
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

export const COLUMNS = Object.keys(toParams({ content: "", relations: {}, sources: [], bucketKeys: [] } as unknown as MemoryRecord));
/** Row columns without the vector (reads never need it except when loading a partition). */
export const SELECT = `rid, ${COLUMNS.filter((c) => c !== "content_key" && c !== "analyzed" && c !== "sources").join(", ")}`;

/** Source rows (ordered by memory, then place) grouped into each memory's list. */
export function groupSources(rows: SourceRow[], into: Map<number, MemorySource[]>): Map<number, MemorySource[]> {
  for (const r of rows) {
    let list = into.get(r.memory_rid);
    if (!list) into.set(r.memory_rid, (list = []));
    list.push({ documentId: r.document_id, chunkPositions: jsonColumn.read(r.chunk_positions) ?? [] });
  }
  return into;
}

export function vectorOf(r: Row): { vector?: Float32Array; model?: string } {
  if (!r.vector || !r.model) return {};
  // Copy into an aligned buffer (the row's bytes may start at any offset).
  const copy = new Float32Array(r.vector.byteLength / 4);
  new Uint8Array(copy.buffer).set(r.vector);
  return { vector: copy, model: r.model };
}
