import { analyze, stem } from "@engram/index";
import { AUX, infinitive, isAdverbWord, lexTags } from "./lexicon";
import { firstVerbIndex } from "./syntax";
import { join, toks } from "./tokens";

/** Subject / verb / attribute analysis of a one-sentence fact, for relating and grouping memories. */
export interface Statement {
  /** Normalised subject ("sarah", "the user", "sarah's sister"), "" when none was found. */
  subject: string;
  /** Subject as written. */
  subjectText: string;
  /** Base form of the main verb ("live", "work", "prefer", "be"), "" when none. */
  verb: string;
  /** Attribute slot: verb plus its first preposition or the "favourite X" / "name" noun ("live|in", "prefer|", "favourite|colour"). */
  slot: string;
  /** The predicate as written (after the subject). */
  predicate: string;
  /** Content stems of the predicate (search-index analysis), without change cue words. */
  predicateStems: Set<string>;
  /** Content stems of the slot's value (after the verb and preposition). */
  objectStems: Set<string>;
  /** Content stems of the whole statement. */
  stems: Set<string>;
  negated: boolean;
  /** Words that announce a change: now, no longer, anymore, moved, switched, instead... */
  change: boolean;
}

const PREPOSITIONS = new Set(["in", "at", "for", "as", "to", "from", "with", "on", "of", "by", "near"]);
const CHANGE = /\b(?:now|no longer|anymore|any more|moved|switched|changed|instead|nowadays|these days|became|has become|recently started|new)\b/i;
const NEGATION = /\b(?:not|no longer|never|doesn't|don't|isn't|wasn't|didn't|hasn't|won't|can't|cannot|no)\b/i;
/** Stems of change and negation words, left out of content comparisons. */
const CUE_STEMS = new Set(analyze("now longer anymore instead nowadays days never new currently still actually really"));
const FAVOURITE = /\bfavou?rite\s+([\p{L}-]+)/iu;

/**
 * Analyses by text, least recently used first: memory formation compares every new fact with the
 * container's closest memories, and the same memories come back for many facts. A cache cleared
 * whole when full (as before) missed most of them once a container held more memories than it.
 */
const cache = new Map<string, Statement>();
const CACHE_MAX = 20_000;

function norm(s: string): string {
  return s
    .toLowerCase()
    .replace(/[’]/g, "'")
    .replace(/^(?:the|a|an)\s+(?!user\b)/, "")
    .trim();
}

