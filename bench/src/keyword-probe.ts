/**
 * Engine-level probe of the keyword side at scale: one partition of N chunk-sized records (the
 * scale bench's corpus: shuffled dataset sentences, ~500 characters, as 128-token chunks), loaded
 * in process, then the datasets' queries run one at a time as the documents search runs them
 * (hashing embedder: keyword only). Prints per-query milliseconds and the postings read.
 *
 *   node --import tsx bench/src/keyword-probe.ts --records 1000000
 */
import { partitionKey, retrievalCounters, SearchEngine, type EngineRecord, analyzeForStorage } from "@engram/index";
import { sentenceCorpus } from "./lib";
import { datasetText } from "./quality/datasets";

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
}
const N = Number(arg("records", "1000000"));
const CHARS = Number(arg("chars", "500"));
const log = (m: string) => process.stderr.write(`[probe] ${m}\n`);

const { sentences, queries } = datasetText();
const { doc } = sentenceCorpus(sentences, 7, "p-", CHARS);
const key = partitionKey("t", "ns");
const t0 = performance.now();
const analyzed: string[] = [];
for (let i = 0; i < N; i++) analyzed.push(analyzeForStorage(doc(i).content));
log(`analysed ${N} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const engine = new SearchEngine({
  load: function* (): Iterable<EngineRecord> {
    for (let i = 0; i < N; i++) yield { rid: i + 1, analyzed: analyzed[i]! };
  },
});
const t1 = performance.now();
engine.search({ partitions: [key], text: "warm", denseWeight: 0, limit: 10 });
log(`loaded in ${((performance.now() - t1) / 1000).toFixed(1)} s, rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
for (const q of queries) engine.search({ partitions: [key], text: q, denseWeight: 0, limit: 10 });
const ms: number[] = [];
const before = { ...retrievalCounters };
for (let pass = 0; pass < 3; pass++)
  for (const q of queries) {
    const s = performance.now();
    engine.search({ partitions: [key], text: q, denseWeight: 0, limit: 10 });
    ms.push(performance.now() - s);
  }
const after = { ...retrievalCounters };
ms.sort((a, b) => a - b);
const n = ms.length;
const per = (k: keyof typeof retrievalCounters) => Math.round((after[k] - before[k]) / n);
console.log(
  JSON.stringify({
    records: N,
    queries: n,
    meanMs: +(ms.reduce((a, b) => a + b, 0) / n).toFixed(2),
    p50: +ms[Math.floor(n / 2)]!.toFixed(2),
    p95: +ms[Math.floor(n * 0.95)]!.toFixed(2),
    postings: per("postings"),
    scored: per("scored"),
    calls: +((after.calls - before.calls) / n).toFixed(2),
  }),
);
