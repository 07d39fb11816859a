import { z } from "zod";
import { InvalidArgumentError, MEMORY_RELATIONS } from "@engram/kernel";
import type { MemoryRecord } from "@engram/memory-model";
import { MAX_CONTENT, validateNamespace } from "./memory";

/**
 * A memory as the tenant archive holds it (docs/export-format.md, format
 * version 1): one version of a chain, forgotten or not, with its relations,
 * expiry and provenance; everything but the tenant. Pure data; no I/O.
 */
export type ArchiveMemory = Omit<MemoryRecord, "tenantId">;

export function toArchiveMemory(m: MemoryRecord): ArchiveMemory {
  const { tenantId: _t, ...rest } = m;
  return rest;
}

const iso = z.iso.datetime({ offset: true });
const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "an id of 1-64 letters, digits, '_' and '-'");
const relation = z.enum(MEMORY_RELATIONS);

const archiveMemorySchema = z.strictObject({
  id,
  namespace: z.string(),
  content: z.string().min(1).max(MAX_CONTENT),
  metadata: z.record(z.string(), z.json()).optional(),
  isStatic: z.boolean(),
  isForgotten: z.boolean(),
  forgottenAt: iso.optional(),
  forgetAfter: iso.optional(),
  forgetReason: z.string().max(10_000).optional(),
  forgetBatchId: z.string().max(64).optional(),
  temporalContext: z.strictObject({ documentDate: iso.optional(), eventDates: z.array(z.string().max(100)).max(1000).optional() }).optional(),
  version: z.number().int().min(1),
  isLatest: z.boolean(),
  parentMemoryId: id.optional(),
  rootMemoryId: id.optional(),
  relation: relation.optional(),
  relations: z.record(id, relation),
  sources: z.array(z.strictObject({ documentId: id, chunkPositions: z.array(z.number().int().min(0)) })).max(10_000),
  isInference: z.boolean().optional(),
  bucketKeys: z.array(z.string().max(200)).max(100),
  filepath: z.string().max(4096).optional(),
  createdAt: iso,
  updatedAt: iso,
});

/** Parses and checks one archive memory record (JSON text); InvalidArgumentError names the first problem. */
export function parseArchiveMemory(json: string): ArchiveMemory {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new InvalidArgumentError("an archive memory record is not valid JSON");
  }
  const r = archiveMemorySchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new InvalidArgumentError(`invalid archive memory record: ${issue.path.join(".") || "record"}: ${issue.message}`);
  }
  const m = r.data as ArchiveMemory;
  validateNamespace(m.namespace, "namespace");
  if ((m.version === 1) !== (m.parentMemoryId === undefined))
    throw new InvalidArgumentError(`archive memory ${m.id}: version 1 has no parent, a later version has one`);
  return m;
}

/**
 * The record an archive memory is written as in `tenantId`: its own id, its
 * chain (parent, root), its relations and its provenance follow the id maps
 * (only ids that changed are in them).
 */
export function importedMemory(
  m: ArchiveMemory,
  tenantId: string,
  memoryIds: ReadonlyMap<string, string>,
  documentIds: ReadonlyMap<string, string>,
): MemoryRecord {
  const mem = (x: string) => memoryIds.get(x) ?? x;
  const out: MemoryRecord = {
    ...m,
    tenantId,
    id: mem(m.id),
    relations: Object.fromEntries(Object.entries(m.relations).map(([k, v]) => [mem(k), v])),
    sources: m.sources.map((s) => ({ documentId: documentIds.get(s.documentId) ?? s.documentId, chunkPositions: [...s.chunkPositions] })),
  };
  if (m.parentMemoryId !== undefined) out.parentMemoryId = mem(m.parentMemoryId);
  if (m.rootMemoryId !== undefined) out.rootMemoryId = mem(m.rootMemoryId);
  return out;
}
