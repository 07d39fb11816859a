import type { QdrantClient, Schemas } from "@qdrant/js-client-rest";
import { analyze } from "../text";
import { DENSE_VECTOR, SPARSE_VECTOR } from "./collections";
import { type QdrantCondition, type QdrantFilter, type QdrantScope, toQdrantFilter } from "./filter";
import { calibrate, ownEvidence, rankedSimilarities, scopedTerms, type SimilarityTerm, similarityTerms, termCoverage, warmSimilarity } from "../similarity";
import { DEFAULT_FUSION, type FusedId, fuseRankingsWithAgreement, type RankedId } from "./ranking";
import { querySparseVector } from "./sparse";

/**
 * How the keyword (sparse) and dense rankings are fused:
 * - `weighted` (default): both rankings come back from one Query API batch and
 *   are fused here with the embedded engine's rule (weighted RRF, k 60, dense
 *   weight × agreement of the two tops, dense-only records need cosine ≥ 0.15),
 *   so `denseWeight` means the same on both adapters and each hit reports its
 *   keyword and vector scores;
 * - `rrf` / `dbsf`: one Query API request with both prefetches and Qdrant's own
 *   fusion (equal weights; RRF with Qdrant's k); `keywordScore` is then not
 *   known per hit and reported as 0.
 * Keyword-only queries (dense weight 0, no vector, another model) are one sparse query either way.
 */
export type QdrantFusion = "weighted" | "rrf" | "dbsf";

/** Keyword candidates kept for fusion when the dense side is on (the engine's `candidates`). */
export const FUSION_CANDIDATES = 200;

export interface HybridQuery {
  /** Where the query looks: tenant, namespaces (optional), document (optional). */
  scope: QdrantScope;
  /** Further conditions (memory flags, ...) and the API filter, already translated. */
  conditions: QdrantCondition[];
  text: string;
  vector?: Float32Array;
  /** Embedder id of the vector ("" for an unnamed embedder). */
  model: string;
  denseWeight: number;
  limit: number;
  /** Payload fields to read back for each candidate (besides `terms` and `model`). */
  payload: string[];
}

export interface HybridCandidate {
  pointId: string;
  score: number;
  similarity: number;
  /** Without what it shares from better-ranked results (EngineHit.ownSimilarity). */
  ownSimilarity: number;
  keywordScore: number;
  vectorScore: number;
  payload: Record<string, unknown>;
}

function unit(v: Float32Array): number[] | undefined {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  if (!(s > 0)) return undefined;
  const n = Math.sqrt(s);
  return Array.from(v, (x) => x / n);
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}

function denseOf(vector: Schemas["Record"]["vector"]): number[] | undefined {
  if (!vector || Array.isArray(vector)) return undefined;
  const v = (vector as Record<string, unknown>)[DENSE_VECTOR];
  return Array.isArray(v) && typeof v[0] === "number" ? (v as number[]) : undefined;
}

/**
 * Hybrid search over one Engram collection (named vectors `dense` and `text`,
 * payload `tenantId`, `namespace`, `model`, `terms`): candidate generation in
 * Qdrant, fusion (see `QdrantFusion`) and the engine's similarity rule
 * (similarity.ts) here, with the query's words weighed for the scope as the
 * embedded engine weighs them (`scopedTerms`: document frequencies from
 * approximate counts of the scope's points, one request per query word).
 * Shared by the chunk index and the memory search.
 */
export class QdrantHybridSearch {
  constructor(
    private readonly client: QdrantClient,
    private readonly collection: string,
    private readonly dimensions: number,
    private readonly fusion: QdrantFusion = "weighted",
  ) {
    // The similarity's word counts load now, at start, not on the first search.
    warmSimilarity();
  }

  /** The query's similarity terms weighed for the scope (its point count, and each term's, from Qdrant's approximate counts). */
  private async scoped(terms: SimilarityTerm[], filter: QdrantFilter): Promise<SimilarityTerm[]> {
    if (terms.length === 0) return terms;
    const count = async (extra?: QdrantCondition) =>
      (await this.client.count(this.collection, { filter: extra ? { must: [...(filter.must as QdrantCondition[]), extra] } : filter, exact: false })).count;
    const [n, ...dfs] = await Promise.all([count(), ...terms.map((t) => count({ key: "terms", match: { value: t.term } }))]);
    const df = new Map(terms.map((t, i) => [t.term, dfs[i]!]));
    return scopedTerms(terms, (t) => df.get(t) ?? 0, n!);
  }

