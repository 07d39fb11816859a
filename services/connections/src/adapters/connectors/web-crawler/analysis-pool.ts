import fs from "node:fs";
import path from "node:path";
import Piscina from "piscina";
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

function defaultWorkerFile(): string {
  const js = path.join(__dirname, "page-analysis.worker.js");
  return fs.existsSync(js) ? js : path.join(__dirname, "page-analysis.worker.ts");
}

/**
 * Decodes and analyses crawled pages (up to 10 MB of HTML each) in worker
 * threads (piscina), so that a large page never stalls the thread that serves
 * the connections service and, in the all-in-one process, ingestion, recall
 * and memories. A page over the time or memory limit fails alone, with a
 * reason the run records.
 */
export class PageAnalysisPool {
  private readonly pool: Piscina<{ body: Uint8Array; contentType?: string }, DecodedPage>;

  constructor(private readonly opts: PageAnalysisPoolOptions) {
    this.pool = new Piscina({
      filename: opts.workerFile ?? defaultWorkerFile(),
      minThreads: 0,
      maxThreads: opts.threads,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: opts.maxMemoryMb ?? 512 },
    });
    this.pool.on("error", opts.onError ?? ((err: Error) => console.error("page analysis worker error", err)));
  }

  async analyse(body: Uint8Array, contentType: string | undefined): Promise<DecodedPage> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.opts.timeoutMs);
    try {
      return await this.pool.run({ body, ...(contentType !== undefined ? { contentType } : {}) }, { signal: controller.signal });
    } catch (err) {
      if (controller.signal.aborted) throw new Error(`analysing the page took longer than ${this.opts.timeoutMs} ms`);
      if ((err as NodeJS.ErrnoException)?.code === "ERR_WORKER_OUT_OF_MEMORY") throw new Error("the page needs more memory to analyse than allowed");
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
