import { sha256 } from "../state-file";

/**
 * How `engram migrate` maps what the source server lists onto what the target
 * Engram is sent (docs/api-decisions.md, "Migration from another server").
 * Pure functions: no request, no file, no clock but the one passed in.
 */

/** Ids, container tags and customIds the target accepts. */
export const TARGET_ID_RE = /^[A-Za-z0-9._:-]{1,100}$/;

/** Processing states after which a document no longer changes by itself. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(["done", "failed"]);

/** A document as the source's `POST /v3/documents/list` (with `includeContent`) or `GET /v3/documents/{id}` answers it. */
export interface SourceDocument {
  id: string;
  customId?: string | null;
  containerTags?: string[] | null;
  metadata?: unknown;
  status?: string | null;
  content?: string | null;
  contentOmitted?: boolean;
  url?: string | null;
  filepath?: string | null;
  taskType?: string | null;
}

/** A latest memory entry as the source's `POST /v4/memories/list` answers it. */
export interface SourceMemory {
  id: string;
  memory: string;
  isStatic?: boolean | null;
  isForgotten?: boolean | null;
  metadata?: unknown;
  forgetAfter?: string | null;
  forgetReason?: string | null;
  temporalContext?: unknown;
  documentIds?: string[] | null;
}

export type MetadataValue = string | number | boolean | string[];

/** One item of the target's batch add (`POST /v3/documents/batch`). */
export interface TargetDocument {
  content: string;
  customId: string;
  containerTag?: string;
  containerTags?: string[];
  metadata?: Record<string, MetadataValue>;
  filepath?: string;
  taskType: "memory" | "superrag";
}

/** One memory of the target's `POST /v4/memories`. */
export interface TargetMemory {
  content: string;
  isStatic?: boolean;
  metadata?: Record<string, MetadataValue>;
  forgetAfter?: string;
  forgetReason?: string;
  temporalContext?: { documentDate?: string; eventDate?: string[] };
}

/** What becomes of one source document. */
export type DocumentPlan =
  | { kind: "send"; doc: TargetDocument; hash: string; droppedMetadata: string[] }
  /** Still being processed on the source: not taken this run (a later run takes it). */
  | { kind: "pending"; status: string }
  /** The listing left its content out (a content budget): read it alone, then plan again. */
  | { kind: "read" }
  | { kind: "failed"; reason: string };

/** What becomes of one source memory. */
export type MemoryPlan =
  | { kind: "send"; containerTag: string; memory: TargetMemory; hash: string; droppedMetadata: string[] }
  /** Formed from a document that is migrated too: the target forms it again from that document. */
  | { kind: "from-document" }
  /** Expired or forgotten on the source: nothing to carry. */
  | { kind: "skip"; reason: string };

/**
 * The customId of the target document: the source's own when the target
 * accepts it (the API's rule then makes a second run update the same
 * document), else one derived from the source id, stable across runs.
 */
export function targetCustomId(src: Pick<SourceDocument, "id" | "customId">): string {
  if (src.customId && TARGET_ID_RE.test(src.customId)) return src.customId;
  if (src.customId) return `migrated:${sha256(`customId:${src.customId}`).slice(0, 40)}`;
  const derived = `migrated:${src.id}`;
  return TARGET_ID_RE.test(derived) ? derived : `migrated:${sha256(`id:${src.id}`).slice(0, 40)}`;
}

/**
 * Metadata the target accepts (flat: strings, finite numbers, booleans, arrays
 * of strings; keys of 1 to 128 characters, at most 100): the rest is dropped
 * and named, so the report can say what was not carried.
 */
export function cleanMetadata(raw: unknown): { metadata: Record<string, MetadataValue> | undefined; dropped: string[] } {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { metadata: undefined, dropped: [] };
  const out: Record<string, MetadataValue> = {};
  const dropped: string[] = [];
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const ok =
      k.length >= 1 &&
      k.length <= 128 &&
      k !== "__proto__" &&
      (typeof v === "string" ||
        typeof v === "boolean" ||
        (typeof v === "number" && Number.isFinite(v)) ||
        (Array.isArray(v) && v.every((x) => typeof x === "string")));
    if (ok && Object.keys(out).length < 100) out[k] = v as MetadataValue;
    else dropped.push(k);
  }
  return { metadata: Object.keys(out).length ? out : undefined, dropped };
}

/** The container tags of a source record the target accepts (others would be refused with a 400). */
function targetTags(tags: string[] | null | undefined): string[] {
  return [...new Set((tags ?? []).filter((t) => typeof t === "string" && TARGET_ID_RE.test(t)))];
}

/**
 * How the target processes the document: the source's `taskType` when it
 * names one; else `memory` exactly when memories on the source were formed
 * from it, so the target forms them again and forms none the source never had.
 */
export function targetTaskType(src: SourceDocument, formedMemories: ReadonlySet<string>): "memory" | "superrag" {
  if (src.taskType === "memory" || src.taskType === "superrag") return src.taskType;
  return formedMemories.has(src.id) ? "memory" : "superrag";
}

