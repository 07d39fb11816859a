/**
 * Retrieval metrics with the conventions of trec_eval / pytrec_eval as BEIR uses them:
 *
 * - a run is, per query, a list of (document id, score); it is ranked by score
 *   descending, ties broken by document id in DESCENDING byte order (trec_eval's
 *   `comp_sim_docno`: `strcmp(ptr2->docno, ptr1->docno)`);
 * - nDCG@k: linear gain (the judged grade), discount log2(rank + 1), ideal DCG
 *   over all of the query's judged documents with a grade > 0 (not only the retrieved ones);
 * - Recall@k: relevant (grade > 0) documents in the top k / all relevant documents;
 * - MRR@k: 1 / rank of the first relevant document within the top k, else 0;
 * - averages over the queries with at least one relevant judgment; such a query
 *   that the run does not answer counts 0 (trec_eval `-c`).
 */

/** Graded judgments of one query: document id -> grade (0 = judged not relevant). */
export type Qrel = ReadonlyMap<string, number>;
/** All judgments: query id -> judgments. */
export type Qrels = ReadonlyMap<string, Qrel>;

export interface Scored {
  id: string;
  score: number;
}

export interface Metrics {
  ndcg10: number;
  recall10: number;
  recall100: number;
  mrr10: number;
}

export const METRIC_KEYS = ["ndcg10", "recall10", "recall100", "mrr10"] as const satisfies readonly (keyof Metrics)[];
export const METRIC_LABELS: Record<keyof Metrics, string> = { ndcg10: "nDCG@10", recall10: "R@10", recall100: "R@100", mrr10: "MRR@10" };

/** trec_eval order: score descending, then document id descending (byte order); duplicates keep their first (best) entry. */
export function rankByScore(results: readonly Scored[]): string[] {
  const sorted = [...results].sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of sorted) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    out.push(r.id);
  }
  return out;
}

const discount = (rank0: number) => 1 / Math.log2(rank0 + 2);

export function dcgAt(ranking: readonly string[], qrel: Qrel, k: number): number {
  let dcg = 0;
  for (let i = 0; i < Math.min(k, ranking.length); i++) {
    const g = qrel.get(ranking[i]!) ?? 0;
    if (g > 0) dcg += g * discount(i);
  }
  return dcg;
}

export function ndcgAt(ranking: readonly string[], qrel: Qrel, k: number): number {
  const ideal = [...qrel.values()].filter((g) => g > 0).sort((a, b) => b - a);
  let idcg = 0;
  for (let i = 0; i < Math.min(k, ideal.length); i++) idcg += ideal[i]! * discount(i);
  return idcg > 0 ? dcgAt(ranking, qrel, k) / idcg : 0;
}

export function relevantCount(qrel: Qrel): number {
  let n = 0;
  for (const g of qrel.values()) if (g > 0) n++;
  return n;
}

export function recallAt(ranking: readonly string[], qrel: Qrel, k: number): number {
  const total = relevantCount(qrel);
  if (total === 0) return 0;
  let hit = 0;
  for (let i = 0; i < Math.min(k, ranking.length); i++) if ((qrel.get(ranking[i]!) ?? 0) > 0) hit++;
  return hit / total;
}

export function mrrAt(ranking: readonly string[], qrel: Qrel, k: number): number {
  for (let i = 0; i < Math.min(k, ranking.length); i++) if ((qrel.get(ranking[i]!) ?? 0) > 0) return 1 / (i + 1);
  return 0;
}

export function queryMetrics(ranking: readonly string[], qrel: Qrel): Metrics {
  return { ndcg10: ndcgAt(ranking, qrel, 10), recall10: recallAt(ranking, qrel, 10), recall100: recallAt(ranking, qrel, 100), mrr10: mrrAt(ranking, qrel, 10) };
}

/** Query ids with at least one relevant (grade > 0) judgment. */
export function evaluatedQueries(qrels: Qrels): string[] {
  return [...qrels.entries()].filter(([, q]) => relevantCount(q) > 0).map(([id]) => id);
}

/** Mean of each metric over the queries with a relevant judgment (a query missing from `run` scores 0). */
export function evaluate(run: ReadonlyMap<string, readonly string[]>, qrels: Qrels): Metrics & { queries: number } {
  const ids = evaluatedQueries(qrels);
  const sum: Metrics = { ndcg10: 0, recall10: 0, recall100: 0, mrr10: 0 };
  for (const id of ids) {
    const m = queryMetrics(run.get(id) ?? [], qrels.get(id)!);
    for (const key of METRIC_KEYS) sum[key] += m[key];
  }
  const n = ids.length || 1;
  return { ndcg10: sum.ndcg10 / n, recall10: sum.recall10 / n, recall100: sum.recall100 / n, mrr10: sum.mrr10 / n, queries: ids.length };
}

/**
 * Hand-computed toy case; throws when the metric code disagrees.
 *
 * Judgments a:3, b:2, c:0, d:1 (3 relevant). Scores: c 9, a 8, x 7, e 5, d 5, b 4.
 * The tie e/d at 5 breaks by id descending -> e before d. Ranking: c a x e d b.
 *   DCG@10  = 3/log2(3) + 1/log2(6) + 2/log2(7) = 1.892789 + 0.386853 + 0.712414 = 2.992056
 *   IDCG@10 = 3/log2(2) + 2/log2(3) + 1/log2(4) = 3 + 1.261860 + 0.5          = 4.761860
 *   nDCG@10 = 0.628338;  nDCG@2 = (3/log2(3)) / (3 + 2/log2(3)) = 1.892789 / 4.261860 = 0.444123
 *   R@2 = 1/3, R@10 = 1, MRR@10 = 1/2; a run without the query: all 0;
 *   mean over {q1, q2 (no relevant judgment: skipped), q3 (not in run)} = half of q1's.
 */
export function selfCheck(): void {
  const qrel: Qrel = new Map([
    ["a", 3],
    ["b", 2],
    ["c", 0],
    ["d", 1],
  ]);
  const ranking = rankByScore([
    { id: "d", score: 5 },
    { id: "c", score: 9 },
    { id: "b", score: 4 },
    { id: "a", score: 8 },
    { id: "e", score: 5 },
    { id: "x", score: 7 },
  ]);
  const expect = (what: string, got: number | string, want: number | string) => {
    const ok = typeof want === "number" ? Math.abs((got as number) - want) < 1e-5 : got === want;
    if (!ok) throw new Error(`metrics self-check failed: ${what} = ${got}, expected ${want}`);
  };
  expect("ranking", ranking.join(" "), "c a x e d b");
  expect("nDCG@10", ndcgAt(ranking, qrel, 10), 0.628338);
  expect("nDCG@2", ndcgAt(ranking, qrel, 2), 0.444123);
  expect("R@2", recallAt(ranking, qrel, 2), 1 / 3);
  expect("R@10", recallAt(ranking, qrel, 10), 1);
  expect("MRR@10", mrrAt(ranking, qrel, 10), 0.5);
  expect("MRR@1", mrrAt(ranking, qrel, 1), 0);
  const qrels: Qrels = new Map([
    ["q1", qrel],
    ["q2", new Map([["a", 0]])],
    ["q3", qrel],
  ]);
  const mean = evaluate(new Map([["q1", ranking]]), qrels);
  expect("queries", mean.queries, 2);
  expect("mean nDCG@10", mean.ndcg10, 0.628338 / 2);
  expect("mean MRR@10", mean.mrr10, 0.25);
}
