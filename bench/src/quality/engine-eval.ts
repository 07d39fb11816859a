/**
 * Fast in-process retrieval-quality loop for the search engine: indexes both judged collections
 * straight into a `SearchEngine` (one partition each, analysis as in production), runs every judged
 * query (limit 100, keyword only as with the offline hashing embedder) and prints nDCG@10, R@10,
 * R@100 and MRR@10 next to the same in-process BM25 baseline as `pnpm bench:quality`.
 *
 *   node --import tsx bench/src/quality/engine-eval.ts
 *   node --import tsx bench/src/quality/engine-eval.ts --set k1=1.0 --set feedbackDocs=0   # ranking overrides
 *   node --import tsx bench/src/quality/engine-eval.ts --dataset cranfield --per-query
 *   node --import tsx bench/src/quality/engine-eval.ts --provider-url http://127.0.0.1:8089/v1 --provider-model glove-100d
 *       # also the dense part alone and the fused ranking (dense weight --dense-weight, default 0.5 as recall's)
 *
 * Takes seconds; confirm with the full-stack `pnpm bench:quality`.
 */
import { analyzeForStorage, type RankingConfig, SearchEngine, partitionKey } from "@engram/index";
import { type DatasetVectors, denseRun, embedDataset } from "./dense";
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

async function main(): Promise<void> {
  selfCheck();
  const providerUrl = args("provider-url")[0];
  const providerModel = args("provider-model")[0];
  if (!!providerUrl !== !!providerModel) throw new Error("--provider-url and --provider-model go together");
  const denseWeight = Number(args("dense-weight")[0] ?? "0.5");
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
    const model = providerModel ? `eval:${providerModel}` : undefined;
    const vectors: DatasetVectors | undefined = providerUrl
      ? await embedDataset({ url: providerUrl, model: providerModel!, apiKey: process.env.EMBEDDING_API_KEY }, ds)
      : undefined;
    const engine = new SearchEngine({
      load: () => stored.map((analyzed, i) => ({ rid: i + 1, analyzed, vector: vectors?.docs[i], model })),
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
    const row = (label: string, m: typeof e) => label.padEnd(30) + METRIC_KEYS.map((k) => m[k].toFixed(4).padStart(9)).join("");
    console.log(`\n${ds.name}: ${ds.docs.length} docs, ${ds.queries.length} queries; load ${loadMs.toFixed(0)} ms`);
    console.log("".padEnd(30) + METRIC_KEYS.map((k) => METRIC_LABELS[k].padStart(9)).join(""));
    console.log(row("BM25 (bench baseline)", b));
    console.log(row("engine", e));
    if (vectors) {
      // The parts and the fusion, as recall asks for a page of 100 documents (500 chunks; here one chunk per document).
      const d = evaluate(denseRun(ds, vectors, LIMIT), ds.qrels);
      const hybrid = new Map<string, string[]>();
      for (const q of ds.queries) {
        const hits = engine.search({ partitions: [part], text: q.text, vector: vectors.queries.get(q.id), model, denseWeight, limit: 5 * LIMIT });
        hybrid.set(q.id, rankByScore(hits.slice(0, LIMIT).map((h, i) => ({ id: ds.docs[h.rid - 1]!.id, score: -i }))));
      }
      const h = evaluate(hybrid, ds.qrels);
      console.log(row(`dense only (${vectors.dims}d)`, d));
      console.log(row(`engine hybrid (weight ${denseWeight})`, h));
      const beats = h.ndcg10 > e.ndcg10 && h.ndcg10 > d.ndcg10;
      console.log(
        `parts: hybrid − keyword ${(h.ndcg10 - e.ndcg10).toFixed(4)}, hybrid − dense ${(h.ndcg10 - d.ndcg10).toFixed(4)}: ${beats ? "beats both" : "does NOT beat both"}`,
      );
      summary.push(`${key} hybrid ${h.ndcg10.toFixed(4)} (keyword ${e.ndcg10.toFixed(4)}, dense ${d.ndcg10.toFixed(4)})`);
    }
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

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
