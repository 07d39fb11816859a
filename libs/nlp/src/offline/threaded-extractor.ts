import fs from "node:fs";
import path from "node:path";
import Piscina from "piscina";
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

function defaultWorkerFile(): string {
  const bundled = path.join(__dirname, "fact-extractor.worker.js");
  return fs.existsSync(bundled) ? bundled : path.join(__dirname, "extractor.worker.ts");
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
  private readonly pool: Piscina<ExtractionInput, ExtractedFact[]>;

  constructor(private readonly opts: ThreadedFactExtractorOptions) {
    if (!(opts.threads >= 1)) throw new Error("ThreadedFactExtractor needs at least one thread");
    this.pool = new Piscina<ExtractionInput, ExtractedFact[]>({
      filename: opts.workerFile ?? defaultWorkerFile(),
      minThreads: 0,
      maxThreads: opts.threads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: opts.maxMemoryMb ?? 1024 },
    });
    // Without a listener, an "error" event (a thread that cannot start) would crash the process; the task fails too.
    this.pool.on("error", () => undefined);
  }

  async extract(input: ExtractionInput): Promise<ExtractedFact[]> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.opts.timeoutMs);
    try {
      return await this.pool.run(input, { signal: controller.signal });
    } catch (err) {
      if (timedOut) {
        const limit = this.opts.timeoutMs >= 1000 ? `${Math.round(this.opts.timeoutMs / 1000)} s` : `${this.opts.timeoutMs} ms`;
        throw new ExtractionLimitError(`reading memories from the document took longer than ${limit} and was stopped; split it into smaller documents`);
      }
      if ((err as NodeJS.ErrnoException)?.code === "ERR_WORKER_OUT_OF_MEMORY")
        throw new ExtractionLimitError("reading memories from the document needs more memory than this service allows; split it into smaller documents");
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
