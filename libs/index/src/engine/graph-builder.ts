import { BoundedWorkerPool, workerModule } from "@engram/worker-pool";
import type { GraphTask } from "./graph.worker";
import type { GraphState } from "./hnsw";

/** Builds a dense graph away from the engine's thread (SearchEngineOptions.graphBuilder). */
export interface GraphBuilder {
  build(task: GraphTask): Promise<GraphState>;
  close(): Promise<void>;
}

/**
 * Dense graphs built on one worker thread (graph.worker.ts), so the thread that serves searches only
 * walks them: a million rows take about 19 minutes of CPU here. The rows are read in place (the
 * engine keeps vector blocks in shared memory); the graph comes back as its arrays. One thread: a build
 * is one long task, and the machine's other core serves.
 */
export class ThreadGraphBuilder implements GraphBuilder {
  private readonly pool: BoundedWorkerPool<GraphTask, GraphState>;

  constructor(opts: { timeoutMs?: number; maxMemoryMb?: number; onError?: (err: Error) => void } = {}) {
    this.pool = new BoundedWorkerPool<GraphTask, GraphState>({
      filename: workerModule(__dirname, "graph.worker", "graph.worker.ts"),
      threads: 1,
      // A million rows take ~20 minutes here; a build past the limit fails and the engine builds in slices instead.
      timeoutMs: opts.timeoutMs ?? 4 * 3_600_000,
      // The graph's links (~145 bytes a row) and the search scratch; the rows themselves are shared, outside the heap.
      maxMemoryMb: opts.maxMemoryMb ?? 1024,
      ...(opts.onError ? { onError: opts.onError } : {}),
    });
  }

  build(task: GraphTask): Promise<GraphState> {
    return this.pool.run(task);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
