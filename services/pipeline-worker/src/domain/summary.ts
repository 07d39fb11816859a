import { analyze } from "@engram/index";

/**
 * A document's summary, made offline: the few sentences that best stand for
 * the whole text, in their original order (extractive, LexRank: sentences
 * are the nodes of a graph weighted by the TF-IDF cosine similarity of their
 * stems, and a sentence scores by how central it is). Written here because
 * the npm packages for it (lexrank, node-summarizer, ts-textrank) are
 * unmaintained single-author ports; the parts that are real work, sentence
 * boundaries and stemming, come from Intl.Segmenter and the index's own
 * analyser.
 *
 * Pure and bounded: at most MAX_SENTENCES sentences (the first ones) are
 * ranked, so the cost stops growing with the document; it runs on the
 * extraction pool's threads with the chunking.
 */

export interface SummaryOptions {
  /** Sentences kept (default 3). */
  maxSentences?: number;
  /** Characters at most (default 500); a single longer sentence is cut at a word boundary. */
  maxChars?: number;
}

/** Sentences ranked at most: the similarity graph is quadratic in them. */
const MAX_SENTENCES = 300;
/** Text examined at most (characters), so that splitting a huge document stays cheap too. */
const MAX_SCAN_CHARS = 200_000;
const DAMPING = 0.85;
const ITERATIONS = 30;
/** Edges weaker than this are dropped (LexRank's threshold). */
const EDGE_THRESHOLD = 0.1;
/** A sentence this similar to one already kept adds nothing. */
const REDUNDANT = 0.5;

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/** The summary of `text`, or undefined when it has no sentence worth keeping. */
export function summarize(text: string, options: SummaryOptions = {}): string | undefined {
  const maxSentences = options.maxSentences ?? 3;
  const maxChars = options.maxChars ?? 500;
  const sentences = splitSentences(text.slice(0, MAX_SCAN_CHARS));
  if (sentences.length === 0) return undefined;
  const candidates = sentences.slice(0, MAX_SENTENCES);
  const terms = candidates.map((c) => analyze(c));
  const vectors = tfidf(terms);
  const counts = terms.map(termCounts);
  const central = centrality(vectors);
  const top = Math.max(...central);
  // Centrality says what the text keeps talking about; position says what it opens with (a document's opening usually
  // states its subject): each counts half.
  const score = central.map((c, i) => 0.5 * (c / top) + 0.5 / (1 + i / 3));
  const ranked = candidates
    .map((_, i) => i)
    .filter((i) => vectors[i]!.norm > 0 && !candidates[i]!.endsWith(":"))
    .sort((a, b) => score[b]! - score[a]! || a - b);
  const picked: number[] = [];
  let length = 0;
  for (const i of ranked) {
    if (picked.length >= maxSentences) break;
    const extra = candidates[i]!.length + (picked.length ? 1 : 0);
    if (picked.length && length + extra > maxChars) continue;
    // no sentence that mostly repeats one already kept (in words: the weighting that ranks would hide a repeat that differs by one rare word)
    if (picked.some((j) => cosine(counts[i]!, counts[j]!) > REDUNDANT)) continue;
    picked.push(i);
    length += extra;
  }
  if (picked.length === 0) return undefined;
  const summary = picked
    .sort((a, b) => a - b)
    .map((i) => candidates[i]!)
    .join(" ");
  return cut(summary, maxChars);
}

/**
 * The text's sentences, trimmed, without markdown structure: headings,
 * table rows, code fences and bare link syntax are not prose, list markers
 * and quote marks are dropped, and fragments of fewer than four words are
 * left out. A line break ends a block unless it is a hard wrap (the line
 * before ends without sentence punctuation, and the next is neither a list
 * item nor a speaker's turn such as `user: …`).
 */
