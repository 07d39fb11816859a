import { setTimeout as sleep } from "node:timers/promises";
import type { ChunkIndex } from "@engram/index";
import type { Logger } from "@engram/observability";
import type { DocumentFilepathReader } from "./ports";

/** Documents asked of the index per round. */
const BATCH = 100;

/**
 * Fills in the filepath of chunks written before chunks carried their
 * document's filepath (an index upgraded in place): for each such document,
 * its filepath is read from ingestion and recorded on the chunks that have
 * none recorded (`ChunkIndex.backfillFilepath`, conditional, so an update or a
 * re-index that got there first wins). A document ingestion no longer has is
 * recorded without one (its delete event removes the chunks). Until a document
 * is reached, recall checks its chunks with ingestion (see
 * `ChunkSearchQuery.filepath`). Stops when none is left, or after a round that
 * changed nothing (the next start tries again). `keepTrying` runs it again
 * after a failure (ingestion or the index unreachable) until it completes.
 */
export class BackfillFilepathsUseCase {
  constructor(
    private readonly deps: {
      index: Pick<ChunkIndex, "documentsWithoutFilepath" | "backfillFilepath">;
      documents: DocumentFilepathReader;
      logger: Logger;
    },
  ) {}

  /** Runs `execute` until it completes, waiting `retryMs` after each failure; resolves when done or stopped. */
  async keepTrying(signal: AbortSignal, retryMs = 60_000): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.execute(signal);
        return;
      } catch (err) {
        this.deps.logger.warn({ err, retryMs }, "filepath backfill failed; trying again later");
      }
      await sleep(retryMs, undefined, { signal }).catch(() => undefined);
    }
  }

  /** Returns the number of documents filled in. `signal` stops between documents. */
  async execute(signal?: AbortSignal): Promise<number> {
    let documents = 0;
    for (;;) {
      const pending = await this.deps.index.documentsWithoutFilepath(BATCH);
      if (pending.length === 0) break;
      let changed = 0;
      for (const d of pending) {
        if (signal?.aborted) return documents;
        const found = await this.deps.documents.filepath(d.tenantId, d.documentId);
        if ((await this.deps.index.backfillFilepath(d.tenantId, d.documentId, found.found ? found.filepath : undefined)) > 0) changed++;
      }
      documents += changed;
      if (changed === 0) {
        this.deps.logger.warn({ pending: pending.length }, "filepath backfill made no progress; stopping until the next start");
        break;
      }
    }
    if (documents > 0) this.deps.logger.info({ documents }, "chunk filepaths backfilled from ingestion");
    return documents;
  }
}
