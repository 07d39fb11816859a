/**
 * Clause splitting: one sentence often states several facts ("I'm a nurse and
 * I live in Portland"); each clause becomes its own, carrying the subject
 * over when the second one leaves it out ("… and moved to Seattle").
 */
import { isAdverbWord, isGerund, isVerbForm, lexTags } from "./lexicon";
import { nameRun } from "./names";
import { CONTRACTION_VERB } from "./persons";
import { firstVerbIndex, isVerbAt } from "./syntax";
import { type Tok, tok } from "./tokens";

export const SUBJECT_PRONOUNS = new Set([
  "it",
  "it's",
  "i",
  "i'm",
  "im",
  "i've",
  "ive",
  "i'd",
  "i'll",
  "we",
  "we're",
  "we've",
  "we'd",
  "we'll",
  "he",
  "she",
  "they",
  "he's",
  "she's",
  "they're",
  "you",
  "you're",
]);
const POSSESSIVE_DETS = new Set(["my", "our", "his", "her", "their", "your"]);

/** Splits a sentence into clauses at "and"/"but"/";"/", so" when a new subject (or, after and/but, a finite verb reusing the subject) follows. */
export function splitClauses(ts: Tok[]): Tok[][] {
  const out: Tok[][] = [];
  let cur: Tok[] = [];
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    const conj = t.lower === "and" || t.lower === "but" || (t.lower === "so" && ts[i - 1]?.text === ",");
    if (t.text === ";" && cur.length) {
      out.push(cur);
      cur = [];
      continue;
    }
    if (conj && cur.length >= 2) {
      const next = ts[i + 1];
      const startsSubject =
        firstVerbIndex(cur) >= 0 &&
        next &&
        (SUBJECT_PRONOUNS.has(next.lower) ||
          (POSSESSIVE_DETS.has(next.lower) && ts[i + 2]?.word) ||
          (nameRun([next.text], true) !== undefined && isVerbAt(ts, i + 2)));
      let j = i + 1;
      while (ts[j] && isAdverbWord(ts[j]!.lower)) j++;
      const elided =
        !startsSubject &&
        ts[j] &&
        ts[j + 1] &&
        isVerbForm(ts[j]!.lower) &&
        !isGerund(ts[j]!.lower) &&
        !lexTags(ts[j]!.lower).some((x) => x === "Plural" || x === "Singular" || x === "Actor" || x === "Adjective") &&
        cur.length > 0;
      if (startsSubject || elided) {
        if (cur[cur.length - 1]?.text === ",") cur.pop();
        const subject = elided ? subjectOf(cur) : undefined;
        if (elided && !subject) {
          cur.push(t);
          continue;
        }
        out.push(cur);
        cur = subject ? subject.map((x, k) => ({ ...x, pre: k === 0 ? "" : x.pre })) : [];
        continue;
      }
    }
    cur.push(t);
  }
  if (cur.length) out.push(cur);
  return out.filter((c) => c.some((t) => t.word));
}

/** Subject tokens of a clause (before its first verb); contractions give their pronoun ("I'm" → "I"). */
function subjectOf(ts: Tok[]): Tok[] | undefined {
  const first = ts[0];
  if (!first) return undefined;
  if (CONTRACTION_VERB[first.lower] !== undefined) return [tok(/^(?:i|im)/.test(first.lower) ? "I" : first.text.split("'")[0]!, "")];
  const v = firstVerbIndex(ts);
  if (v <= 0 || v > 5) return undefined;
  return ts.slice(0, v);
}
