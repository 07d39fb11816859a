import { MEMORY_RANKING } from "../engine/search-engine";
import { analyze } from "../text";

/** A Qdrant sparse vector: unique uint32 indices, one value each. */
export interface SparseVector {
  indices: number[];
  values: number[];
}

/** BM25 document-side parameters baked into stored sparse values (Qdrant adds the idf at query time). */
export interface SparseBm25Params {
  k1: number;
  b: number;
  /**
   * Length (analysed terms) the `b` normalisation measures records against. Fixed
   * per collection: changing it needs the records re-indexed.
   */
  avgLength: number;
}

/** Chunks: up to 512 estimated tokens, about 200 analysed terms at that size. */
export const CHUNK_SPARSE_PARAMS: SparseBm25Params = { k1: 1.2, b: 0.75, avgLength: 200 };
/** Memories: a statement or a chat turn each, about a dozen analysed terms; BM25 as the embedded memory search (MEMORY_RANKING). */
export const MEMORY_SPARSE_PARAMS: SparseBm25Params = { k1: MEMORY_RANKING.k1!, b: MEMORY_RANKING.b!, avgLength: 12 };

/** Stable 32-bit id of a term (FNV-1a over its UTF-16 code units): the sparse index of a stem. */
export function termId(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Counts per term id (stems that collide on an id count together: Qdrant needs unique indices). */
function countIds(terms: readonly string[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const t of terms) {
    const id = termId(t);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

function toSparse(entries: Iterable<[number, number]>): SparseVector {
  const sorted = [...entries].sort((a, b) => a[0] - b[0]);
  return { indices: sorted.map((e) => e[0]), values: sorted.map((e) => e[1]) };
}

/**
 * A record's sparse vector from its analysed terms (`analyze`: the stems the
 * embedded engine indexes): per distinct stem, BM25's term-frequency
 * saturation tf / (tf + k1·(1 − b + b·len/avgLength)) (without the constant
 * factor k1+1, as the engine scores). With the collection's `modifier: "idf"`,
 * Qdrant multiplies each query term by its idf, so a dot product is the
 * record's BM25 score on the engine's scale (idf over the whole collection).
 */
export function documentSparseVector(terms: readonly string[], p: SparseBm25Params): SparseVector {
  const len = terms.length;
  const norm = p.k1 * (1 - p.b + (p.b * len) / p.avgLength);
  const counts = countIds(terms);
  return toSparse([...counts].map(([id, tf]) => [id, tf / (tf + norm)]));
}

/** A query's sparse vector: each distinct stem weighted by its count in the query (Qdrant applies the idf). */
export function querySparseVector(terms: readonly string[]): SparseVector {
  return toSparse(countIds(terms));
}

/** Sparse vector of a text as stored (analysed with the engine's `analyze`). */
export function textSparseVector(text: string, p: SparseBm25Params): SparseVector {
  return documentSparseVector(analyze(text), p);
}
