import { z } from "zod";
import { DOCUMENT_STATUSES, DREAMING_MODES, InvalidArgumentError, type JsonObject, SOURCE_KINDS, TASK_TYPES, validateNamespace } from "@engram/kernel";
import { type DocumentRecord, validateConnectionId, validateCustomId } from "./document";

/**
 * A document as the tenant archive holds it (docs/export-format.md, format
 * version 1): the record without what belongs to one instance (tenant, file
 * store key, pipeline bookkeeping). The original file travels beside it, at
 * `file.path` in the archive. Pure data; no I/O.
 */
export interface ArchiveDocument {
  id: string;
  namespace: string;
  containerTags?: string[];
  customId?: string;
  content: string;
  supportingContext?: string;
  metadata?: JsonObject;
  group?: JsonObject;
  date?: string;
  filepath?: string;
  status: DocumentRecord["status"];
  statusReason?: string;
  taskType: DocumentRecord["taskType"];
  dreaming: DocumentRecord["dreaming"];
  sourceKind: DocumentRecord["sourceKind"];
  url?: string;
  title?: string;
  contentType?: string;
  summary?: string;
  connectionId?: string;
  contentHash: string;
  generation: number;
  file?: { path: string; name?: string; mimeType?: string; fileType?: string; sizeBytes: number; sha256: string };
  createdAt: string;
  updatedAt: string;
}

/** Where a document's original file lives in the archive. */
export const archiveFilePath = (documentId: string): string => `files/${documentId}`;

export function toArchiveDocument(d: DocumentRecord): ArchiveDocument {
  const { tenantId: _t, stateSequence: _s, requeues: _r, file, ...rest } = d;
  const out: ArchiveDocument = { ...rest };
  if (file) {
    out.file = { path: archiveFilePath(d.id), sizeBytes: file.sizeBytes, sha256: file.sha256 };
    if (file.name !== undefined) out.file.name = file.name;
    if (file.mimeType !== undefined) out.file.mimeType = file.mimeType;
    if (file.fileType !== undefined) out.file.fileType = file.fileType;
  }
  return out;
}

const iso = z.iso.datetime({ offset: true });
const jsonObject = z.record(z.string(), z.json());
const str = (max: number) => z.string().max(max);

const archiveDocumentSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "an id of 1-64 letters, digits, '_' and '-'"),
  namespace: z.string(),
  containerTags: z.array(z.string()).max(100).optional(),
  customId: z.string().optional(),
  content: str(50_000_000),
  supportingContext: str(1500).optional(),
  metadata: jsonObject.optional(),
  group: jsonObject.optional(),
  date: str(100).optional(),
  filepath: str(4096).optional(),
  status: z.enum(DOCUMENT_STATUSES),
  statusReason: str(10_000).optional(),
  taskType: z.enum(TASK_TYPES),
  dreaming: z.enum(DREAMING_MODES),
  sourceKind: z.enum(SOURCE_KINDS),
  url: str(8192).optional(),
  title: str(10_000).optional(),
  contentType: str(200).optional(),
  summary: str(100_000).optional(),
  connectionId: z.string().optional(),
  contentHash: z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in hex"),
  generation: z.number().int().min(1).max(1_000_000_000),
  file: z
    .strictObject({
      path: z.string(),
      name: str(255).optional(),
      mimeType: str(255).optional(),
      fileType: str(100).optional(),
      sizeBytes: z.number().int().min(1),
      sha256: z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in hex"),
    })
    .optional(),
  createdAt: iso,
  updatedAt: iso,
});

/** Parses and checks one archive record (JSON text); InvalidArgumentError names the first problem. */
export function parseArchiveDocument(json: string): ArchiveDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new InvalidArgumentError("an archive document record is not valid JSON");
  }
  const r = archiveDocumentSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new InvalidArgumentError(`invalid archive document record: ${issue.path.join(".") || "record"}: ${issue.message}`);
  }
  const d = r.data as ArchiveDocument;
  validateNamespace(d.namespace);
  for (const t of d.containerTags ?? []) validateNamespace(t, "containerTags[]");
  if (d.customId !== undefined) validateCustomId(d.customId, "customId");
  if (d.connectionId !== undefined) validateConnectionId(d.connectionId);
  if (d.sourceKind === "file" ? !d.file : d.content.trim() === "") throw new InvalidArgumentError(`archive document ${d.id}: no content and no file`);
  if (d.file && d.file.path !== archiveFilePath(d.id)) throw new InvalidArgumentError(`archive document ${d.id}: its file must be at ${archiveFilePath(d.id)}`);
  return d;
}

/**
 * The record an imported document is written as, under `id` in `tenantId`.
 * A document that had not failed is queued again (its generation kept) so
 * the pipeline indexes it here: the chunk and vector index is rebuilt, not
 * carried; memory formation finds the generation already formed (the
 * memories import marks it) and forms nothing twice. A failed document stays
 * failed, with its reason. `now` becomes updatedAt of a queued document (the
 * stale sweep measures from it).
 */
export function importedRecord(
  d: ArchiveDocument,
  tenantId: string,
  id: string,
  now: string,
  file?: { key: string; sizeBytes: number; sha256: string },
): DocumentRecord {
  const { file: archived, ...rest } = d;
  const failed = d.status === "failed";
  const rec: DocumentRecord = {
    ...rest,
    id,
    tenantId,
    status: failed ? "failed" : "queued",
    contentHash: file ? file.sha256 : d.contentHash,
    stateSequence: 0,
    updatedAt: failed ? d.updatedAt : now,
  };
  if (!failed) delete rec.statusReason;
  if (archived && file) {
    rec.file = { key: file.key, sizeBytes: file.sizeBytes, sha256: file.sha256 };
    if (archived.name !== undefined) rec.file.name = archived.name;
    if (archived.mimeType !== undefined) rec.file.mimeType = archived.mimeType;
    if (archived.fileType !== undefined) rec.file.fileType = archived.fileType;
  }
  return rec;
}
