// eslint-disable-next-line @typescript-eslint/no-require-imports
const stemWord: (w: string) => string = require("wink-porter2-stemmer");

/** English stop words: kept out of hashed features and keyword queries. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  "a about above after again against all am an and any are as at be because been before being below between both but by can did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves".split(
    " ",
  ),
);

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Lower-cased word tokens (letters and digits, keeps inner apostrophes). */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(TOKEN) ?? []).map((t) => t.replace(/['’]s$/, "").replace(/['’]/g, ""));
}

const stemCache = new Map<string, string>();

/** Porter2 stem, cached (stemming dominates analysis time otherwise). */
export function stem(token: string): string {
  let s = stemCache.get(token);
  if (s === undefined) {
    s = /^\p{L}+$/u.test(token) ? stemWord(token) : token;
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
