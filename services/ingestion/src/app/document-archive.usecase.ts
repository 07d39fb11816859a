import { type Clock, derivedId, fillExportPage, InvalidArgumentError, newId } from "@engram/kernel";
import { type ArchiveDocument, importedRecord, parseArchiveDocument, toArchiveDocument } from "../domain/archive";
import type { DocumentRecord } from "../domain/document";
import { documentQueued } from "./document-events";
import type { DocumentRepository, FileStore } from "./ports";

/** Records read from the store per step of an export page. */
const READ_STEP = 200;
export const IMPORT_MAX_RECORDS = 600;

export interface ImportResult {
  sourceId: string;
  /** Id written (or already holding the record); absent when refused. */
  id?: string;
  error?: string;
}

/**
 * Tenant export and import of documents (issue #34; docs/export-format.md).
 * Export pages the tenant's documents oldest first within a byte budget.
 * Import writes archive records through the repository with their ids kept
 * where free on the instance: an id held by another tenant gets a new one
 * (PlanDocumentImport), an id or caller id already in the target tenant is
 * the same document (a repeated import writes nothing twice).
 */
export class DocumentArchiveUseCase {
  constructor(
    private readonly repo: DocumentRepository,
    private readonly files: FileStore,
    private readonly clock: Clock,
    private readonly maxFileBytes: number,
    private readonly onWritten: () => void,
  ) {}

  async exportPage(tenantId: string, cursor: string, maxBytes: number): Promise<{ records: string[]; nextCursor: string }> {
    return fillExportPage({
      cursor,
      maxBytes,
      step: READ_STEP,
      read: (offset, limit) => this.repo.list({ tenantId, sort: "createdAt", order: "asc", offset, limit }),
      serialise: toArchiveDocument,
    });
  }

  /**
   * Ids to use for archive documents: `newIds` for ids another tenant holds
   * (derived from the tenant and the archive id, so stable across imports);
   * `existingIds` for documents the target tenant already has (same id, or
   * the same caller id in the same namespace), which are not written again.
   */
  async plan(
    tenantId: string,
    items: { id: string; namespace: string; customId?: string }[],
  ): Promise<{ newIds: Map<string, string>; existingIds: Map<string, string> }> {
    const newIds = new Map<string, string>();
    const existingIds = new Map<string, string>();
    // An id another tenant holds is replaced by one derived from the tenant and the archive id: a repeated import
    // derives the same one and finds it here.
    const derived = new Map(items.map((i) => [i.id, derivedId("document", tenantId, i.id)]));
    const owners = await this.repo.ownersOf([...items.map((i) => i.id), ...derived.values()]);
    const byNamespace = new Map<string, string[]>();
    for (const i of items) if (i.customId) byNamespace.set(i.namespace, [...(byNamespace.get(i.namespace) ?? []), i.customId]);
    const held = new Map<string, Map<string, DocumentRecord>>();
    for (const [ns, ids] of byNamespace) held.set(ns, await this.repo.findByCustomIds(tenantId, ns, ids));
    for (const i of items) {
      const owner = owners.get(i.id);
      const sameCaller = i.customId ? held.get(i.namespace)?.get(i.customId) : undefined;
      if (owner === tenantId) existingIds.set(i.id, i.id);
      else if (sameCaller) existingIds.set(i.id, sameCaller.id);
      else if (owner !== undefined) {
        const alt = derived.get(i.id)!;
        const altOwner = owners.get(alt);
        if (altOwner === tenantId) existingIds.set(i.id, alt);
        else newIds.set(i.id, altOwner === undefined ? alt : newId("document"));
      }
    }
    return { newIds, existingIds };
  }

  /** Writes archive records of documents without an original file, in one transaction. */
  async importRecords(tenantId: string, records: string[], newIds: ReadonlyMap<string, string>): Promise<ImportResult[]> {
    if (records.length > IMPORT_MAX_RECORDS) throw new InvalidArgumentError(`at most ${IMPORT_MAX_RECORDS} records per call`);
    const results: ImportResult[] = [];
    const writes: { result: ImportResult; next: DocumentRecord }[] = [];
    const now = this.clock.now().toISOString();
    for (const json of records) {
      let d: ArchiveDocument;
      try {
        d = parseArchiveDocument(json);
        if (d.file) throw new InvalidArgumentError(`archive document ${d.id} has a file: import it with its bytes (ImportDocumentFile)`);
      } catch (err) {
        results.push({ sourceId: idOf(json), error: (err as Error).message });
        continue;
      }
      const id = newIds.get(d.id) ?? d.id;
      const result: ImportResult = { sourceId: d.id, id };
      results.push(result);
      if (await this.present(tenantId, d, id)) continue;
      writes.push({ result, next: importedRecord(d, tenantId, id, now) });
    }
    if (writes.length) {
      const applied = await this.repo.writeMany(writes.map((w) => ({ next: w.next, events: eventsOf(w.next) })));
      writes.forEach((w, i) => {
        if (!applied[i]) {
          delete w.result.id;
          w.result.error = "the caller id is already taken in the namespace";
        }
      });
      if (applied.some(Boolean)) this.onWritten();
    }
    return results;
  }

  /** Writes one archive document with its original: the bytes are stored and checked against the record's sha256 first. */
  async importFile(tenantId: string, json: string, newIds: ReadonlyMap<string, string>, bytes: AsyncIterable<Uint8Array>): Promise<ImportResult> {
    const d = parseArchiveDocument(json);
    if (!d.file) throw new InvalidArgumentError(`archive document ${d.id} has no file: import it with ImportDocuments`);
    const id = newIds.get(d.id) ?? d.id;
    if (await this.present(tenantId, d, id)) {
      for await (const _ of bytes); // drain: the original is already stored
      return { sourceId: d.id, id };
    }
    const key = `${tenantId}/${newId("event")}`;
    const stored = await this.files.write(key, bytes, this.maxFileBytes);
    let keep = false;
    try {
      if (stored.sha256 !== d.file.sha256 || stored.sizeBytes !== d.file.sizeBytes)
        throw new InvalidArgumentError(`the file of archive document ${d.id} does not match its record (size or sha256)`);
      const next = importedRecord(d, tenantId, id, this.clock.now().toISOString(), { key, ...stored });
      const [ok] = await this.repo.writeMany([{ next, events: eventsOf(next) }]);
      if (!ok) return { sourceId: d.id, error: "the caller id is already taken in the namespace" };
      keep = true;
      this.onWritten();
      return { sourceId: d.id, id };
    } finally {
      if (!keep) await this.files.delete(key);
    }
  }

  /** The target tenant already holds this document (a repeated import). */
  private async present(tenantId: string, d: ArchiveDocument, id: string): Promise<boolean> {
    if (await this.repo.findById(tenantId, id)) return true;
    return !!(d.customId && (await this.repo.findByCustomId(tenantId, d.namespace, d.customId)));
  }
}

const eventsOf = (d: DocumentRecord) => (d.status === "queued" ? [documentQueued(d)] : []);

function idOf(json: string): string {
  try {
    const v = (JSON.parse(json) as { id?: unknown }).id;
    return typeof v === "string" ? v.slice(0, 64) : "";
  } catch {
    return "";
  }
}
