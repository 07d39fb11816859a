import type { DenseCalibration } from "./similarity";
import { analyze } from "./text";

/**
 * The Embedder port: texts in, unit-length vectors out. This release ships
 * the offline default below; an OpenAI-compatible HTTP provider, selected by
 * configuration, plugs in behind the same port.
 */
export interface Embedder {
  /** Stable identifier of the model; vectors of different ids never mix. */
  readonly id: string;
  readonly dimensions: number;
  /** True when vectors carry meaning beyond the words themselves (a trained model). */
  readonly semantic: boolean;
  /**
   * How this model's cosines read as evidence (similarity.ts, `DenseCalibration`), when it has been
   * measured: then a query's dense side ranks beside the keywords on equal terms. Without it (a model
   * configured by the operator), the dense side is weighed by its agreement with the keyword side.
   */
  readonly calibration?: DenseCalibration;
  /**
   * `signal`: the process is stopping; the embedder stops at its next batch (a
   * batch under way finishes) and rejects with the signal's reason.
   */
  embed(texts: string[], kind: "document" | "query", signal?: AbortSignal): Promise<Float32Array[]>;
  /** Releases threads or connections, when the embedder holds any. */
  close?(): Promise<void>;
}

/** 32-bit FNV-1a of a string with a seed. */
function hash(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * Offline default embedder: the hashing trick over stemmed terms, term
 * bigrams and character trigrams of each term (so morphological variants and
 * typos land near each other), with sublinear term frequency and a signed hash
 * to keep collisions unbiased. Needs no model and no network. It carries
 * lexical and sub-word signal, not distributional semantics.
 */
export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly semantic = false;
  constructor(readonly dimensions = 384) {
    this.id = `hashing-v1-${dimensions}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dimensions);
    const terms = analyze(text);
    const counts = new Map<string, number>();
    const add = (feature: string, weight: number) => counts.set(feature, (counts.get(feature) ?? 0) + weight);
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i]!;
      add(`w:${t}`, 1);
      if (i + 1 < terms.length) add(`b:${t} ${terms[i + 1]}`, 0.5);
      if (t.length > 3) {
        const padded = `<${t}>`;
        for (let j = 0; j + 3 <= padded.length; j++) add(`c:${padded.slice(j, j + 3)}`, 0.25);
      }
    }
    for (const [feature, tf] of counts) {
      const h = hash(feature, 0);
      const sign = hash(feature, 0x9e3779b9) & 1 ? 1 : -1;
      v[h % this.dimensions]! += sign * (1 + Math.log(tf));
    }
    return normalize(v);
  }
}

export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}
