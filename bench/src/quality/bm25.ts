/**
 * Plain Okapi BM25 in process: the floor Engram's search is compared with.
 *
 * Analysis (Pyserini/Lucene-like): lower-case; possessive 's dropped; tokens are runs of
 * Unicode letters and digits; Lucene's 33-word English stop set removed (Pyserini's default);
 * Porter stemming — Porter2 ("English" Snowball) from wink-porter2-stemmer, where Lucene
 * uses the original Porter algorithm; tokens with digits are left unstemmed.
 * Scoring: Lucene's BM25, idf = ln(1 + (N - df + 0.5) / (df + 0.5)),
 * tf part = tf / (tf + k1 * (1 - b + b * dl / avgdl)), k1 = 1.2, b = 0.75 by default (Robertson's
 * classic values, also those of SQLite FTS5's bm25(), the reference measured on this machine;
 * Pyserini's k1 = 0.9, b = 0.4 is one of the variants the bench reports beside it);
 * a query term counts as often as it occurs in the query.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { REPO_ROOT } from "@engram/testing";
import type { Scored } from "./metrics";

// The stemmer is a dependency of @engram/index (CommonJS); load it from there rather than adding a copy.
const stemWord = createRequire(path.join(REPO_ROOT, "libs/index/package.json"))("wink-porter2-stemmer") as (w: string) => string;

/** Lucene EnglishAnalyzer.ENGLISH_STOP_WORDS_SET (Pyserini's default English analyzer). */
export const LUCENE_STOP_WORDS: ReadonlySet<string> = new Set(
  "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(" "),
);

export interface Bm25Options {
  k1: number;
  b: number;
  stopWords: ReadonlySet<string>;
  stem: boolean;
}

export const BM25_DEFAULTS: Bm25Options = { k1: 1.2, b: 0.75, stopWords: LUCENE_STOP_WORDS, stem: true };

const TOKEN = /[\p{L}\p{N}]+/gu;

export class Bm25Index {
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  private readonly lengths: Float64Array;
  private readonly avgdl: number;
  private readonly stems = new Map<string, string>();

  constructor(
    private readonly docs: readonly { id: string; text: string }[],
    readonly options: Bm25Options = BM25_DEFAULTS,
  ) {
    this.lengths = new Float64Array(docs.length);
    let total = 0;
    docs.forEach((d, i) => {
      const terms = this.analyze(d.text);
      this.lengths[i] = terms.length;
      total += terms.length;
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        let p = this.postings.get(t);
        if (!p) this.postings.set(t, (p = { docs: [], tfs: [] }));
        p.docs.push(i);
        p.tfs.push(n);
      }
    });
    this.avgdl = docs.length ? total / docs.length : 0;
  }

  analyze(text: string): string[] {
    const out: string[] = [];
    for (const token of text
      .toLowerCase()
      .replace(/['’]s\b/g, "")
      .match(TOKEN) ?? []) {
      if (this.options.stopWords.has(token)) continue;
      out.push(this.options.stem ? this.stem(token) : token);
    }
    return out;
  }

  private stem(token: string): string {
    let s = this.stems.get(token);
    if (s === undefined) this.stems.set(token, (s = /^\p{L}+$/u.test(token) ? stemWord(token) : token));
    return s;
  }

  /** The `limit` best documents (score > 0), best first, ties by id descending as trec_eval ranks them. */
  search(query: string, limit: number): Scored[] {
    const { k1, b } = this.options;
    const n = this.docs.length;
    const scores = new Float64Array(n);
    const touched: number[] = [];
    const qtf = new Map<string, number>();
    for (const t of this.analyze(query)) qtf.set(t, (qtf.get(t) ?? 0) + 1);
    for (const [term, times] of qtf) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = Math.log(1 + (n - p.docs.length + 0.5) / (p.docs.length + 0.5));
      for (let j = 0; j < p.docs.length; j++) {
        const d = p.docs[j]!;
        const tf = p.tfs[j]!;
        const before = scores[d]!;
        if (before === 0) touched.push(d);
        scores[d] = before + times * idf * (tf / (tf + k1 * (1 - b + (b * this.lengths[d]!) / this.avgdl)));
      }
    }
    return touched
      .map((d) => ({ id: this.docs[d]!.id, score: scores[d]! }))
      .sort((x, y) => y.score - x.score || (x.id < y.id ? 1 : x.id > y.id ? -1 : 0))
      .slice(0, limit);
  }
}
