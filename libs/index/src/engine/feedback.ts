import type { Partition } from "./partition";
import type { WeightedTerm } from "./retrieve";

export interface FeedbackParams {
  /** Feedback records (top of the first pass). */
  docs: number;
  /** Expansion terms kept. */
  terms: number;
  /** Weight of the original query in the interpolation (1 - weight goes to the feedback model). */
  originalWeight: number;
  /** Terms in more than this share of the records are not used for expansion. */
  maxDfRatio: number;
  /** Record weights: exp(sharpness × (score − best score)); 0 = the raw first-pass score (Anserini). */
  sharpness: number;
}

/**
 * RM3 query model (Lavrenko & Croft's relevance model 1 interpolated with the
 * query, as in Anserini/Pyserini): each feedback record contributes its
 * term distribution (tf / length) weighted by its first-pass score; the
 * `terms` heaviest terms form the feedback model (L1-normalised), which is
 * mixed with the L1-normalised query term frequencies. Returns query-side
 * weights (before idf), one per term.
 */
export function rm3QueryModel(
  queryTf: ReadonlyMap<string, number>,
  feedback: readonly { part: Partition; slot: number; score: number }[],
  params: FeedbackParams,
  documentFrequency: (term: string) => number,
  collectionSize: number,
): Map<string, number> {
  const model = new Map<string, number>();
  let qTotal = 0;
  for (const n of queryTf.values()) qTotal += n;
  if (feedback.length === 0 || params.terms <= 0 || params.originalWeight >= 1) {
    for (const [t, n] of queryTf) model.set(t, n / qTotal);
    return model;
  }
  // term (per partition id space) -> accumulated weight; keyed by text so partitions merge.
  const fb = new Map<string, number>();
  const best = feedback[0]!.score;
  for (const f of feedback) {
    const seq = f.part.termsOf(f.slot);
    if (seq.length === 0) continue;
    const w = (params.sharpness > 0 ? Math.exp(params.sharpness * (f.score - best)) : f.score) / seq.length;
    const text = f.part.termText;
    for (let i = 0; i < seq.length; i++) {
      const term = text[seq[i]!]!;
      fb.set(term, (fb.get(term) ?? 0) + w);
    }
  }
  const maxDf = params.maxDfRatio * collectionSize;
  // Heaviest first; document frequencies are looked up only until enough terms pass the cut-off.
  const ranked: [string, number][] = [];
  for (const e of [...fb.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    if (ranked.length >= params.terms) break;
    if (e[0].length >= 2 && documentFrequency(e[0]) <= maxDf) ranked.push(e);
  }
  let fbTotal = 0;
  for (const [, w] of ranked) fbTotal += w;
  const a = params.originalWeight;
  for (const [t, n] of queryTf) model.set(t, (a * n) / qTotal);
  if (fbTotal > 0) for (const [t, w] of ranked) model.set(t, (model.get(t) ?? 0) + ((1 - a) * w) / fbTotal);
  return model;
}

/** Query-side weights times idf, the form retrieval takes. */
export function weighted(model: ReadonlyMap<string, number>, idfOf: (term: string) => number): WeightedTerm[] {
  const out: WeightedTerm[] = [];
  for (const [term, w] of model) out.push({ term, weight: w * idfOf(term) });
  return out;
}

/**
 * Scores one record exactly against weighted terms with BM25, from its term
 * sequence (no posting lookups): used to rerank first-pass candidates with
 * the RM3 query model. `index` maps term id -> position in `weights` (-1 for
 * other terms); `tf` is scratch of weights.length entries.
 */
export function bm25FromSequence(part: Partition, slot: number, index: Int32Array, weights: Float64Array, tf: Float64Array, c1: number, c2: number): number {
  const seq = part.termsOf(slot);
  tf.fill(0);
  for (let i = 0; i < seq.length; i++) {
    const k = index[seq[i]!]!;
    if (k >= 0) tf[k]!++;
  }
  const norm = c1 + c2 * seq.length;
  let s = 0;
  for (let k = 0; k < weights.length; k++) {
    const f = tf[k]!;
    if (f > 0) s += (weights[k]! * f) / (f + norm);
  }
  return s;
}
