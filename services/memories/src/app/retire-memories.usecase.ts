import type { Clock } from "@engram/kernel";
import { dropSource, forgetMemory, type MemoryRecord } from "../domain/memory";
import type { DocumentGeneration, MemoryRepository } from "./ports";
import { RETRY, retryOnConflict } from "./write-conflicts";

/**
 * How long a deleted document's tombstone is kept. It only has to outlive the
 * formations that read the document before it was deleted: a later one reads
 * it first and finds it gone. A formation ends within minutes (the extractor's
 * budget, BUS_MAX_ATTEMPTS deliveries with backoff capped at seconds), so a
 * week leaves room for a stalled consumer or a paused cluster as well.
 */
export const TOMBSTONE_RETENTION_MS = 7 * 24 * 3_600_000;

/** A document deleted without a known generation (an event from before generations): every generation of it is gone. */
export const EVERY_GENERATION = Number.MAX_SAFE_INTEGER;

/**
 * Memories whose provenance or lifetime ended: a deleted source document is
 * dropped from every memory's sources (a memory formed only from it is
 * forgotten with the reason), and memories past forgetAfter are forgotten by
 * the expiry sweep. Search already hides expired memories before the sweep
 * runs; the sweep makes the state explicit (isForgotten, forgottenAt).
 *
 * Both run on every replica at once and against formations and updates of
 * other replicas: each write is conditional on the versions read, and a
 * conflict reads again.
 */
export class RetireMemoriesUseCase {
  constructor(
    private readonly repo: MemoryRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * `doc.generation`: the document's generation when it was deleted (or
   * withdrawn). Its tombstone, written with the retirement, refuses every
   * formation write of that generation or an earlier one from then on, so a
   * formation that read the document before the delete writes nothing; a newer
   * generation (new content of a withdrawn document) still forms.
   */
  async documentDeleted(doc: DocumentGeneration, reason?: string): Promise<number> {
    return retryOnConflict("retire a deleted document's memories", async () => {
      const now = this.clock.now().toISOString();
      const read = await this.repo.findByDocument(doc.tenantId, doc.documentId);
      const changed: MemoryRecord[] = [];
      const expect: { id: string; updatedAt: string }[] = [];
      for (const m of read) {
        const next = dropSource(m, doc.documentId, now, reason);
        if (!next) continue;
        changed.push(next);
        expect.push({ id: m.id, updatedAt: m.updatedAt });
      }
      // A conflict: one of them changed, or a formation cited the document after it was read; read again.
      const outcome = await this.repo.write({ records: changed, expect, retire: { ...doc, at: now } });
      return outcome === "written" ? changed.filter((m) => m.isForgotten && m.forgottenAt === now).length : RETRY;
    });
  }

  /** Forgets memories whose forgetAfter has passed; returns how many (at most `limit` per call). */
  async expire(limit = 500): Promise<number> {
    return retryOnConflict("forget expired memories", async () => {
      const now = this.clock.now().toISOString();
      const due = await this.repo.findExpired(now, limit);
      if (due.length === 0) return 0;
      // A conflict: one of them changed (a new version, renewed) since it was found; find them again.
      const outcome = await this.repo.write({
        records: due.map((m) => forgetMemory(m, now, m.forgetReason ?? "expired (forgetAfter passed)")),
        expect: due.map((m) => ({ id: m.id, updatedAt: m.updatedAt })),
      });
      return outcome === "written" ? due.length : RETRY;
    });
  }

  /** Removes tombstones older than TOMBSTONE_RETENTION_MS; returns how many. */
  async pruneTombstones(): Promise<number> {
    return this.repo.pruneTombstones(new Date(this.clock.now().getTime() - TOMBSTONE_RETENTION_MS).toISOString());
  }
}
