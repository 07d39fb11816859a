import { BoundedWorkerPool, WorkerLimitError, workerModule } from "@engram/worker-pool";
import { ExtractionLimitError, type ExtractedFact, type ExtractionInput, type FactExtractor } from "../ports";
import { OfflineFactExtractor } from "./extractor";

export interface ThreadedFactExtractorOptions {
  /** Worker threads (documents whose facts are extracted in parallel). */
  threads: number;
  /** Per-document limit: a document still being read then has its thread stopped and fails. */
  timeoutMs: number;
  /** Heap limit of each thread in MB. */
  maxMemoryMb?: number;
  /** The worker module (default: fact-extractor.worker.js beside the bundle, else extractor.worker.ts under tsx). */
  workerFile?: string;
}

/**
 * The offline fact extractor on worker threads (piscina). Its rules cost CPU
 * in proportion to the document (and more on pathological text), so on the
 * thread that serves the memories API and recall one large document would
 * stall every tenant; here it runs beside them under a time and memory
 * budget. Over budget, the document's formation fails with
 * ExtractionLimitError (not retried: the same input would fail the same way).
 */
export class ThreadedFactExtractor implements FactExtractor {
  readonly id = new OfflineFactExtractor().id;
  private readonly pool: BoundedWorkerPool<ExtractionInput, ExtractedFact[]>;

  constructor(opts: ThreadedFactExtractorOptions) {
    if (!(opts.threads >= 1)) throw new Error("ThreadedFactExtractor needs at least one thread");
    this.pool = new BoundedWorkerPool({
      filename: opts.workerFile ?? workerModule(__dirname, "fact-extractor.worker", "extractor.worker.ts"),
      threads: opts.threads,
      timeoutMs: opts.timeoutMs,
      maxMemoryMb: opts.maxMemoryMb ?? 1024,
    });
  }

  async extract(input: ExtractionInput, signal?: AbortSignal): Promise<ExtractedFact[]> {
    try {
      return await this.pool.run(input, undefined, signal);
    } catch (err) {
      if (!(err instanceof WorkerLimitError)) throw err;
      throw new ExtractionLimitError(
        err.limit === "time"
          ? `reading memories from the document ${err.message} and was stopped; split it into smaller documents`
          : "reading memories from the document needs more memory than this service allows; split it into smaller documents",
      );
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
