import type { Clock } from "@engram/kernel";
import { dropSource, forgetMemory, type MemoryRecord } from "../domain/memory";
import type { MemoryRepository } from "./ports";

/**
 * Memories whose provenance or lifetime ended: a deleted source document is
 * dropped from every memory's sources (a memory formed only from it is
 * forgotten with the reason), and memories past forgetAfter are forgotten by
 * the expiry sweep. Search already hides expired memories before the sweep
 * runs; the sweep makes the state explicit (isForgotten, forgottenAt).
 */
export class RetireMemoriesUseCase {
  constructor(
    private readonly repo: MemoryRepository,
    private readonly clock: Clock,
  ) {}

  async documentDeleted(tenantId: string, documentId: string, reason?: string): Promise<number> {
    const now = this.clock.now().toISOString();
    const changed = (await this.repo.findByDocument(tenantId, documentId))
      .map((m) => dropSource(m, documentId, now, reason))
      .filter((m): m is MemoryRecord => !!m);
    if (changed.length) await this.repo.write({ records: changed });
    return changed.filter((m) => m.isForgotten && m.forgottenAt === now).length;
  }

  /** Forgets memories whose forgetAfter has passed; returns how many (at most `limit` per call). */
  async expire(limit = 500): Promise<number> {
    const now = this.clock.now().toISOString();
    const due = await this.repo.findExpired(now, limit);
    if (due.length === 0) return 0;
    await this.repo.write({ records: due.map((m) => forgetMemory(m, now, m.forgetReason ?? "expired (forgetAfter passed)")) });
    return due.length;
  }
}
