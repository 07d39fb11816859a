// eslint-disable-next-line @typescript-eslint/no-require-imports
const stemWord: (w: string) => string = require("wink-porter2-stemmer");

/** English stop words: kept out of hashed features and keyword queries. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  "a about above after again against all am an and any are as at be because been before being below between both but by can did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves".split(
    " ",
  ),
);

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/**
 * Longest token kept, in UTF-16 code units. Longer runs (base64, hashes, a
 * pasted word of a megabyte) are cut to this length: the stemmer's suffix
 * rules are quadratic in a token's length, so an unbounded token would cost
 * seconds of CPU per token. 64 keeps every dictionary word and most
 * identifiers whole; a longer run still matches itself by its first 64.
 */
export const MAX_TOKEN_LENGTH = 64;

function bound(t: string): string {
  if (t.length <= MAX_TOKEN_LENGTH) return t;
  const cut = t.slice(0, MAX_TOKEN_LENGTH);
  // Never end on half of a surrogate pair.
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** Lower-cased word tokens (letters and digits, keeps inner apostrophes), each at most MAX_TOKEN_LENGTH long. */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(TOKEN) ?? []).map((t) => bound(t.replace(/['’]s$/, "").replace(/['’]/g, "")));
}

const stemCache = new Map<string, string>();

/** Porter2 stem, cached (stemming dominates analysis time otherwise). */
export function stem(token: string): string {
  let s = stemCache.get(token);
  if (s === undefined) {
    // Tokens from tokenize() are already bounded; a caller's raw string is bounded here too.
    s = /^\p{L}+$/u.test(token) ? stemWord(bound(token)) : token;
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(token, s);
  }
  return s;
}

/** Tokens without stop words, stemmed: the terms both indexes agree on. */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) if (!STOP_WORDS.has(t)) out.push(stem(t));
  return out;
}

/**
 * Stems of the words a text writes with a capital inside a sentence ("where does Caroline live" →
 * "carolin"): names, as far as the writer's capitals tell.
 */
export function capitalizedStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/(^|[.!?]\s+|\s)(\p{Lu}[\p{L}\p{N}'’]*)/gu)) {
    if (m[1] === "" || /[.!?]/.test(m[1]!)) continue; // sentence-initial: a capital says nothing
    for (const t of tokenize(m[2]!)) if (!STOP_WORDS.has(t)) out.add(stem(t));
  }
  return out;
}

/** A run of capitalised words in a query ("Mirela Horvat"): a candidate subject (SearchEngine, EngineQuery.subjects). */
export interface SubjectRun {
  /** The run's words as written, stop words left out ("Mirela Horvat", "Caroline"): the text a model embeds. */
  text: string;
  /** Their analysed terms (analyze). */
  terms: string[];
}

/**
 * The runs of capitalised words of a text, stop words left out ("where does Mirela Horvat live" →
 * "Mirela Horvat"; "Did Caroline meet Melanie" → "Caroline", "Melanie"). A sentence-initial capital
 * counts only when the word is not a stop word ("Caroline went …"). At most `max` runs, the first ones.
 * Which runs are the searched scope's subject is the engine's call (how many records hold them).
 */
export function subjectRuns(text: string, max = 3): SubjectRun[] {
  const runs: SubjectRun[] = [];
  let words: string[] = [];
  const flush = () => {
    if (words.length > 0) {
      const t = words.join(" ");
      const terms = analyze(t);
      if (terms.length > 0 && !runs.some((r) => r.text === t)) runs.push({ text: t, terms });
    }
    words = [];
  };
  for (const m of text.matchAll(/[\p{L}\p{N}'’-]+|[^\p{L}\p{N}'’\s-]+/gu)) {
    const w = m[0];
    const bare = w.replace(/['’]s$/u, "");
    if (/^\p{Lu}/u.test(bare) && !STOP_WORDS.has(bare.toLowerCase())) words.push(bare);
    else flush();
    if (runs.length >= max) break;
  }
  flush();
  return runs.slice(0, max);
}
