import { DEFAULT_RANKING } from "../engine/search-engine";

/**
 * The embedded engine's fusion and similarity rules, on ids, for adapters
 * whose candidate lists come from elsewhere (Qdrant): the same query gives the
 * same kind of answer whichever index serves it.
 */

export interface RankedId {
  id: string;
  /** Raw score of the side that found it (higher is better). */
  score: number;
}

export interface FusedId {
  id: string;
  score: number;
  /** Raw scores of each side (0 when that side did not find it). */
  keywordScore: number;
  vectorScore: number;
  /** 1-based competition ranks (0 when that side did not find it). */
  keywordRank: number;
  denseRank: number;
}

export interface FusionParams {
  rrfK: number;
  agreementDepth: number;
  denseOnlyMinCosine: number;
}

export const DEFAULT_FUSION: FusionParams = {
  rrfK: DEFAULT_RANKING.rrfK,
  agreementDepth: DEFAULT_RANKING.agreementDepth,
  denseOnlyMinCosine: DEFAULT_RANKING.denseOnlyMinCosine,
};

/** Competition ranks of a list sorted best first: equal scores share a rank. */
function tiedRanks(sorted: readonly RankedId[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < sorted.length; i++) out.push(i > 0 && sorted[i]!.score === sorted[i - 1]!.score ? out[i - 1]! : i + 1);
  return out;
}

/** Share of the keyword side's top `depth` that the dense side's top `depth` also holds (1 when the keyword side found nothing). */
export function agreement(keyword: readonly RankedId[], dense: readonly RankedId[], depth: number): number {
  if (depth <= 0 || keyword.length === 0) return 1;
  const n = Math.min(depth, keyword.length);
  const top = new Set(keyword.slice(0, n).map((h) => h.id));
  let shared = 0;
  for (const h of dense.slice(0, depth)) if (top.has(h.id)) shared++;
  return shared / n;
}

const byScoreThenId = (a: RankedId, b: RankedId) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Weighted reciprocal-rank fusion as the engine does it: keyword weight 1,
 * dense weight `denseWeight` × the agreement of the two tops; a record only
 * the dense side found needs a cosine ≥ `denseOnlyMinCosine`; equal fused
 * scores follow the dense ranking, then the id. Without a dense list this is
 * the keyword ranking. Inputs need not be sorted.
 */
export function fuseRankings(
  keywordIn: readonly RankedId[],
  denseIn: readonly RankedId[] | undefined,
  denseWeight: number,
  p: FusionParams = DEFAULT_FUSION,
): FusedId[] {
  return fuseRankingsWithAgreement(keywordIn, denseIn, denseWeight, p).fused;
}

/** `fuseRankings`, with the agreement of the two tops it weighed the dense side by (0 without a dense ranking). */
export function fuseRankingsWithAgreement(
  keywordIn: readonly RankedId[],
  denseIn: readonly RankedId[] | undefined,
  denseWeight: number,
  p: FusionParams = DEFAULT_FUSION,
): { fused: FusedId[]; agreement: number } {
  const keyword = [...keywordIn].sort(byScoreThenId);
  const byId = new Map<string, FusedId>();
  const kr = tiedRanks(keyword);
  keyword.forEach((h, i) => byId.set(h.id, { id: h.id, score: 0, keywordScore: h.score, vectorScore: 0, keywordRank: kr[i]!, denseRank: 0 }));
  let w = 0;
  let agree = 0;
  if (denseIn) {
    const dense = [...denseIn].sort(byScoreThenId);
    agree = agreement(keyword, dense, p.agreementDepth);
    w = denseWeight * agree;
    const dr = tiedRanks(dense);
    dense.forEach((h, i) => {
      const c = byId.get(h.id);
      if (c) {
        c.vectorScore = h.score;
        c.denseRank = dr[i]!;
      } else if (h.score >= p.denseOnlyMinCosine) {
        byId.set(h.id, { id: h.id, score: 0, keywordScore: 0, vectorScore: h.score, keywordRank: 0, denseRank: dr[i]! });
      }
    });
  }
  const out = [...byId.values()];
  for (const c of out) c.score = (c.keywordRank ? 1 / (p.rrfK + c.keywordRank) : 0) + (c.denseRank ? w / (p.rrfK + c.denseRank) : 0);
  const denseOrder = (c: FusedId) => c.denseRank || Number.MAX_SAFE_INTEGER;
  return { fused: out.sort((a, b) => b.score - a.score || denseOrder(a) - denseOrder(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), agreement: agree };
}

/**
 * The hits a grouped or thresholded query keeps, in rank order: similarity ≥
 * `minSimilarity` and, with `group`, within the first `documents` documents and
 * the first `chunksPerDocument` chunks of each (the `ChunkSearchQuery` rules).
 */
export function selectHits<T>(
  hits: readonly T[],
  similarity: (h: T) => number,
  documentOf: (h: T) => string,
  minSimilarity: number | undefined,
  group: { documents: number; chunksPerDocument: number } | undefined,
): T[] {
  if (minSimilarity === undefined && !group) return [...hits];
  const out: T[] = [];
  const perDocument = new Map<string, number>();
  for (const h of hits) {
    if (minSimilarity !== undefined && similarity(h) < minSimilarity) continue;
    if (group) {
      const doc = documentOf(h);
      const seen = perDocument.get(doc) ?? 0;
      if (seen === 0 ? perDocument.size >= group.documents : seen >= group.chunksPerDocument) continue;
      perDocument.set(doc, seen + 1);
    }
    out.push(h);
  }
  return out;
}