  /** The best `limit` candidates, fused and calibrated, with the payload fields asked for. */
  async search(q: HybridQuery): Promise<HybridCandidate[]> {
    const limit = Math.max(0, Math.floor(q.limit));
    if (limit === 0 || q.scope.namespaces?.length === 0) return [];
    const analyzed = analyze(q.text);
    const queryVector = q.denseWeight > 0 && q.vector && q.vector.length === this.dimensions ? unit(q.vector) : undefined;
    if (analyzed.length === 0 && !queryVector) return [];
    const filter = toQdrantFilter(q.scope, undefined, q.conditions);
    const denseFilter: QdrantFilter = { must: [...(filter.must as QdrantCondition[]), { key: "model", match: { value: q.model } }] };
    const want = queryVector ? Math.max(limit, FUSION_CANDIDATES) : limit;
    const sparse = analyzed.length ? { query: querySparseVector(analyzed), using: SPARSE_VECTOR, filter, limit: want } : undefined;
    const dense = queryVector ? { query: queryVector, using: DENSE_VECTOR, filter: denseFilter, limit: want } : undefined;
    const terms = await this.scoped(similarityTerms(q.text), filter);

    let fused: FusedId[];
    // The agreement of the two tops weighs the cosine in similarity (similarity.ts); Qdrant's own fusion does not
    // return the per-side rankings it would be measured on, so there the cosine counts as is.
    let agree = 1;
    if (sparse && dense && this.fusion !== "weighted") {
      const res = await this.client.query(this.collection, { prefetch: [sparse, dense], query: { fusion: this.fusion }, limit, with_payload: false });
      // Per-side ranks and scores are not returned: each hit's cosine is computed below from its stored vector.
      fused = res.points.map((p) => ({ id: String(p.id), score: p.score, keywordScore: 0, vectorScore: 0, keywordRank: 0, denseRank: 0 }));
    } else {
      const searches = [sparse, dense].filter((s) => s !== undefined).map((s) => ({ ...s, with_payload: false }));
      const results = await this.client.queryBatch(this.collection, { searches });
      const ranked = (i: number): RankedId[] => (results[i]?.points ?? []).map((p) => ({ id: String(p.id), score: p.score }));
      const keyword = sparse ? ranked(0) : [];
      const denseHits = dense ? ranked(sparse ? 1 : 0) : undefined;
      const f = fuseRankingsWithAgreement(keyword, denseHits, q.denseWeight, DEFAULT_FUSION);
      fused = f.fused.slice(0, limit);
      agree = denseHits ? f.agreement : 1;
    }
    if (fused.length === 0) return [];

    // Vectors are read only for hits whose cosine the dense ranking did not give.
    const needVectors = queryVector !== undefined && fused.some((f) => f.denseRank === 0);
    const records = await this.client.retrieve(this.collection, {
      ids: fused.map((f) => f.id),
      with_payload: [...new Set([...q.payload, "terms", "model"])],
      with_vector: needVectors ? [DENSE_VECTOR] : false,
    });
    const byId = new Map(records.map((r) => [String(r.id), r]));
    const out: (HybridCandidate & { evidence: number })[] = [];
    for (const f of fused) {
      const r = byId.get(f.id);
      if (!r) continue; // deleted between the query and the read
      const payload = (r.payload ?? {}) as Record<string, unknown>;
      const recordTerms = new Set(Array.isArray(payload.terms) ? (payload.terms as string[]) : []);
      const covered = termCoverage(terms, (t) => recordTerms.has(t));
      // A keyword hit holding none of the query's stems matched only through a colliding term id: not a match.
      if (f.keywordRank > 0 && f.denseRank === 0 && covered === 0 && this.fusion === "weighted") continue;
      let cosine = f.denseRank > 0 ? f.vectorScore : 0;
      if (queryVector && f.denseRank === 0 && payload.model === q.model) {
        const stored = denseOf(r.vector);
        if (stored) cosine = dot(queryVector, stored);
      }
      out.push({
        pointId: f.id,
        score: f.score,
        similarity: 0,
        ownSimilarity: 0,
        evidence: ownEvidence(covered, queryVector ? agree * cosine : undefined),
        keywordScore: f.keywordScore,
        vectorScore: queryVector ? cosine : 0,
        payload,
      });
    }
    // The engine's similarity rule (similarity.ts) over the fused order.
    const similarities = rankedSimilarities(out);
    return out.map(({ evidence, ...c }, i) => ({ ...c, similarity: similarities[i]!, ownSimilarity: calibrate(evidence) }));
  }
}
