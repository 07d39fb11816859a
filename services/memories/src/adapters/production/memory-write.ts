import { type AnyBulkWriteOperation, type Document, isDuplicateKeyError } from "@engram/storage/mongo";
import type { MemoryRecord } from "../../domain/memory";
import type { MemoryWrite, WriteOutcome } from "../../app/ports";
import { type MemoryDoc, type StoredVector, toMemoryDoc } from "./memory-doc";
import {
  activeCopies,
  contentGuardId,
  formationRefusal,
  type GuardDoc,
  guardWrites,
  memoryQueries,
  memoryWriteOps,
  namespaceGuardId,
  newerFormation,
  sourceGuardId,
} from "./memory-queries";

/** Rolls a write's transaction back with its outcome (a check failed; nothing is committed). */
export class Refused extends Error {
  constructor(readonly outcome: Exclude<WriteOutcome, "written">) {
    super(`memory write refused: ${outcome}`);
  }
}

/**
 * The operations a write's transaction runs, each inside the transaction:
 * the store binds them to its collections and session; the unit tests bind
 * them to documents in memory (mingo), so this path runs on every commit.
 */
export interface WriteTxSteps {
  findGuard(id: string): Promise<Pick<GuardDoc, "deletedGeneration" | "version"> | null>;
  upsertGuard(id: string, update: Document): Promise<void>;
  /** Applies the update to the guard (upsert) and returns it as updated. */
  updateGuard(id: string, update: Document): Promise<Pick<GuardDoc, "version">>;
  countFormations(filter: Document): Promise<number>;
  upsertFormation(filter: Document, update: Document): Promise<void>;
  /** The stored embeddings of these memories (those that have one). */
  storedVectors(ids: string[]): Promise<Pick<MemoryDoc, "_id" | "vector" | "model">[]>;
  /** Runs the operations in order, stopping at the first error (E11000 included); returns how many documents the updates matched. */
  bulkMemories(ops: AnyBulkWriteOperation<MemoryDoc>[]): Promise<{ matchedCount: number }>;
  countMemories(filter: Document): Promise<number>;
}

/**
 * The transaction of one write of the production memory store; a failed
 * check throws Refused (the driver aborts it: nothing is written), a unique
 * index E11000. Returns the documents written, for the mirror.
 *
 * Every check of an absence writes the guard of what it checked first (see
 * GuardDoc): two writers deciding on the same absence then conflict, and the
 * driver runs the later one's transaction again on a snapshot holding the
 * earlier one's commit. Every memory is written conditionally
 * (memoryWriteOps): an insert of a new id, or an update of the version read;
 * no blind replace.
 */
export async function writeTransaction(
  tx: WriteTxSteps,
  w: MemoryWrite,
  records: MemoryRecord[],
  vectors: ReadonlyMap<string, StoredVector>,
  rev: string,
  at: string,
): Promise<MemoryDoc[]> {
  if (w.source) {
    const { tenantId, documentId } = w.source;
    const id = sourceGuardId(tenantId, documentId);
    const refused = formationRefusal(await tx.findGuard(id), w.source.generation);
    if (refused) throw new Refused(refused);
    if ((await tx.countFormations(newerFormation(w.source))) > 0) throw new Refused("source-superseded");
    // Written, not only read: a retire of the document writes this guard too, so the two conflict.
    await tx.upsertGuard(id, guardWrites.touch(tenantId, at, documentId));
  }
  if (w.retire) await tx.upsertGuard(sourceGuardId(w.retire.tenantId, w.retire.documentId), guardWrites.tombstone(w.retire));
  for (const d of w.expectNoDuplicate ?? []) await tx.upsertGuard(contentGuardId(d), guardWrites.touch(d.tenantId, at));
  // The namespace's counter: checked when expected (read and written here, so a concurrent write of the namespace
  // conflicts with this transaction), and moved by one for every namespace this write stores memories of.
  const scopes = new Map<string, { tenantId: string; namespace: string }>();
  for (const m of records) scopes.set(namespaceGuardId(m.tenantId, m.namespace), { tenantId: m.tenantId, namespace: m.namespace });
  if (w.expectNamespace) {
    const { tenantId, namespace, version } = w.expectNamespace;
    const id = namespaceGuardId(tenantId, namespace);
    if (((await tx.findGuard(id))?.version ?? 0) !== version) throw new Refused("conflict");
    if (!scopes.has(id)) await tx.upsertGuard(id, guardWrites.touch(tenantId, at));
  }
  const nsVersions = new Map<string, number>();
  for (const [id, s] of scopes) nsVersions.set(id, (await tx.updateGuard(id, guardWrites.bumpNamespace(s.tenantId, s.namespace, at))).version ?? 0);

  // The stored embedding of each record, so the mirror gets the version as stored (a write without a new vector keeps it).
  const stored = new Map((records.length ? await tx.storedVectors(records.map((m) => m.id)) : []).map((r) => [r._id, r]));
  const docs = records.map((m) => {
    const before = stored.get(m.id);
    const kept = before?.vector && before.model ? { vector: before.vector, model: before.model } : undefined;
    return { ...toMemoryDoc(m, rev, vectors.get(m.id) ?? kept), nsVersion: nsVersions.get(namespaceGuardId(m.tenantId, m.namespace))! };
  });
  const { ops, conditional } = memoryWriteOps(docs, w.expect ?? [], rev, new Set(vectors.keys()));
  if (ops.length && (await tx.bulkMemories(ops)).matchedCount !== conditional) throw new Refused("conflict");

  const ids = records.map((m) => m.id);
  for (const d of w.expectNoDuplicate ?? []) if ((await tx.countMemories(activeCopies(d, ids))) > 0) throw new Refused("conflict");
  if (w.formation) {
    const { tenantId, documentId, generation } = w.formation;
    // An inserted marker takes tenantId, documentId and generation from the filter.
    await tx.upsertFormation({ tenantId, documentId, generation }, { $setOnInsert: { formedAt: at } });
  }
  // A memory that still cites a retired document was written after the caller read the document's memories.
  if (w.retire && (await tx.countMemories(memoryQueries.byDocument(w.retire.tenantId, w.retire.documentId).filter)) > 0) throw new Refused("conflict");
  return docs;
}

/**
 * A write's outcome once its transaction ended: committed ("written", with
 * the documents for the mirror), refused by a check (its outcome), or refused
 * by a unique index (E11000: a memory id stored meanwhile, or a second latest
 * version of a chain; another writer won, a conflict). Anything else throws.
 */
export async function outcomeOf(transaction: () => Promise<MemoryDoc[]>): Promise<{ outcome: WriteOutcome; written: MemoryDoc[] }> {
  try {
    return { outcome: "written", written: await transaction() };
  } catch (err) {
    if (err instanceof Refused) return { outcome: err.outcome, written: [] };
    if (isDuplicateKeyError(err)) return { outcome: "conflict", written: [] };
    throw err;
  }
}
