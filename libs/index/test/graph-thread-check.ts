/*
 * Builds a dense graph on the worker thread the way the stack does (ThreadGraphBuilder: TypeScript under
 * `node --import tsx`, the thread loading graph.worker.ts, the rows in shared memory) and beside it in
 * this thread. Started by hnsw.test.ts (jest cannot run TypeScript in worker threads); prints one JSON object.
 */
import { HnswGraph } from "../src/engine/hnsw";
import { ThreadGraphBuilder } from "../src/engine/graph-builder";

async function main() {
  const dims = 16;
  const rows = 5000;
  const data = new Float32Array(new SharedArrayBuffer(rows * dims * 4));
  let a = 7;
  const rand = () => ((a = (a * 1103515245 + 12345) & 0x7fffffff), a / 0x7fffffff);
  for (let r = 0; r < rows; r++) {
    let n = 0;
    for (let i = 0; i < dims; i++) n += (data[r * dims + i] = rand() - 0.5) ** 2;
    for (let i = 0; i < dims; i++) data[r * dims + i]! /= Math.sqrt(n);
  }
  const here = new HnswGraph(dims);
  here.extend(data, 3000);
  const builder = new ThreadGraphBuilder();
  // From nothing to 3,000 rows, then on from that graph to all of them.
  const first = await builder.build({ data, dims, rows: 3000 });
  const second = await builder.build({ data, dims, rows, from: first });
  await builder.close();
  const sameFirst = JSON.stringify(Array.from(first.links0)) === JSON.stringify(Array.from(here.state().links0));
  here.extend(data, rows);
  const s = here.state();
  const sameSecond =
    second.built === rows &&
    JSON.stringify([Array.from(second.links0), Array.from(second.count0), Array.from(second.upper), second.entry, second.top]) ===
      JSON.stringify([Array.from(s.links0), Array.from(s.count0), Array.from(s.upper), s.entry, s.top]);
  console.log(JSON.stringify({ sameFirst, sameSecond, built: second.built }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
