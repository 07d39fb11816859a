import fs from "node:fs";
import path from "node:path";
import Piscina from "piscina";
import { UnprocessableDocumentError } from "../../domain/errors";
import type { WorkerResult } from "./extract.worker";
import type { ExtractInput, Extracted } from "./types";

export interface ExtractionPoolOptions {
  /** Worker threads (documents extracted in parallel). */
  threads: number;
  /** Per-document limit: a task still running then is stopped (its thread terminated) and fails. */
  timeoutMs: number;
  /** Heap limit of each thread in MB (default 1024): a document that needs more fails instead of the process. */
  maxMemoryMb?: number;
  /** The worker module (default: extract.worker.js beside this file when built, else extract.worker.ts under tsx). */
  workerFile?: string;
  /** Errors of the pool itself (a thread that fails to start): the tasks fail too; this only reports. */
  onError?: (err: Error) => void;
}

function defaultWorkerFile(): string {
  const js = path.join(__dirname, "extract.worker.js");
  return fs.existsSync(js) ? js : path.join(__dirname, "extract.worker.ts");
}

/**
 * Runs extractDocument in worker threads (piscina) so that parsing a large PDF
 * or workbook never stalls the event loop. Worker threads inherit the
 * process's execArgv, so under `node --import tsx` they load the TypeScript
 * worker module as the main thread does. Unprocessable documents fail with
 * UnprocessableDocumentError and the worker's reason; a task over the time
 * limit is aborted (piscina terminates its thread) and fails with a reason;
 * a thread that runs out of memory fails the document the same way.
 */
export class ExtractionPool {
  private readonly pool: Piscina<ExtractInput, WorkerResult>;
  private readonly timeoutMs: number;

  constructor(opts: ExtractionPoolOptions) {
    if (!(opts.threads >= 1)) throw new Error("ExtractionPool needs at least one thread");
    this.timeoutMs = opts.timeoutMs;
    this.pool = new Piscina<ExtractInput, WorkerResult>({
      filename: opts.workerFile ?? defaultWorkerFile(),
      minThreads: 0,
      maxThreads: opts.threads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: opts.maxMemoryMb ?? 1024 },
    });
    // Without a listener, an "error" event (a thread that cannot start) would crash the process.
    this.pool.on("error", opts.onError ?? ((err: Error) => console.error("extraction worker error", err)));
  }

  async run(input: ExtractInput): Promise<Extracted> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    try {
      const result = await this.pool.run(input, { signal: controller.signal });
      if (result.ok) return result.value;
      throw new UnprocessableDocumentError(result.reason);
    } catch (err) {
      if (err instanceof UnprocessableDocumentError) throw err;
      if (timedOut) {
        throw new UnprocessableDocumentError(
          `extraction took longer than ${this.timeoutMs >= 1000 ? `${Math.round(this.timeoutMs / 1000)} s` : `${this.timeoutMs} ms`} and was stopped; the file may be too large or malformed — split it into smaller files`,
        );
      }
      if ((err as NodeJS.ErrnoException)?.code === "ERR_WORKER_OUT_OF_MEMORY") {
        throw new UnprocessableDocumentError("the document needs more memory to extract than this service allows; split it into smaller files");
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
