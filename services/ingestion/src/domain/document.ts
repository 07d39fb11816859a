import { createHash } from "node:crypto";
import {
  DEFAULT_DREAMING,
  DEFAULT_TASK_TYPE,
  type DocumentStatus,
  type Dreaming,
  InvalidArgumentError,
  idKindOf,
  isFinalStatus,
  type JsonObject,
  type SourceKind,
  statusRank,
  type TaskType,
} from "@engram/kernel";

export type { SourceKind } from "@engram/kernel";

/** A document as ingestion owns it. Pure data; no I/O. */
export interface DocumentRecord {
  id: string;
  tenantId: string;
  namespace: string;
  customId?: string;
  content: string;
  supportingContext?: string;
  metadata?: JsonObject;
  group?: JsonObject;
  date?: string;
  filepath?: string;
  status: DocumentStatus;
  statusReason?: string;
  taskType: TaskType;
  dreaming: Dreaming;
  sourceKind: SourceKind;
  url?: string;
  title?: string;
  contentType?: string;
  /** The pipeline's summary of the text (absent until processed, and when no sentence was worth keeping). */
  summary?: string;
  /** The stored original of a file document. */
  file?: StoredFile;
  /** Legacy containerTags beyond the namespace (v3 containerTags). */
  containerTags?: string[];
  /** The connection that imported the document (connector imports only). */
  connectionId?: string;
  /** Hash of the content that was last queued (file documents: of the bytes). */
  contentHash: string;
  /** Incremented whenever new content is queued for processing. */
  generation: number;
  /** Highest pipeline state sequence applied in this generation. */
  stateSequence: number;
  /** Times the stale sweep queued this generation again (absent: never); a new generation starts at none. */
  requeues?: number;
  createdAt: string;
  updatedAt: string;
}

export interface StoredFile {
  /** Key of the bytes in the FileStore. */
  key: string;
  name?: string;
  mimeType?: string;
  /** The API's fileType hint (pdf, docx, image, ...). */
  fileType?: string;
  sizeBytes: number;
  sha256: string;
}

export interface DocumentInput {
  content: string;
  customId?: string;
  supportingContext?: string;
  metadata?: JsonObject;
  group?: JsonObject;
  date?: string;
  filepath?: string;
  /** Set by the connections service for connector imports; never by the public API. */
  connectionId?: string;
  /** A connector's title for the item (connector imports only): kept over the title extraction finds. */
  title?: string;
}

/** Caller-defined id: 1-100 of letters, digits, '-', '_', '.', ':'. */
const CUSTOM_ID = /^[A-Za-z0-9._:-]{1,100}$/;

export { validateNamespace } from "@engram/kernel";

export function validateCustomId(id: string, field = "id"): void {
  if (!CUSTOM_ID.test(id)) {
    throw new InvalidArgumentError(
      `invalid ${field} ${JSON.stringify(id.slice(0, 120))}`,
      `${field} must be 1-100 characters of letters, digits, '-', '_', '.' and ':'`,
    );
  }
  const kind = idKindOf(id);
  if (kind && kind !== "document") {
    throw new InvalidArgumentError(`${field} ${id} has the form of a ${kind} id`, `service-generated ${kind} ids cannot be used as document ids`);
  }
}

/** A connection id as the connections service issues them: 1-64 letters, digits, '_' and '-'. */
const CONNECTION_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function validateConnectionId(id: string, field = "connectionId"): void {
  if (!CONNECTION_ID.test(id))
    throw new InvalidArgumentError(`invalid ${field} ${JSON.stringify(id.slice(0, 80))}`, `${field} is 1-64 letters, digits, '_' and '-'`);
}

export function validateInput(input: DocumentInput): void {
  if (typeof input.content !== "string" || input.content.trim().length === 0) {
    throw new InvalidArgumentError("content must not be empty");
  }
  if (input.customId !== undefined) validateCustomId(input.customId);
  if (input.connectionId !== undefined) validateConnectionId(input.connectionId);
  if (input.supportingContext !== undefined && input.supportingContext.length > 1500) {
    throw new InvalidArgumentError("supportingContext is too long", "at most 1500 characters");
  }
}

export function contentHash(content: string): string {
  return createHash("sha256").update(content).digest("hex");
}

const URL_CONTENT = /^https?:\/\/\S+$/i;