export function splitSentences(text: string): string[] {
  const blocks: string[] = [];
  let inFence = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("```")) {
      inFence = !inFence;
      continue;
    }
    // headings, table rows, rules and front-matter fences are structure, not prose
    if (inFence || line === "" || line.startsWith("#") || /(?:^\||\s\|\s|\|$)/.test(line) || /^(?:-{3,}|\*{3,}|_{3,}|={3,})$/.test(line)) {
      blocks.push("");
      continue;
    }
    const last = blocks.length ? blocks[blocks.length - 1]! : "";
    const hardWrap = last !== "" && !/[.!?:;]["'’”)\]]*$/.test(last) && !SPEAKER.test(line) && !LIST_ITEM.test(line);
    if (hardWrap) blocks[blocks.length - 1] = `${last} ${line}`;
    else blocks.push(line);
  }
  const out: string[] = [];
  for (const block of blocks) {
    if (block === "") continue;
    const prose = block
      .replace(LIST_ITEM, "")
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/`([^`]+)`/g, "$1")
      // emphasis markers around words (not the underscores inside identifiers such as PAGE_SIZE)
      .replace(/(^|[\s("'])([*_]{1,3})(?=\S)([^*_]*?\S)\2(?=[\s).,;:!?"']|$)/g, "$1$3")
      .replace(/\s+/g, " ");
    for (const { segment } of segmenter.segment(prose)) {
      const s = segment.trim();
      if (s.split(" ").length >= 4 && /\p{L}/u.test(s)) out.push(s);
    }
  }
  return out;
}

/** A speaker's turn in a transcript (`user: …`, `Dr. Lee: …`). */
const SPEAKER = /^[\p{L}][\p{L}\p{N} .'_-]{0,40}:\s/u;
/** List markers and quote marks at the start of a line. */
const LIST_ITEM = /^(?:[-*+>]\s+|\d+[.)]\s+)+/;

interface Vector {
  v: Map<string, number>;
  norm: number;
}

/** TF-IDF vectors of sentences given their terms (each sentence a document of the collection). */
function tfidf(terms: string[][]): Vector[] {
  const n = terms.length;
  const df = new Map<string, number>();
  for (const t of terms) for (const term of new Set(t)) df.set(term, (df.get(term) ?? 0) + 1);
  return terms.map((t) => {
    const tf = new Map<string, number>();
    for (const term of t) tf.set(term, (tf.get(term) ?? 0) + 1);
    const v = new Map<string, number>();
    let norm = 0;
    for (const [term, f] of tf) {
      const w = f * Math.log((n + 1) / (df.get(term)! + 0.5));
      v.set(term, w);
      norm += w * w;
    }
    return { v, norm: Math.sqrt(norm) };
  });
}

/** Plain term counts of a sentence, as a vector. */
function termCounts(t: string[]): Vector {
  const v = new Map<string, number>();
  for (const term of t) v.set(term, (v.get(term) ?? 0) + 1);
  let norm = 0;
  for (const c of v.values()) norm += c * c;
  return { v, norm: Math.sqrt(norm) };
}

function cosine(a: Vector, b: Vector): number {
  if (a.norm === 0 || b.norm === 0) return 0;
  const [small, large] = a.v.size <= b.v.size ? [a.v, b.v] : [b.v, a.v];
  let dot = 0;
  for (const [term, w] of small) dot += w * (large.get(term) ?? 0);
  return dot / (a.norm * b.norm);
}

/** LexRank scores of sentences: power iteration over the graph of their similarities above EDGE_THRESHOLD. */
function centrality(vectors: Vector[]): number[] {
  const n = vectors.length;
  const edges: { to: number; w: number }[][] = vectors.map(() => []);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const sim = cosine(vectors[i]!, vectors[j]!);
      if (sim >= EDGE_THRESHOLD) {
        edges[i]!.push({ to: j, w: sim });
        edges[j]!.push({ to: i, w: sim });
      }
    }
  const outWeight = edges.map((e) => e.reduce((sum, x) => sum + x.w, 0));
  let score = new Array<number>(n).fill(1 / n);
  for (let k = 0; k < ITERATIONS; k++) {
    const next = new Array<number>(n).fill((1 - DAMPING) / n);
    for (let i = 0; i < n; i++) {
      if (outWeight[i] === 0) continue;
      for (const { to, w } of edges[i]!) next[to]! += (DAMPING * score[i]! * w) / outWeight[i]!;
    }
    score = next;
  }
  return score;
}

/** `s` within `max` characters, cut at a word boundary with an ellipsis. */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = s.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:.-]+$/, "")}…`;
}
