import type { Partition } from "./partition";
import type { IdTable } from "./id-table";
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
 *
 * Terms are accumulated by term id (a partition's scratch index maps ids to
 * accumulator slots; partitions share a slot per term text), in the order of
 * the records and their terms, so every sum is the one a per-text map would
 * give; only the heaviest terms are then sorted (by weight, then text).
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
  const { text, weight } = accumulateFeedback(feedback, params.sharpness);
  const maxDf = params.maxDfRatio * collectionSize;
  // Heaviest first (ties by text); document frequencies are looked up only until enough terms pass the cut-off.
  const ranked: number[] = [];
  const eligible = (slot: number) => text[slot]!.length >= 2 && documentFrequency(text[slot]!) <= maxDf;
  for (let want = Math.max(64, 2 * params.terms); ; want *= 4) {
    ranked.length = 0;
    const top = heaviest(weight, text, want);
    for (const slot of top) {
      if (ranked.length >= params.terms) break;
      if (eligible(slot)) ranked.push(slot);
    }
    if (ranked.length >= params.terms || top.length === text.length) break;
  }
  let fbTotal = 0;
  for (const slot of ranked) fbTotal += weight[slot]!;
  const a = params.originalWeight;
  for (const [t, n] of queryTf) model.set(t, (a * n) / qTotal);
  if (fbTotal > 0) for (const slot of ranked) model.set(text[slot]!, (model.get(text[slot]!) ?? 0) + ((1 - a) * weight[slot]!) / fbTotal);
  return model;
}

/** Feedback weight per distinct term (slot), with the slot's text. */
function accumulateFeedback(
  feedback: readonly { part: Partition; slot: number; score: number }[],
  sharpness: number,
): { text: string[]; weight: Float64Array } {
  const text: string[] = [];
  let weight = new Float64Array(256);
  const shared = new Set(feedback.map((f) => f.part)).size > 1 ? new Map<string, number>() : undefined;
  const used: { index: Int32Array; ids: number[] }[] = [];
  const usedOf = new Map<Partition, { index: Int32Array; ids: number[] }>();
  const best = feedback[0]!.score;
  try {
    for (const f of feedback) {
      const seq = f.part.termsOf(f.slot);
      if (seq.length === 0) continue;
      const w = (sharpness > 0 ? Math.exp(sharpness * (f.score - best)) : f.score) / seq.length;
      let u = usedOf.get(f.part);
      if (!u) {
        u = { index: f.part.termIndexScratch(), ids: [] };
        usedOf.set(f.part, u);
        used.push(u);
      }
      const { index, ids } = u;
      const termText = f.part.termText;
      for (let i = 0; i < seq.length; i++) {
        const id = seq[i]!;
        let slot = index[id]!;
        if (slot < 0) {
          const t = termText[id]!;
          const known = shared?.get(t);
          if (known !== undefined) slot = known;
          else {
            slot = text.length;
            text.push(t);
            shared?.set(t, slot);
            if (slot >= weight.length) {
              const grown = new Float64Array(weight.length * 2);
              grown.set(weight);
              weight = grown;
            }
          }
          index[id] = slot;
          ids.push(id);
        }
        weight[slot] = weight[slot]! + w;
      }
    }
  } finally {
    for (const { index, ids } of used) for (const id of ids) index[id] = -1;
  }
  return { text, weight: weight.subarray(0, text.length) };
}

/** The `k` heaviest slots, heaviest first (equal weights: text order), by a bounded heap. */
function heaviest(weight: Float64Array, text: readonly string[], k: number): number[] {
  const n = text.length;
  // Lighter = ranks after: smaller weight, or equal weight and later text.
  const lighter = (a: number, b: number) => weight[a]! < weight[b]! || (weight[a] === weight[b] && text[a]! > text[b]!);
  const heap: number[] = [];
  for (let s = 0; s < n; s++) {
    if (heap.length < k) {
      let i = heap.length;
      heap.push(s);
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!lighter(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (lighter(heap[0]!, s)) {
      heap[0] = s;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= k) break;
        const r = l + 1;
        const c = r < k && lighter(heap[r]!, heap[l]!) ? r : l;
        if (!lighter(heap[c]!, heap[i]!)) break;
        [heap[i], heap[c]] = [heap[c]!, heap[i]!];
        i = c;
      }
    }
  }
  return heap.sort((a, b) => weight[b]! - weight[a]! || (text[a]! < text[b]! ? -1 : 1));
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
 * the RM3 query model. `index` maps term id -> position in `weights`; `tf` is
 * scratch of weights.length entries.
 */
export function bm25FromSequence(part: Partition, slot: number, index: IdTable, weights: Float64Array, tf: Float64Array, c1: number, c2: number): number {
  const seq = part.termsOf(slot);
  tf.fill(0);
  for (let i = 0; i < seq.length; i++) {
    const k = index.get(seq[i]!);
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
