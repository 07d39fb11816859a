/**
 * Fast in-process retrieval-quality loop for the search engine: indexes both judged collections
 * straight into a `SearchEngine` (one partition each, analysis as in production), runs every judged
 * query (limit 100, keyword only as with the offline hashing embedder) and prints nDCG@10, R@10,
 * R@100 and MRR@10 next to the same in-process BM25 baseline as `pnpm bench:quality`.
 *
 *   node --import tsx bench/src/quality/engine-eval.ts
 *   node --import tsx bench/src/quality/engine-eval.ts --set k1=1.0 --set feedbackDocs=0   # ranking overrides
 *   node --import tsx bench/src/quality/engine-eval.ts --dataset cranfield --per-query
 *
 * Takes seconds; confirm with the full-stack `pnpm bench:quality`.
 */
import { analyzeForStorage, type RankingConfig, SearchEngine, partitionKey } from "@engram/index";
import { BM25_DEFAULTS, Bm25Index } from "./bm25";
import { DATASET_KEYS, type DatasetKey, documentContent, loadDataset } from "./datasets";
import { evaluate, METRIC_KEYS, METRIC_LABELS, queryMetrics, rankByScore, selfCheck } from "./metrics";

const LIMIT = 100;

function args(name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < process.argv.length; i++) if (process.argv[i] === `--${name}` && process.argv[i + 1] !== undefined) out.push(process.argv[i + 1]!);
  return out;
}

function overrides(): Partial<RankingConfig> {
  const o: Record<string, number> = {};
  for (const kv of args("set")) {
    const [k, v] = kv.split("=");
    if (!k || v === undefined || Number.isNaN(Number(v))) throw new Error(`--set expects name=number, got ${kv}`);
    o[k] = Number(v);
  }
  return o as Partial<RankingConfig>;
}

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

function main(): void {
  selfCheck();
  const only = args("dataset")[0] as DatasetKey | undefined;
  const perQuery = process.argv.includes("--per-query");
  const ranking = overrides();
  const keys = only ? [only] : [...DATASET_KEYS];
  const summary: string[] = [];
  for (const key of keys) {
    const ds = loadDataset(key);
    const texts = ds.docs.map((d) => documentContent(d));
    const stored = texts.map(analyzeForStorage);
    const part = partitionKey("eval", key);
    const engine = new SearchEngine({
      load: () => stored.map((analyzed, i) => ({ rid: i + 1, analyzed })),
      ranking,
    });
    const t0 = performance.now();
    engine.search({ partitions: [part], text: "warm up", denseWeight: 0, limit: 1 });
    const loadMs = performance.now() - t0;

    const run = new Map<string, string[]>();
    const times: number[] = [];
    for (let rep = 0; rep < 3; rep++) {
      for (const q of ds.queries) {
        const t = performance.now();
        const hits = engine.search({ partitions: [part], text: q.text, denseWeight: 0, limit: LIMIT });
        times.push(performance.now() - t);
        if (rep === 0) run.set(q.id, rankByScore(hits.map((h, i) => ({ id: ds.docs[h.rid - 1]!.id, score: -i }))));
      }
    }
    const bm25 = new Bm25Index(
      ds.docs.map((d) => ({ id: d.id, text: documentContent(d) })),
      BM25_DEFAULTS,
    );
    const base = new Map(ds.queries.map((q) => [q.id, rankByScore(bm25.search(q.text, LIMIT))]));
    const e = evaluate(run, ds.qrels);
    const b = evaluate(base, ds.qrels);
    const row = (label: string, m: typeof e) => label.padEnd(22) + METRIC_KEYS.map((k) => m[k].toFixed(4).padStart(9)).join("");
    console.log(`\n${ds.name}: ${ds.docs.length} docs, ${ds.queries.length} queries; load ${loadMs.toFixed(0)} ms`);
    console.log("".padEnd(22) + METRIC_KEYS.map((k) => METRIC_LABELS[k].padStart(9)).join(""));
    console.log(row("BM25 (bench baseline)", b));
    console.log(row("engine", e));
    console.log(
      `Δ nDCG@10 ${(e.ndcg10 - b.ndcg10 >= 0 ? "+" : "") + (e.ndcg10 - b.ndcg10).toFixed(4)}; query ms p50 ${percentile(times, 50).toFixed(3)} p95 ${percentile(times, 95).toFixed(3)}`,
    );
    summary.push(`${key} ${e.ndcg10.toFixed(4)} (${(e.ndcg10 - b.ndcg10 >= 0 ? "+" : "") + (e.ndcg10 - b.ndcg10).toFixed(4)})`);
    if (perQuery) {
      for (const q of ds.queries) {
        const qe = queryMetrics(run.get(q.id)!, ds.qrels.get(q.id)!).ndcg10;
        const qb = queryMetrics(base.get(q.id)!, ds.qrels.get(q.id)!).ndcg10;
        console.log(`${q.id.padStart(8)} ${qe.toFixed(3)} ${qb.toFixed(3)} ${(qe - qb >= 0 ? "+" : "") + (qe - qb).toFixed(3)}  ${q.text.slice(0, 80)}`);
      }
    }
  }
  console.log(`\nsummary: ${summary.join(" · ")}  ${JSON.stringify(ranking)}`);
}

main();
