import { BoundedWorkerPool, WorkerLimitError, workerModule } from "@engram/worker-pool";
import { UnprocessableDocumentError } from "../../domain/errors";
import type { PreparedDocument, PrepareInput } from "../../domain/prepare";
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

/**
 * Runs extractDocument, and the chunking and analysis that follow it
 * (`prepareChunks`), in worker threads (piscina) so that parsing a large PDF
 * or analysing a long text never stalls the event loop. Worker threads inherit the
 * process's execArgv, so under `node --import tsx` they load the TypeScript
 * worker module as the main thread does. Unprocessable documents fail with
 * UnprocessableDocumentError and the worker's reason; a task over the time
 * limit is aborted (piscina terminates its thread) and fails with a reason;
 * a thread that runs out of memory fails the document the same way.
 */
export class ExtractionPool {
  private readonly pool: BoundedWorkerPool<ExtractInput | PrepareInput, WorkerResult<unknown>>;

  constructor(opts: ExtractionPoolOptions) {
    if (!(opts.threads >= 1)) throw new Error("ExtractionPool needs at least one thread");
    this.pool = new BoundedWorkerPool({
      filename: opts.workerFile ?? workerModule(__dirname, "extract.worker", "extract.worker.ts"),
      threads: opts.threads,
      timeoutMs: opts.timeoutMs,
      maxMemoryMb: opts.maxMemoryMb ?? 1024,
      onError: opts.onError ?? ((err: Error) => console.error("extraction worker error", err)),
    });
  }

  /** Extracts one document's text (the worker's default task). */
  run(input: ExtractInput, signal?: AbortSignal): Promise<Extracted> {
    return this.task<Extracted>(input, undefined, "extraction", "the file may be too large or malformed — split it into smaller files", signal);
  }

  /** Chunks, analyses and (hashing embedder) embeds a document's text: the CPU part of indexing, off the serving thread. */
  prepare(input: PrepareInput, signal?: AbortSignal): Promise<PreparedDocument> {
    return this.task<PreparedDocument>(input, "prepare", "indexing", "split the document into smaller ones", signal);
  }

  /**
   * One task under the per-document limit: over time, out of memory or a
   * thread that dies fails the document with a readable reason; an
   * unprocessable document fails with the worker's reason. An aborted
   * `signal` (the process is stopping) terminates the task's thread and
   * rejects with the signal's reason: the document is not at fault.
   */
  private async task<T>(input: ExtractInput | PrepareInput, name: string | undefined, what: string, advice: string, signal?: AbortSignal): Promise<T> {
    let result: WorkerResult<T>;
    try {
      result = (await this.pool.run(input, name, signal)) as WorkerResult<T>;
    } catch (err) {
      if (!(err instanceof WorkerLimitError)) throw err;
      throw new UnprocessableDocumentError(
        err.limit === "time"
          ? `${what} ${err.message} and was stopped; ${advice}`
          : `the document needs more memory for ${what} than this service allows; ${advice}`,
      );
    }
    if (result.ok) return result.value;
    throw new UnprocessableDocumentError(result.reason);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
