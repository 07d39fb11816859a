import { AUX, ADVERBS, isPastTense, lexTags } from "./lexicon";
import type { Tok } from "./tokens";

/** Subject pronouns contracted with their verb ("I'm", "she's"): they contain the verb. */
const CONTRACTED_SUBJECT = new Set([
  "i'm",
  "im",
  "i've",
  "ive",
  "i'll",
  "i'd",
  "we're",
  "we've",
  "we'll",
  "we'd",
  "you're",
  "you've",
  "he's",
  "she's",
  "it's",
  "they're",
  "they've",
]);

/** Past participle or past form ("had moved", "I'd finished"). */
export function isParticiple(w: string): boolean {
  return /(?:ed|en)$/.test(w) || lexTags(w).some((t) => t === "Participle" || t === "PastTense");
}

/** Whether token i is a finite verb or auxiliary (position-aware: "works" after a name is a verb). */
export function isVerbAt(ts: Tok[], i: number): boolean {
  const t = ts[i];
  if (!t?.word) return false;
  const w = t.lower;
  if (AUX.has(w) || lexTags(w).some((x) => x === "Copula" || x === "Modal" || x === "PresentTense" || x === "PastTense" || x === "Verb")) return true;
  if (isPastTense(w) && i > 0) return true;
  // After a personal pronoun any base form is the verb ("i love", "we bike").
  if (
    i > 0 &&
    /^(?:i|we|you|they)$/.test(ts[i - 1]!.lower) &&
    /^[a-z]+$/.test(w) &&
    !lexTags(w).some((x) => x === "Determiner" || x === "Preposition" || x === "Conjunction" || x === "Adverb")
  )
    return true;
  if (CONTRACTED_SUBJECT.has(w)) return true;
  // A base form after a name, a noun or an adverb ("my husband and I also grow").
  if (i > 0 && lexTags(w).includes("Infinitive")) {
    const prev = ts[i - 1]!;
    if (
      prev.word &&
      prev.lower !== "to" &&
      !lexTags(prev.lower).some((x) => x === "Determiner" || x === "Preposition" || x === "Adjective" || x === "Possessive" || x === "Modal") &&
      !AUX.has(prev.lower)
    )
      return true;
  }
  if (
    /^[a-z]{3,}ed$/.test(w) &&
    i > 0 &&
    !lexTags(ts[i - 1]!.lower).some((x) => x === "Determiner" || x === "Preposition" || x === "Possessive" || x === "Adjective")
  )
    return true;
  if (/^[a-z]+s$/.test(w) && i > 0 && !lexTags(w).includes("Actor")) {
    const prev = ts[i - 1]!;
    const prevTags = lexTags(prev.lower);
    if (!prev.word || /^\d/.test(prev.text) || prevTags.some((x) => x === "Determiner" || x === "Preposition" || x === "Adjective" || x === "Possessive"))
      return false;
    const base = w
      .replace(/ies$/, "y")
      .replace(/(?:ches|shes|sses|xes|oes)$/, (m) => m.slice(0, -2))
      .replace(/s$/, "");
    const baseTags = lexTags(base);
    if (prev.lower.endsWith("'s")) return baseTags.includes("Infinitive");
    if (/^\p{Lu}/u.test(prev.text) || ADVERBS.has(prev.lower)) return baseTags.length === 0 || baseTags.includes("Infinitive") || baseTags.includes("Singular");
    return baseTags.includes("Infinitive") || baseTags.includes("Singular");
  }
  return false;
}

/** Index of the first finite verb or auxiliary, or -1. */
export function firstVerbIndex(ts: Tok[]): number {
  for (let i = 0; i < ts.length; i++) if (isVerbAt(ts, i)) return i;
  return -1;
}
