import type { Clock } from "@engram/kernel";
import { documentQueued } from "./document-events";
import type { DocumentRepository } from "./ports";

/**
 * Safety net for "nothing stuck": a document whose processing made no
 * progress for `staleAfterMs` (a lost message, a dead-lettered event whose
 * failure could not be recorded) is queued again for the same generation.
 * The worker's processing is idempotent, so a duplicate costs only time.
 */
export class RequeueStaleUseCase {
  constructor(
    private readonly repo: DocumentRepository,
    private readonly clock: Clock,
    private readonly staleAfterMs: number,
    private readonly onWritten: () => void,
  ) {}

  async execute(limit = 500): Promise<number> {
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - this.staleAfterMs).toISOString();
    const stale = await this.repo.listStale(cutoff, limit);
    let n = 0;
    for (const doc of stale) {
      const next = { ...doc, status: "queued" as const, stateSequence: 0, updatedAt: now.toISOString() };
      if (await this.repo.update(doc, next, [documentQueued(next)])) n++;
    }
    if (n) this.onWritten();
    return n;
  }
}