export function analyzeStatement(text: string, subjectHint?: string): Statement {
  const key = `${subjectHint ?? ""}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const ts = toks(text.replace(/[’]/g, "'"));
  const v = firstVerbIndex(ts);
  let subjectEnd = v > 0 ? v : 0;
  while (subjectEnd > 1 && (isAdverbWord(ts[subjectEnd - 1]!.lower) || /^(?:no|not|never|longer|n't)$/.test(ts[subjectEnd - 1]!.lower))) subjectEnd--;
  const subjectText = join(ts.slice(0, subjectEnd).map((x, n) => ({ ...x, pre: n === 0 ? "" : x.pre })));
  const subject = subjectHint ? norm(subjectHint) : norm(subjectText);

  // Main verb: past auxiliaries and adverbs ("has been working" → work, "now prefers" → prefer).
  let verb = "";
  let k = v;
  if (v >= 0) {
    while (k < ts.length) {
      const w = ts[k]!.lower;
      if (isAdverbWord(w) || w === "not" || w === "no" || w === "longer" || w === "n't") {
        k++;
        continue;
      }
      const next = ts[k + 1]?.lower ?? "";
      if (
        AUX.has(w) &&
        next &&
        (lexTags(next).some((t) => t === "Participle" || t === "PastTense" || t === "Gerund" || t === "Infinitive") ||
          /(?:ing|ed|en)$/.test(next) ||
          next === "not" ||
          isAdverbWord(next))
      ) {
        if (!/^(?:is|are|was|were|am)$/.test(w) || /(?:ing|ed)$/.test(next) || next === "not" || isAdverbWord(next)) {
          k++;
          continue;
        }
      }
      break;
    }
    verb = k < ts.length ? infinitive(ts[k]!.lower) : "";
    if (verb.endsWith("ing") && verb.length > 5) {
      const base = verb.slice(0, -3);
      if (lexTags(base).includes("Infinitive")) verb = base;
      else if (lexTags(`${base}e`).includes("Infinitive") || stem(`${base}e`) === stem(verb))
        verb = `${base}e`; // moving → move
      else if (/(.)\1$/.test(base) && lexTags(base.slice(0, -1)).includes("Infinitive")) verb = base.slice(0, -1);
    }
  }
  const afterVerb = v >= 0 ? ts.slice(k + 1) : ts;
  let slot = `${verb}|`;
  let valueStart = 0;
  const fav = FAVOURITE.exec(text);
  const lowerText = text.toLowerCase();
  if (fav) {
    slot = `favourite|${fav[1]!.toLowerCase()}`;
    const isAt = lowerText.indexOf(" is ", fav.index);
    if (isAt >= 0) return finish(key, text, subject, subjectText, verb, slot, text.slice(isAt + 4), ts, subjectEnd);
  } else if (/\bname is\b/i.test(text)) {
    slot = "name|";
    return finish(key, text, subject, subjectText, verb, slot, text.slice(lowerText.indexOf("name is") + 7), ts, subjectEnd);
  } else {
    for (let i = 0; i < Math.min(3, afterVerb.length); i++) {
      const w = afterVerb[i]!.lower;
      if (PREPOSITIONS.has(w)) {
        slot = `${verb}|${w}`;
        valueStart = i + 1;
        break;
      }
      if (verb === "be" && (w === "a" || w === "an")) {
        slot = "be|a";
        valueStart = i + 1;
        break;
      }
      if (!isAdverbWord(w) && lexTags(w).includes("Adjective") && verb === "be") {
        slot = `be|${w}`;
        valueStart = i + 1;
      }
    }
  }
  const value = join(afterVerb.slice(Math.max(0, valueStart)).map((x, n) => ({ ...x, pre: n === 0 ? "" : x.pre })));
  return finish(key, text, subject, subjectText, verb, SLOT_ALIASES[slot] ?? slot, value, ts, subjectEnd);
}

/** Events that set a slot's value: "moved to Y" sets where one lives, "started working at Y" where one works. */
const SLOT_ALIASES: Record<string, string> = {
  "move|to": "live|in",
  "move|from": "live|in",
  "relocate|to": "live|in",
  "start|at": "work|at",
  "start|for": "work|at",
  "work|for": "work|at",
  "join|": "work|at",
  "marry|": "be|married",
  "get|married": "be|married",
};

function finish(
  key: string,
  text: string,
  subject: string,
  subjectText: string,
  verb: string,
  slot: string,
  value: string,
  ts: ReturnType<typeof toks>,
  subjectEnd: number,
): Statement {
  const predicate = subjectEnd > 0 ? join(ts.slice(subjectEnd).map((x, n) => ({ ...x, pre: n === 0 ? "" : x.pre }))) : text;
  const strip = (s: string) => new Set(analyze(s.replace(/\b(?:on|in|since|until)\s+\d{4}(?:-\d{2}){0,2}\b/g, "")).filter((x) => !CUE_STEMS.has(x)));
  const st: Statement = {
    subject,
    subjectText,
    verb,
    slot,
    predicate,
    predicateStems: strip(predicate),
    objectStems: strip(value),
    stems: strip(text),
    negated: NEGATION.test(predicate),
    change: CHANGE.test(predicate),
  };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, st);
  return st;
}

/** Subjects match when equal, or one is a word-prefix of the other ("sarah" / "sarah chen"). */
export function sameSubject(a: string, b: string): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.startsWith(`${short} `) && !long.startsWith(`${short}'s`);
}
