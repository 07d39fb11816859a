import { startEngram } from "@engram/testing";
import { closedLoop, jsonClient } from "../src/lib";
import { loadCranfield, loadMsmarco } from "../src/quality/datasets";
async function main() {
  const dataDir = process.argv[2]!;
  const mode = process.argv[3] ?? "hybrid";
  const n = Number(process.argv[4] ?? 2000);
  const queries = [...loadMsmarco().queries, ...loadCranfield().queries].map((q) => q.text);
  const e = await startEngram({ dataDir, timeoutMs: 60000, env: { LOG_LEVEL: "warn", ...(process.env.EXTRA ? JSON.parse(process.env.EXTRA) : {}) } });
  const api = jsonClient(e.url, e.apiKey);
  const ns = mode === "memories" ? "bench-memories" : "bench-chunks";
  let t = performance.now();
  await api("POST", "/v4/search", { q: "warm", containerTag: ns, searchMode: mode });
  console.log("first search (load) ms", (performance.now() - t).toFixed(0));
  const send = (i: number) => api("POST", "/v4/search", { q: queries[i % queries.length], containerTag: ns, searchMode: mode });
  await closedLoop(8, 300, send);
  const seq: number[] = [];
  for (let i = 0; i < 200; i++) {
    t = performance.now();
    await send(i);
    seq.push(performance.now() - t);
  }
  seq.sort((a, b) => a - b);
  console.log("sequential p50", seq[100]!.toFixed(2));
  console.log(mode, JSON.stringify(await closedLoop(8, n, send)));
  await e.stop();
}
main();