/** Plans one source document: what to send, or why not now. */
export function planDocument(src: SourceDocument, formedMemories: ReadonlySet<string>): DocumentPlan {
  const status = src.status ?? "done";
  if (!FINAL_STATUSES.has(status)) return { kind: "pending", status };
  const content = typeof src.content === "string" && src.content.trim() ? src.content : undefined;
  if (!content && src.contentOmitted) return { kind: "read" };
  // A document the source holds only as a link (nothing extracted, e.g. failed): the target fetches the URL itself.
  const body = content ?? (src.url && /^https?:\/\//i.test(src.url) ? src.url : undefined);
  if (!body) return { kind: "failed", reason: "the source has neither content nor a URL for it" };
  const { metadata, dropped } = cleanMetadata(src.metadata);
  const extra: Record<string, MetadataValue> = {};
  const customId = targetCustomId(src);
  // A source customId the target refuses is kept in the metadata, so that it is not lost.
  if (src.customId && customId !== src.customId) extra.sourceCustomId = src.customId;
  const tags = targetTags(src.containerTags);
  if (tags.length === 0 && (src.containerTags ?? []).length > 0)
    return { kind: "failed", reason: `the target refuses its container tag(s) ${(src.containerTags ?? []).join(", ")}` };
  const doc: TargetDocument = {
    content: body,
    customId,
    ...(tags.length === 1 ? { containerTag: tags[0] } : tags.length > 1 ? { containerTags: tags } : {}),
    ...(metadata || Object.keys(extra).length ? { metadata: { ...metadata, ...extra } } : {}),
    ...(src.filepath ? { filepath: src.filepath.slice(0, 1024) } : {}),
    taskType: targetTaskType(src, formedMemories),
  };
  return { kind: "send", doc, hash: sha256(JSON.stringify(doc)), droppedMetadata: dropped };
}

/**
 * Plans one source memory. Memories formed from a document the source still
 * holds are left to the target's own formation from the migrated document
 * (copying them too would give each fact twice); memories written directly
 * (no source document left) are copied, latest version only.
 */
export function planMemory(src: SourceMemory, containerTag: string, sourceDocuments: ReadonlySet<string>, now: Date): MemoryPlan {
  if (src.isForgotten) return { kind: "skip", reason: "forgotten on the source" };
  if ((src.documentIds ?? []).some((d) => sourceDocuments.has(d))) return { kind: "from-document" };
  if (!src.memory || !src.memory.trim()) return { kind: "skip", reason: "empty" };
  const forgetAfter = src.forgetAfter && !Number.isNaN(Date.parse(src.forgetAfter)) ? new Date(src.forgetAfter) : undefined;
  if (forgetAfter && forgetAfter.getTime() <= now.getTime()) return { kind: "skip", reason: "expired on the source" };
  const { metadata, dropped } = cleanMetadata(src.metadata);
  const memory: TargetMemory = {
    content: src.memory.slice(0, 10_000),
    ...(src.isStatic ? { isStatic: true } : {}),
    ...(metadata ? { metadata } : {}),
    ...(forgetAfter ? { forgetAfter: forgetAfter.toISOString(), ...(src.forgetReason ? { forgetReason: src.forgetReason } : {}) } : {}),
    ...temporal(src.temporalContext),
  };
  return { kind: "send", containerTag, memory, hash: sha256(JSON.stringify([containerTag, memory])), droppedMetadata: dropped };
}

function temporal(raw: unknown): Pick<TargetMemory, "temporalContext"> {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
  const t = raw as { documentDate?: unknown; eventDate?: unknown };
  const documentDate = typeof t.documentDate === "string" && !Number.isNaN(Date.parse(t.documentDate)) ? t.documentDate : undefined;
  const eventDate = Array.isArray(t.eventDate) ? t.eventDate.filter((d): d is string => typeof d === "string") : [];
  if (!documentDate && eventDate.length === 0) return {};
  return { temporalContext: { ...(documentDate ? { documentDate } : {}), ...(eventDate.length ? { eventDate } : {}) } };
}

/** The ids of the documents that memories on the source were formed from. */
export function formedFrom(memories: readonly SourceMemory[]): Set<string> {
  const out = new Set<string>();
  for (const m of memories) for (const d of m.documentIds ?? []) out.add(d);
  return out;
}

/**
 * Groups planned documents into batches the target takes in one request:
 * same taskType and, for documents of several container tags, same tags
 * (batch-wide fields of the target's batch add); at most `size` documents and
 * about `maxBytes` of content each (a larger document goes alone).
 */
export function batchesOf<T extends { doc: TargetDocument }>(items: readonly T[], size: number, maxBytes: number): T[][] {
  const open = new Map<string, { items: T[]; bytes: number }>();
  const out: T[][] = [];
  for (const it of items) {
    const key = `${it.doc.taskType}|${it.doc.containerTags ? JSON.stringify(it.doc.containerTags) : ""}`;
    const bytes = Buffer.byteLength(it.doc.content, "utf8");
    let g = open.get(key);
    if (g && (g.items.length >= size || (g.items.length > 0 && g.bytes + bytes > maxBytes))) {
      out.push(g.items);
      g = undefined;
    }
    g ??= { items: [], bytes: 0 };
    g.items.push(it);
    g.bytes += bytes;
    open.set(key, g);
  }
  for (const g of open.values()) if (g.items.length) out.push(g.items);
  return out;
}

/** Documents per second, for the summary. */
export function ratePerSecond(count: number, ms: number): number {
  return ms > 0 ? Math.round((count / (ms / 1000)) * 10) / 10 : 0;
}
