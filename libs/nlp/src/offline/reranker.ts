import { STOP_WORDS, analyze, stem, tokenize } from "@engram/index";
import type { RerankItem, Reranker } from "../ports";

/** Weights of the features; they sum to 1, so the score stays in [0, 1]. */
const W = { coverage: 0.4, bm25: 0.2, phrase: 0.15, proximity: 0.15, first: 0.05, density: 0.05 };
const K1 = 1.2;
const B = 0.75;

/**
 * Offline feature-based reranker over the search index's analysis (stop
 * words out, Porter2 stems):
 *
 * - coverage: share of the query's distinct stems present, weighted by their
 *   rarity among the items being reranked (IDF over the list);
 * - bm25: BM25 term saturation and length normalisation against the list's
 *   average length, squashed into [0, 1];
 * - phrase: the longest run of consecutive query stems found in order in the
 *   text (1 for the exact phrase);
 * - proximity: matched stems over the shortest window containing them all;
 * - first: how early the first match appears;
 * - density: share of the text's stems that match the query (favours focused
 *   short texts over long ones).
 *
 * Scores are in [0, 1], sorted best first; equal scores keep input order.
 */
export class OfflineReranker implements Reranker {
  readonly id = "offline-v1";

  async rerank(query: string, items: RerankItem[]): Promise<{ id: string; score: number }[]> {
    return this.rerankSync(query, items);
  }

  rerankSync(query: string, items: RerankItem[]): { id: string; score: number }[] {
    let q = analyze(query);
    if (q.length === 0) q = tokenize(query).map((t) => (STOP_WORDS.has(t) ? t : stem(t)));
    const qDistinct = [...new Set(q)];
    const docs = items.map((it) => {
      const stems = analyze(it.text);
      return { id: it.id, stems, tf: counts(stems) };
    });
    if (qDistinct.length === 0) return items.map((it) => ({ id: it.id, score: 0 }));
    const n = Math.max(1, docs.length);
    const avgLen = docs.reduce((a, d) => a + d.stems.length, 0) / n || 1;
    const idf = new Map<string, number>();
    for (const t of qDistinct) {
      const df = docs.filter((d) => d.tf.has(t)).length;
      idf.set(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
    }
    const idfSum = qDistinct.reduce((a, t) => a + idf.get(t)!, 0) || 1;

    const scored = docs.map((d, order) => {
      const matched = qDistinct.filter((t) => d.tf.has(t));
      if (matched.length === 0) return { id: d.id, score: 0, order };
      const coverage = matched.reduce((a, t) => a + idf.get(t)!, 0) / idfSum;
      let bm = 0;
      for (const t of matched) {
        const tf = d.tf.get(t)!;
        bm += idf.get(t)! * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.stems.length) / avgLen)));
      }
      const bm25 = 1 - Math.exp(-bm / idfSum);
      const phrase = longestRun(q, d.stems) / q.length;
      const proximity = matched.length === 1 ? 1 / qDistinct.length : matched.length / minWindow(d.stems, new Set(matched));
      const firstAt = d.stems.findIndex((s) => qDistinct.includes(s));
      const first = 1 / (1 + firstAt / 10);
      const density = d.stems.filter((s) => qDistinct.includes(s)).length / d.stems.length;
      const score = W.coverage * coverage + W.bm25 * bm25 + W.phrase * phrase + W.proximity * proximity + W.first * first + W.density * density;
      return { id: d.id, score: Math.min(1, Math.max(0, score)), order };
    });
    return scored.sort((a, b) => b.score - a.score || a.order - b.order).map(({ id, score }) => ({ id, score }));
  }
}

function counts(stems: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of stems) m.set(s, (m.get(s) ?? 0) + 1);
  return m;
}

/** Length of the longest run of consecutive query stems appearing consecutively in the text. */
function longestRun(q: string[], d: string[]): number {
  let best = 0;
  for (let i = 0; i < d.length; i++) {
    for (let j = 0; j < q.length; j++) {
      let k = 0;
      while (i + k < d.length && j + k < q.length && d[i + k] === q[j + k]) k++;
      if (k > best) best = k;
    }
  }
  return best;
}

/** Shortest window of the text containing every stem of `need` (at least need.size). */
function minWindow(d: string[], need: Set<string>): number {
  const have = new Map<string, number>();
  let covered = 0;
  let best = Infinity;
  let left = 0;
  for (let right = 0; right < d.length; right++) {
    const r = d[right]!;
    if (need.has(r)) {
      have.set(r, (have.get(r) ?? 0) + 1);
      if (have.get(r) === 1) covered++;
    }
    while (covered === need.size) {
      best = Math.min(best, right - left + 1);
      const l = d[left]!;
      if (need.has(l)) {
        have.set(l, have.get(l)! - 1);
        if (have.get(l) === 0) covered--;
      }
      left++;
    }
  }
  return Number.isFinite(best) ? Math.max(best, need.size) : d.length;
}
