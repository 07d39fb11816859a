import { type GraphState, HnswGraph } from "./hnsw";

/** A graph to build on a worker thread (graph-builder.ts). */
export interface GraphTask {
  /** The vector block's rows, in shared memory (read, never written, here). */
  data: Float32Array;
  dims: number;
  /** Rows 0 … rows − 1 go into the graph. */
  rows: number;
  /** The graph to extend (its arrays, copied to this thread); none = a new one. */
  from?: GraphState;
}

/** Piscina task: the graph of `from` (or a new one) extended to `rows` rows of `data`, as its arrays. */
export default function build(task: GraphTask): GraphState {
  const graph = task.from ? HnswGraph.fromState(task.dims, task.from) : new HnswGraph(task.dims);
  if (!graph) throw new Error("the graph to extend does not fit its arrays");
  graph.extend(task.data, task.rows);
  return graph.state();
}
