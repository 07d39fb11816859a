import { analyze } from "./text";

/** Weights of weighted reciprocal-rank fusion: keyword evidence leads, dense refines. */
export const FUSION = { k: 60, keyword: 1.0, dense: 0.5 };

/** Weighted RRF over two ranked candidate maps (id -> raw score, higher is better). */
export function fuse(keyword: Map<number, number>, dense: Map<number, number>, denseWeight: number = FUSION.dense): { rid: number; score: number }[] {
  const rank = (m: Map<number, number>) => new Map([...m.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([rid], i) => [rid, i + 1]));
  const kr = rank(keyword);
  const dr = rank(dense);
  const ids = new Set([...kr.keys(), ...dr.keys()]);
  const out: { rid: number; score: number }[] = [];
  for (const rid of ids) {
    const k = kr.get(rid);
    const d = dr.get(rid);
    // A candidate only the dense side found must also be similar enough to matter.
    if (k === undefined && (dense.get(rid) ?? 0) < 0.15) continue;
    out.push({ rid, score: (k ? FUSION.keyword / (FUSION.k + k) : 0) + (d ? denseWeight / (FUSION.k + d) : 0) });
  }
  return out.sort((a, b) => b.score - a.score || a.rid - b.rid);
}

/** Share of the query's distinct terms that occur in the text (1 = all present). */
export function keywordCoverage(queryTerms: string[], text: string): number {
  const q = new Set(queryTerms);
  if (q.size === 0) return 0;
  const t = new Set(analyze(text));
  let hit = 0;
  for (const term of q) if (t.has(term)) hit++;
  return hit / q.size;
}
