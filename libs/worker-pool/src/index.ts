import fs from "node:fs";
import path from "node:path";
import Piscina from "piscina";

/**
 * CPU-heavy work on worker threads (piscina) under a time and a memory limit
 * per task, the one mechanism behind document extraction and chunking, fact
 * extraction and crawled-page analysis: work whose cost grows with its input
 * never runs on the thread that serves requests, and one task over its
 * limits fails alone (its thread is terminated) instead of stalling or
 * crashing the process.
 */

/**
 * A worker module beside the calling module: `<bundled>.js` when the code
 * runs from the bundle (dist/, where scripts/build.mjs writes each worker
 * under its own name), else the TypeScript source under tsx (worker threads
 * inherit the process's `--import tsx`).
 */
export function workerModule(dir: string, bundled: string, source: string): string {
  const js = path.join(dir, `${bundled}.js`);
  return fs.existsSync(js) ? js : path.join(dir, source);
}

/** A task stopped at one of its limits. */
export class WorkerLimitError extends Error {
  override name = "WorkerLimitError";
  constructor(
    readonly limit: "time" | "memory",
    message: string,
  ) {
    super(message);
  }
}

export interface BoundedWorkerPoolOptions {
  /** The worker module (see workerModule). */
  filename: string;
  /** Threads (tasks run in parallel). */
  threads: number;
  /** Per task: a task still running then is aborted and its thread terminated. */
  timeoutMs: number;
  /** Heap limit of each thread in MB. */
  maxMemoryMb: number;
  /** Threads idle this long are stopped (default 60 s). */
  idleTimeoutMs?: number;
  /** Errors of the pool itself (a thread that fails to start); the tasks fail too, this only reports. */
  onError?: (err: Error) => void;
}

/** "5 ms", "30 s": a limit as the failure messages say it. */
export function formatLimit(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

export class BoundedWorkerPool<In, Out> {
  private readonly pool: Piscina<In, Out>;
  readonly timeoutMs: number;
  readonly threads: number;

  constructor(opts: BoundedWorkerPoolOptions) {
    if (!(opts.threads >= 1)) throw new Error("a worker pool needs at least one thread");
    this.timeoutMs = opts.timeoutMs;
    this.threads = opts.threads;
    this.pool = new Piscina<In, Out>({
      filename: opts.filename,
      minThreads: 0,
      maxThreads: opts.threads,
      idleTimeout: opts.idleTimeoutMs ?? 60_000,
      resourceLimits: { maxOldGenerationSizeMb: opts.maxMemoryMb },
    });
    // Without a listener, an "error" event would crash the process.
    this.pool.on("error", opts.onError ?? (() => undefined));
  }

  /**
   * Runs one task (the module's default export, or its export `name`).
   * WorkerLimitError when it ran out of time or memory; the task's own
   * errors as thrown. When `signal` aborts (the process is stopping), the
   * task is abandoned at once — a running task's thread is terminated, a
   * queued one never starts — and the call rejects with the signal's reason
   * (never a WorkerLimitError: the input is not at fault).
   */
  async run(input: In, name?: string, signal?: AbortSignal): Promise<Out> {
    signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const cancel = () => controller.abort(signal!.reason);
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      return await this.pool.run(input, { signal: controller.signal, ...(name ? { name } : {}) });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) throw new WorkerLimitError("time", `took longer than ${formatLimit(this.timeoutMs)}`);
      if ((err as NodeJS.ErrnoException)?.code === "ERR_WORKER_OUT_OF_MEMORY") throw new WorkerLimitError("memory", "needed more memory than allowed");
      throw err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", cancel);
    }
  }

  /**
   * Stops every thread, used when the process stops: running tasks are
   * terminated with their thread and reject. `{ letRunningFinish: true }`
   * rejects the queued tasks but lets the running ones end first, for
   * threads whose native code must not be cut off mid-call (onnxruntime's
   * inference aborts the whole process then); its tasks must be short.
   */
  async close(opts: { letRunningFinish?: boolean } = {}): Promise<void> {
    if (opts.letRunningFinish) await this.pool.close({ force: true });
    else await this.pool.destroy();
  }
}
