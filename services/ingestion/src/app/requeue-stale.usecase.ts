import type { Clock } from "@engram/kernel";
import { documentDeleted, documentQueued } from "./document-events";
import type { DocumentRepository } from "./ports";

/**
 * Safety net for "nothing stuck": a document whose processing made no
 * progress for `staleAfterMs` (a lost message, a dead-lettered event whose
 * failure could not be recorded) is queued again for the same generation.
 * The worker's processing is idempotent, so a duplicate costs only time.
 * A generation re-queued `maxRequeues` times without finishing (its events
 * keep being dead-lettered: a document that stops the process) is failed
 * instead, with a reason, so nothing is retried for ever.
 */
export class RequeueStaleUseCase {
  constructor(
    private readonly repo: DocumentRepository,
    private readonly clock: Clock,
    private readonly staleAfterMs: number,
    private readonly onWritten: () => void,
    private readonly maxRequeues = 3,
  ) {}

  async execute(limit = 500): Promise<number> {
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - this.staleAfterMs).toISOString();
    const stale = await this.repo.listStale(cutoff, limit);
    let n = 0;
    for (const doc of stale) {
      const requeues = (doc.requeues ?? 0) + 1;
      if (requeues > this.maxRequeues) {
        const failed = {
          ...doc,
          status: "failed" as const,
          statusReason: `processing never finished: queued again ${this.maxRequeues} times after it stalled; the document may stop the service — split or simplify it`,
          updatedAt: now.toISOString(),
        };
        // Like any failure of the current generation, what earlier content left behind is withdrawn.
        if (await this.repo.update(doc, failed, [documentDeleted(failed, now, {}, true)])) n++;
        continue;
      }
      const next = { ...doc, status: "queued" as const, stateSequence: 0, requeues, updatedAt: now.toISOString() };
      if (await this.repo.update(doc, next, [documentQueued(next)])) n++;
    }
    if (n) this.onWritten();
    return n;
  }
}
