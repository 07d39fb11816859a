import type { MemoryRecord, MemoryRelationKind, MemorySource, MemoryTemporalContext } from "@engram/memory-model";
import { idKindOf, InvalidArgumentError, type JsonObject, type JsonValue, validateNamespace as validateScope } from "@engram/kernel";

/**
 * Memories: long-term facts with version chains, relations, provenance and
 * forgetting. Pure functions over MemoryRecord (the shared memory model);
 * no I/O.
 */
export type { MemoryRecord, MemoryRelationKind, MemorySource, MemoryTemporalContext };

export const MAX_CONTENT = 10_000;
export const MAX_METADATA_KEYS = 100;

/** Memory operations name the container `containerTag` (the v5 namespace). */
export function validateNamespace(ns: string, field = "containerTag"): void {
  validateScope(ns, field);
}

/**
 * A memory id must be a memory id: a document (or chunk, ...) id handed to a
 * memory operation is refused with a message naming its kind, so a forget can
 * never be aimed at the wrong thing.
 */
export function assertMemoryId(id: string, field = "id"): void {
  const kind = idKindOf(id);
  if (kind === "memory") return;
  if (kind === "document") {
    throw new InvalidArgumentError(
      `${id} is a document id, not a memory id`,
      "memory operations take memory ids (m_…); documents are deleted with DELETE /ns/{namespace}/document or DELETE /v3/documents/{id}",
    );
  }
  if (kind) throw new InvalidArgumentError(`${id} is a ${kind} id, not a memory id`, "memory operations take memory ids (m_…)");
  throw new InvalidArgumentError(
    `${field} ${JSON.stringify(id.slice(0, 120))} is not a memory id`,
    "memory ids look like m_ followed by 20 letters and digits",
  );
}

/** Normalised content for exact matching: Unicode NFKC, lower case, single spaces, no trailing punctuation. */
export function contentKey(content: string): string {
  return content
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!?;,\s]+$/u, "");
}

export function validateContent(content: string, field = "content"): string {
  if (typeof content !== "string" || content.trim().length === 0) throw new InvalidArgumentError(`${field} must not be empty`);
  if (content.length > MAX_CONTENT) throw new InvalidArgumentError(`${field} is too long`, `at most ${MAX_CONTENT} characters`);
  return content.trim();
}

