import { type Clock, derivedId, fillExportPage, InvalidArgumentError, newId } from "@engram/kernel";
import type { MemoryRecord } from "@engram/memory-model";
import { type ArchiveMemory, importedMemory, parseArchiveMemory, toArchiveMemory } from "../domain/archive";
import type { MemoryWriter } from "./memory-writer";
import type { MemoryRepository } from "./ports";

const READ_STEP = 500;
export const IMPORT_MAX_RECORDS = 500;

/**
 * Tenant export and import of memories (issue #34; docs/export-format.md):
 * every version of every chain, forgotten or not, with relations, expiry and
 * provenance. Import keeps ids where free on the instance (PlanMemoryImport
 * gives new ones to ids another tenant holds) and writes each record with
 * its vector made here; a record already in the tenant is skipped, so a
 * repeated import writes nothing twice.
 */
export class MemoryArchiveUseCase {
  constructor(
    private readonly deps: {
      repo: MemoryRepository;
      writer: MemoryWriter;
      clock: Clock;
    },
  ) {}

  async exportPage(tenantId: string, cursor: string, maxBytes: number): Promise<{ records: string[]; nextCursor: string }> {
    const now = this.deps.clock.now().toISOString();
    return fillExportPage({
      cursor,
      maxBytes,
      step: READ_STEP,
      read: (offset, limit) =>
        this.deps.repo.list({ tenantId, allVersions: true, includeForgotten: true, sort: "createdAt", order: "asc", offset, limit, now }),
      serialise: toArchiveMemory,
    });
  }

  /**
   * New ids for the archive ids another tenant of this instance holds, derived from the tenant and the archive id (a
   * repeated import derives the same ones); ids the target tenant holds are the same memories.
   */
  async plan(tenantId: string, ids: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids)];
    // Derived from the tenant and the archive id: a repeated import derives the same id and finds the memory here.
    const derived = new Map(unique.map((id) => [id, derivedId("memory", tenantId, id)]));
    const owners = await this.deps.repo.ownersOf([...unique, ...derived.values()]);
    const out = new Map<string, string>();
    for (const id of unique) {
      const owner = owners.get(id);
      if (owner === undefined || owner === tenantId) continue;
      const alt = derived.get(id)!;
      const altOwner = owners.get(alt);
      out.set(id, altOwner === undefined || altOwner === tenantId ? alt : newId("memory"));
    }
    return out;
  }

  async import(cmd: {
    tenantId: string;
    records: string[];
    memoryIds: ReadonlyMap<string, string>;
    documentIds: ReadonlyMap<string, string>;
    formed: { documentId: string; generation: number }[];
  }): Promise<{ imported: number; skipped: number }> {
    if (cmd.records.length > IMPORT_MAX_RECORDS) throw new InvalidArgumentError(`at most ${IMPORT_MAX_RECORDS} records per call`);
    const parsed: ArchiveMemory[] = cmd.records.map(parseArchiveMemory);
    const records: MemoryRecord[] = parsed.map((m) => importedMemory(m, cmd.tenantId, cmd.memoryIds, cmd.documentIds));
    const owners = await this.deps.repo.ownersOf(records.map((r) => r.id));
    const foreign = records.find((r) => owners.has(r.id) && owners.get(r.id) !== cmd.tenantId);
    if (foreign) throw new InvalidArgumentError(`memory id ${foreign.id} is taken on this instance: plan the import first (PlanMemoryImport)`);
    const fresh = records.filter((r) => !owners.has(r.id));
    if (fresh.length) {
      const outcome = await this.deps.writer.write(fresh);
      if (outcome !== "written") throw new InvalidArgumentError(`the archive's memories could not be written (${outcome}): two latest versions of one chain?`);
    }
    for (const f of cmd.formed) {
      if (!f.documentId || !Number.isInteger(f.generation) || f.generation < 1)
        throw new InvalidArgumentError("a formed document needs an id and a generation ≥ 1");
      await this.deps.repo.write({ records: [], formation: { tenantId: cmd.tenantId, documentId: f.documentId, generation: f.generation } });
    }
    return { imported: fresh.length, skipped: records.length - fresh.length };
  }
}
