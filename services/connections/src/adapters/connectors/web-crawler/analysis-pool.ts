import { BoundedWorkerPool, WorkerLimitError, workerModule } from "@engram/worker-pool";
import type { DecodedPage } from "./crawl.types";

export interface PageAnalysisPoolOptions {
  /** Worker threads (pages analysed in parallel). */
  threads: number;
  /** Per-page limit: a page still being analysed then fails (its thread is terminated). */
  timeoutMs: number;
  /** Heap limit of each thread in MB. */
  maxMemoryMb?: number;
  /** The worker module (default: page-analysis.worker.js beside this file when bundled, else the .ts under tsx). */
  workerFile?: string;
  onError?: (err: Error) => void;
}

/**
 * Decodes and analyses crawled pages (up to 10 MB of HTML each) in worker
 * threads (piscina), so that a large page never stalls the thread that serves
 * the connections service and, in the all-in-one process, ingestion, recall
 * and memories. A page over the time or memory limit fails alone, with a
 * reason the run records.
 */
export class PageAnalysisPool {
  private readonly pool: BoundedWorkerPool<{ body: Uint8Array; contentType?: string }, DecodedPage>;

  constructor(opts: PageAnalysisPoolOptions) {
    this.pool = new BoundedWorkerPool({
      filename: opts.workerFile ?? workerModule(__dirname, "page-analysis.worker", "page-analysis.worker.ts"),
      threads: opts.threads,
      timeoutMs: opts.timeoutMs,
      maxMemoryMb: opts.maxMemoryMb ?? 512,
      idleTimeoutMs: 30_000,
      onError: opts.onError ?? ((err: Error) => console.error("page analysis worker error", err)),
    });
  }

  async analyse(body: Uint8Array, contentType: string | undefined): Promise<DecodedPage> {
    try {
      return await this.pool.run({ body, ...(contentType !== undefined ? { contentType } : {}) });
    } catch (err) {
      if (!(err instanceof WorkerLimitError)) throw err;
      throw new Error(err.limit === "time" ? `analysing the page ${err.message}` : "the page needs more memory to analyse than allowed");
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