function isMetadataValue(v: JsonValue): boolean {
  if (typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}

export function validateMetadata(metadata: JsonObject | undefined, field = "metadata"): JsonObject | undefined {
  if (metadata === undefined) return undefined;
  const keys = Object.keys(metadata);
  if (keys.length > MAX_METADATA_KEYS) throw new InvalidArgumentError(`${field} has too many keys`, `at most ${MAX_METADATA_KEYS}`);
  for (const k of keys) {
    if (k.length === 0 || k.length > 128) throw new InvalidArgumentError(`${field} keys must be 1-128 characters`);
    if (!isMetadataValue(metadata[k]!))
      throw new InvalidArgumentError(`${field}.${k} has an unsupported value`, "metadata values must be strings, numbers, booleans or arrays of strings");
  }
  return keys.length ? metadata : undefined;
}

export function validateInstant(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidArgumentError(`${field} must be an ISO 8601 date-time`, `got ${JSON.stringify(value.slice(0, 60))}`);
  return new Date(ms).toISOString();
}

export function validateTemporalContext(t: MemoryTemporalContext | undefined): MemoryTemporalContext | undefined {
  if (!t) return undefined;
  const documentDate = validateInstant(t.documentDate, "temporalContext.documentDate");
  // Kept as given: the description types them as plain strings ("2026-03", "spring 2026" alike).
  const eventDates = t.eventDates?.map((d, i) => {
    if (typeof d !== "string" || d.trim().length === 0 || d.length > 100)
      throw new InvalidArgumentError(`temporalContext.eventDate[${i}] must be a non-empty string of at most 100 characters`);
    return d;
  });
  if (!documentDate && !eventDates?.length) return undefined;
  return { ...(documentDate ? { documentDate } : {}), ...(eventDates?.length ? { eventDates } : {}) };
}

/** forgetReason only means something with forgetAfter (OpenAPI); a reason without a time is refused rather than dropped. */
export function validateExpiry(forgetAfter: string | undefined, forgetReason: string | undefined): { forgetAfter?: string; forgetReason?: string } {
  const at = validateInstant(forgetAfter, "forgetAfter");
  if (forgetReason !== undefined && at === undefined) {
    throw new InvalidArgumentError("forgetReason needs forgetAfter", "a reason for scheduled forgetting is only kept together with the time (forgetAfter)");
  }
  if (forgetReason !== undefined && forgetReason.length > 1000) throw new InvalidArgumentError("forgetReason is too long", "at most 1000 characters");
  return { ...(at ? { forgetAfter: at } : {}), ...(forgetReason ? { forgetReason } : {}) };
}

export interface NewMemory {
  id: string;
  tenantId: string;
  namespace: string;
  content: string;
  isStatic: boolean;
  metadata?: JsonObject;
  forgetAfter?: string;
  forgetReason?: string;
  temporalContext?: MemoryTemporalContext;
  sources?: MemorySource[];
  relations?: Record<string, MemoryRelationKind>;
  isInference?: boolean;
  bucketKeys?: string[];
  filepath?: string;
  now: string;
}

export function createMemory(m: NewMemory): MemoryRecord {
  return {
    id: m.id,
    tenantId: m.tenantId,
    namespace: m.namespace,
    content: m.content,
    ...(m.metadata ? { metadata: m.metadata } : {}),
    isStatic: m.isStatic,
    isForgotten: false,
    ...(m.forgetAfter ? { forgetAfter: m.forgetAfter } : {}),
    ...(m.forgetReason ? { forgetReason: m.forgetReason } : {}),
    ...(m.temporalContext ? { temporalContext: m.temporalContext } : {}),
    version: 1,
    isLatest: true,
    relations: m.relations ?? {},
    sources: m.sources ?? [],
    ...(m.isInference !== undefined ? { isInference: m.isInference } : {}),
    bucketKeys: m.bucketKeys ?? [],
    ...(m.filepath ? { filepath: m.filepath } : {}),
    createdAt: m.now,
    updatedAt: m.now,
  };
}

/**
 * The updatedAt of a changed record: `now`, or 1 ms past the previous value
 * when the clock has not moved past it (two replicas changing a memory within
 * one millisecond, or one replica's clock behind another's). updatedAt is the
 * version the store's optimistic checks compare (MemoryWrite.expect), so every
 * change of a record must move it forward.
 */
export function changedAt(previous: string, now: string): string {
  const before = Date.parse(previous);
  return Date.parse(now) > before ? now : new Date(before + 1).toISOString();
}

/** Fields a new version may set; absent = inherited from the previous version. */
export interface VersionPatch {
  content: string;
  metadata?: { value: JsonObject | undefined };
  forgetAfter?: { value: string | undefined };
  forgetReason?: { value: string | undefined };
  temporalContext?: { value: MemoryTemporalContext | undefined };
  isStatic?: boolean;
  /** Provenance of the new version (formation: the new source is added to the inherited ones). */
  addSources?: MemorySource[];
  isInference?: boolean;
  bucketKeys?: string[];
}

/**
 * The next version of a memory: a new record (new id) that `updates` the
 * previous one; the previous one stays, no longer latest. Clearing
 * forgetAfter also clears forgetReason (OpenAPI).
 */
export function nextVersion(prev: MemoryRecord, patch: VersionPatch, id: string, now: string): { next: MemoryRecord; previous: MemoryRecord } {
  if (!prev.isLatest) throw new Error("only the latest version of a memory can get a new version");
  const forgetAfter = patch.forgetAfter ? patch.forgetAfter.value : prev.forgetAfter;
  let forgetReason = patch.forgetReason ? patch.forgetReason.value : prev.forgetReason;
  if (patch.forgetAfter && patch.forgetAfter.value === undefined) forgetReason = undefined;
  const metadata = patch.metadata ? patch.metadata.value : prev.metadata;
  const temporalContext = patch.temporalContext ? patch.temporalContext.value : prev.temporalContext;
  const sources = mergeSources(prev.sources, patch.addSources ?? []);
  const isInference = patch.isInference ?? prev.isInference;
  const next: MemoryRecord = {
    id,
    tenantId: prev.tenantId,
    namespace: prev.namespace,
    content: patch.content,
    ...(metadata ? { metadata } : {}),
    isStatic: patch.isStatic ?? prev.isStatic,
    isForgotten: false,
    ...(forgetAfter ? { forgetAfter } : {}),
    ...(forgetAfter && forgetReason ? { forgetReason } : {}),
    ...(temporalContext ? { temporalContext } : {}),
    version: prev.version + 1,
    isLatest: true,
    parentMemoryId: prev.id,
    rootMemoryId: prev.rootMemoryId ?? prev.id,
    relation: "updates",
    relations: { ...prev.relations, [prev.id]: "updates" },
    sources,
    ...(isInference !== undefined ? { isInference } : {}),
    bucketKeys: patch.bucketKeys ?? prev.bucketKeys,
    ...(prev.filepath ? { filepath: prev.filepath } : {}),
    createdAt: now,
    updatedAt: now,
  };
  return { next, previous: { ...prev, isLatest: false, updatedAt: changedAt(prev.updatedAt, now) } };
}

/** True when a patch would change nothing (then no new version is written). */
export function patchChangesNothing(prev: MemoryRecord, patch: VersionPatch): boolean {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  return (
    patch.content === prev.content &&
    (!patch.metadata || same(patch.metadata.value, prev.metadata)) &&
    (!patch.forgetAfter || same(patch.forgetAfter.value, prev.forgetAfter)) &&
    (!patch.forgetReason || same(patch.forgetReason.value, prev.forgetReason)) &&
    (!patch.temporalContext || same(patch.temporalContext.value, prev.temporalContext))
  );
}

export function mergeSources(a: MemorySource[], b: MemorySource[]): MemorySource[] {
  // One entry per document, first-seen order, positions sorted and unique. Entries that need no
  // change are reused as they are (records are immutable), so a store can tell them apart cheaply.
  const out: MemorySource[] = [];
  const at = new Map<string, number>();
  for (const list of [a, b])
    for (const s of list) {
      const i = at.get(s.documentId);
      if (i === undefined) {
        at.set(s.documentId, out.length);
        out.push(isSortedSet(s.chunkPositions) ? s : { documentId: s.documentId, chunkPositions: sortedSet(s.chunkPositions) });
        continue;
      }
      const cur = out[i]!;
      if (s.chunkPositions.every((p) => cur.chunkPositions.includes(p))) continue;
      out[i] = { documentId: s.documentId, chunkPositions: sortedSet([...cur.chunkPositions, ...s.chunkPositions]) };
    }
  return out;
}

const sortedSet = (xs: readonly number[]) => [...new Set(xs)].sort((x, y) => x - y);
const isSortedSet = (xs: readonly number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! < x);

/** Adds provenance to a memory without a new version (the same fact seen again). */
export function addSources(m: MemoryRecord, sources: MemorySource[], now: string): MemoryRecord {
  return { ...m, sources: mergeSources(m.sources, sources), updatedAt: changedAt(m.updatedAt, now) };
}

export function forgetMemory(m: MemoryRecord, now: string, reason?: string, batchId?: string): MemoryRecord {
  return {
    ...m,
    isForgotten: true,
    forgottenAt: now,
    ...(reason ? { forgetReason: reason } : {}),
    ...(batchId ? { forgetBatchId: batchId } : {}),
    updatedAt: changedAt(m.updatedAt, now),
  };
}

/**
 * A source document is gone: drop it from the memory's provenance. A memory
 * formed from documents that loses its last source is forgotten (retired)
 * with a reason; memories written directly have no sources and are kept.
 */
export function dropSource(m: MemoryRecord, documentId: string, now: string, reason = `source document ${documentId} was deleted`): MemoryRecord | undefined {
  if (!m.sources.some((s) => s.documentId === documentId)) return undefined;
  const sources = m.sources.filter((s) => s.documentId !== documentId);
  return sources.length === 0 && !m.isForgotten ? forgetMemory({ ...m, sources }, now, reason) : { ...m, sources, updatedAt: changedAt(m.updatedAt, now) };
}

const FORGET_INSTRUCTION =
  /^\s*(?:please\s+)?(?:forget|delete|remove|erase|drop)\s+(?:(?:about|all|everything|anything|every\s+memory|all\s+memories|memories|the\s+memories|facts)\s+)*(?:(?:about|regarding|related\s+to|relating\s+to|concerning|on|of|that\s+mention(?:s)?|mentioning)\s+)?/i;

/**
 * The topic of a natural-language forget instruction ("forget everything
 * about Project Titan" -> "Project Titan"); a bare topic is returned as is.
 */
export function forgetTopic(query: string): string {
  const stripped = query
    .replace(FORGET_INSTRUCTION, "")
    .replace(/^(?:the|a|an|my|our)\s+/i, "")
    .replace(/[.!?]+\s*$/, "")
    .trim();
  return stripped || query.trim();
}

const USER_NAME = /^[Tt]he user(?:'s name is| is called| is named)\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*){0,2})\.?$/u;

/**
 * The user's name as a container's memories state it ("The user's name is
 * Dana."), so a later conversation that does not repeat it still resolves
 * "I" to the same person. The most recently updated statement wins.
 */
export function userNameOf(memories: MemoryRecord[]): string | undefined {
  let best: { name: string; at: string } | undefined;
  for (const m of memories) {
    const name = USER_NAME.exec(m.content.trim())?.[1];
    if (name && (!best || m.updatedAt > best.at)) best = { name, at: m.updatedAt };
  }
  return best?.name;
}