export function sourceKindOf(content: string): SourceKind {
  return URL_CONTENT.test(content.trim()) ? "url" : "text";
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

export type AddDecision = { action: "create" } | { action: "requeue" } | { action: "update-fields" } | { action: "unchanged" };

/**
 * What an add with an existing caller id does (spec, States):
 * new content -> the document is re-processed (queued); the same content with
 * other fields -> those fields are updated and the current state reported
 * (failed stays failed); an exact duplicate -> nothing changes.
 */
export function decideAdd(existing: DocumentRecord | undefined, input: DocumentInput): AddDecision {
  if (!existing) return { action: "create" };
  if (existing.contentHash !== contentHash(input.content)) return { action: "requeue" };
  const fieldsChanged =
    !sameJson(existing.metadata, input.metadata) ||
    !sameJson(existing.group, input.group) ||
    (input.supportingContext ?? undefined) !== existing.supportingContext ||
    (input.date ?? undefined) !== existing.date ||
    (input.filepath ?? undefined) !== existing.filepath ||
    (input.connectionId !== undefined && input.connectionId !== existing.connectionId) ||
    (input.title !== undefined && input.title !== existing.title);
  return fieldsChanged ? { action: "update-fields" } : { action: "unchanged" };
}

export interface StateUpdate {
  generation: number;
  sequence: number;
  status: DocumentStatus;
  reason?: string;
  title?: string;
  contentType?: string;
  summary?: string;
  at: string;
}

/**
 * Applies a pipeline state event. Events of an older generation, repeated or
 * out-of-order sequences and regressions from a final state are ignored, so
 * redelivery (at least once) is harmless. Returns undefined when ignored.
 */
export function applyState(doc: DocumentRecord, u: StateUpdate): DocumentRecord | undefined {
  if (u.generation !== doc.generation) return undefined;
  if (u.sequence <= doc.stateSequence) return undefined;
  if (isFinalStatus(doc.status) && statusRank(u.status) < statusRank(doc.status) && doc.stateSequence > 0) return undefined;
  return {
    ...doc,
    status: u.status,
    statusReason: u.status === "failed" ? u.reason || "processing failed" : undefined,
    stateSequence: u.sequence,
    // A connector's title (the file name, the subject) is kept; otherwise extraction names the document.
    title: doc.connectionId && doc.title ? doc.title : u.title || doc.title,
    contentType: u.contentType || doc.contentType,
    // A failed generation serves nothing, its old summary included.
    summary: u.summary ?? (u.status === "failed" ? undefined : doc.summary),
    updatedAt: u.at,
  };
}

export interface AddOptions {
  tenantId: string;
  namespace: string;
  taskType?: TaskType;
  dreaming?: Dreaming;
  containerTags?: string[];
  /** For file documents: the stored bytes (their hash is the content hash). */
  file?: StoredFile;
}

/** The outcome of an add: the record to store (if any) and whether it must be (re)processed. */
export type AddPlan =
  | { write: "insert"; next: DocumentRecord; queue: true }
  | { write: "update"; previous: DocumentRecord; next: DocumentRecord; queue: boolean }
  | { write: "none"; current: DocumentRecord };

/**
 * Pure decision for one add (single, batch, file): a new document, new
 * content for an existing caller id (next generation, queued), changed fields
 * only (stored, current state reported), or an exact duplicate (nothing).
 */
export function planAdd(existing: DocumentRecord | undefined, input: DocumentInput, o: AddOptions, now: string, newDocumentId: () => string): AddPlan {
  const hash = o.file ? o.file.sha256 : contentHash(input.content);
  const kind: SourceKind = o.file ? "file" : sourceKindOf(input.content);
  const source = { sourceKind: kind, url: kind === "url" ? input.content.trim() : undefined, file: o.file, contentHash: hash };
  const fields = {
    supportingContext: input.supportingContext,
    metadata: input.metadata,
    group: input.group,
    date: input.date,
    filepath: input.filepath,
    containerTags: o.containerTags?.filter((t) => t !== o.namespace),
    // A connector's import claims the document; a direct add keeps whatever connection it had.
    connectionId: input.connectionId ?? existing?.connectionId,
    ...(input.title !== undefined ? { title: input.title } : {}),
  };
  if (!existing) {
    return {
      write: "insert",
      queue: true,
      next: {
        id: newDocumentId(),
        tenantId: o.tenantId,
        namespace: o.namespace,
        customId: input.customId,
        content: input.content,
        ...fields,
        ...source,
        status: "queued",
        taskType: o.taskType ?? DEFAULT_TASK_TYPE,
        dreaming: o.dreaming ?? DEFAULT_DREAMING,
        generation: 1,
        stateSequence: 0,
        createdAt: now,
        updatedAt: now,
      },
    };
  }
  if (existing.contentHash !== hash) {
    return {
      write: "update",
      previous: existing,
      queue: true,
      next: {
        ...existing,
        ...fields,
        ...source,
        content: input.content,
        taskType: o.taskType ?? existing.taskType,
        dreaming: o.dreaming ?? existing.dreaming,
        status: "queued",
        statusReason: undefined,
        // the summary told of the old content
        summary: undefined,
        generation: existing.generation + 1,
        stateSequence: 0,
        requeues: undefined,
        updatedAt: now,
      },
    };
  }
  const decision = decideAdd(existing, { ...input, content: existing.content });
  if (decision.action === "update-fields") return { write: "update", previous: existing, queue: false, next: { ...existing, ...fields, updatedAt: now } };
  return { write: "none", current: existing };
}
