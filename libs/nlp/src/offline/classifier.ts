import { analyze } from "@engram/index";
import type { BucketClassifier } from "../ports";
import { BUCKET_THEMES } from "./themes";

/** The built-in themes' words, each list headed by the theme's name (BUCKET_THEMES). */
const THEMES: string[] = BUCKET_THEMES.map((t) => t.words);

/** Description words that say nothing about a topic. */
const GENERIC = new Set(
  analyze(
    "user users information info thing things related relating relate about detail details fact facts include includes including stuff various general other personal memory memories data any kind kinds type types",
  ),
);

interface Profile {
  key: string;
  weights: Map<string, number>;
  /** Five-letter stem prefixes ("allerg" ~ "allergi"), at three quarters of the weight. */
  prefixes: Map<string, number>;
}

function buildProfile(bucket: { key: string; description: string }): Profile {
  const weights = new Map<string, number>();
  const add = (stem: string, w: number) => {
    if (GENERIC.has(stem)) return;
    weights.set(stem, Math.max(weights.get(stem) ?? 0, w));
  };
  const keyWords = bucket.key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_\-.:/]+/g, " ");
  for (const s of analyze(keyWords)) add(s, 2);
  for (const s of analyze(bucket.description)) add(s, 1);
  const fromKey = new Set(analyze(keyWords));
  const direct = new Set(weights.keys());
  for (const theme of THEMES) {
    const stems = analyze(theme);
    // A theme is named by its first word ("travel", "hobby"), not by any word in it: themes share words.
    const head = stems[0]!;
    const w = fromKey.has(head) ? 0.75 : direct.has(head) ? 0.5 : 0;
    if (w > 0) for (const s of stems) add(s, w);
  }
  const prefixes = new Map<string, number>();
  for (const [s, w] of weights) if (s.length >= 5) prefixes.set(s.slice(0, 5), Math.max(prefixes.get(s.slice(0, 5)) ?? 0, w * 0.75));
  return { key: bucket.key, weights, prefixes };
}

/**
 * Offline bucket classification: each text's stems (the search index's
 * analysis) against each bucket's key (weight 2), description (1) and the
 * related words of a built-in theme the key (0.75) or description (0.5)
 * names; a stem sharing its first five letters with a profile stem counts
 * three quarters. A text joins every bucket whose summed weight reaches
 * `threshold` (default 0.75: one key or description word, one related word
 * of the key's theme, or two of the description's).
 */
export class OfflineBucketClassifier implements BucketClassifier {
  readonly id = "offline-v1";
  private readonly cache = new Map<string, Profile>();

  constructor(private readonly threshold = 0.75) {}

  async classify(texts: string[], buckets: { key: string; description: string }[]): Promise<string[][]> {
    return this.classifySync(texts, buckets);
  }

  classifySync(texts: string[], buckets: { key: string; description: string }[]): string[][] {
    const profiles = buckets.map((b) => this.profile(b));
    return texts.map((t) => {
      const stems = new Set(analyze(t));
      const out: string[] = [];
      for (const p of profiles) {
        let score = 0;
        for (const s of stems) score += Math.max(p.weights.get(s) ?? 0, s.length >= 5 ? (p.prefixes.get(s.slice(0, 5)) ?? 0) : 0);
        if (score >= this.threshold) out.push(p.key);
      }
      return out;
    });
  }

  private profile(b: { key: string; description: string }): Profile {
    const id = `${b.key}\u0000${b.description}`;
    let p = this.cache.get(id);
    if (!p) {
      p = buildProfile(b);
      if (this.cache.size > 1000) this.cache.clear();
      this.cache.set(id, p);
    }
    return p;
  }
}
