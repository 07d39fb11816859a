/**
 * Clause facts: a unit of text (a sentence of a chat line or of prose)
 * cleaned and filtered, split into clauses, persons and pronouns resolved and
 * dates made absolute, each clause a fact with its subject and inferences,
 * kept once per wording.
 */
import type { ExtractedFact } from "../ports";
import { splitClauses, SUBJECT_PRONOUNS } from "./clauses";
import { type DateReference, resolveDates } from "./dates";
import { type Assembled, positionsOf } from "./document";
import {
  ADVICE_MODALS,
  ASSISTANT_DIRECTED,
  BOILERPLATE,
  CODE_LIKE,
  FILLER,
  HEDGE,
  HYPOTHETICAL,
  QUESTION_START,
  REQUEST,
  SMALL_TALK_STATE,
  SPECULATIVE,
  THANKS,
  TRAILING_FILLER,
  clean,
  stripInterjections,
} from "./filters";
import { inferFacts } from "./inference";
import { isAdverbWord, isFirstName, isPastTense, lexTags } from "./lexicon";
import { nameRun, statedName } from "./names";
import { rewritePersons, type Speaker } from "./persons";
import { RELATIONS, type Referents, rememberClauseAntecedents, rememberEntities, resolvePronouns } from "./pronouns";
import { isStaticStatement } from "./static";
import { firstVerbIndex, isVerbAt } from "./syntax";
import { type Tok, join, toks } from "./tokens";

/** "<Name> said (that) he/she/they …": the report verb goes, the pronoun was the reporter. */
const REPORTED_SELF =
  /^((?:\p{Lu}[\p{L}'-]*)(?: \p{Lu}[\p{L}'-]*){0,2}) (?:said|says|mentioned|explained|noted|added|told (?:me|us|him|her|them)|announced|confirmed)(?: that)? (?:he|she|they) /u;

/** A sentence to read: its offsets in the document, who wrote it, and whether it is prose (not a chat line). */
export interface Unit {
  text: string;
  start: number;
  end: number;
  speaker: Speaker;
  /** The other participant in a two-person chat ("you" resolves to them). */
  other?: Speaker;
  prose: boolean;
  /** What its relative dates resolve against (undefined: no date is known for it, they stay as written). */
  ref: DateReference | undefined;
}

/** What the extractor knows while it reads one document. */
export interface State extends Referents {
  facts: Map<string, ExtractedFact>;
  /** Keys of the facts emitted, in order (new keys only). */
  added: string[];
  doc: Assembled;
}

/** "Update, 2 September 2025: <sentence>": a dated label before the statement. */
const DATED_LABEL = /^([^:.!?]{3,48}):\s+(\S.*)$/;
const LABEL_DATE =
  /\b(?:19|20)\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b|\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b/i;

export function processUnit(u: Unit, state: State): void {
  let s = clean(u.text);
  if (!s) return;
  // The label's date moves behind the statement, so the statement keeps its subject first ("X has moved …, as of 2 September 2025").
  const labelled = DATED_LABEL.exec(s);
  if (labelled && LABEL_DATE.test(labelled[1]!)) {
    const when = labelled[1]!.replace(/^(?:update|updated|note|notes|call notes|meeting notes|edit|edited)\s*,?\s*/i, "").trim();
    s = `${labelled[2]!.replace(/[.!]+\s*$/, "")}, as of ${when}.`;
  }
  if (u.prose && (CODE_LIKE.test(s) || BOILERPLATE.test(s))) return;
  if (/\?["')\]]*$/.test(s)) return;
  s = stripInterjections(s);
  if (!s || FILLER.test(s) || THANKS.test(s) || REQUEST.test(s) || QUESTION_START.test(s) || HYPOTHETICAL.test(s) || SPECULATIVE.test(s)) return;
  const long = s.length > 400;
  // Diary style: "Met with the team today." is the speaker's (or the author's) own action.
  const firstWord = /^([A-Za-z]+)\b(.?)/.exec(s);
  if (
    firstWord &&
    /^[A-Z]/.test(firstWord[1]!) &&
    firstWord[2] !== "," &&
    isPastTense(firstWord[1]!.toLowerCase()) &&
    !/^(?:based|located|founded|built|born|made|written|published|released|called|named)$/i.test(firstWord[1]!)
  ) {
    s = `I ${s.charAt(0).toLowerCase()}${s.slice(1)}`;
  }
  s = s.replace(HEDGE, "");
  if (!s || /^so\b/i.test(s)) return;

  const positions = positionsOf(state.doc, u.start, u.end);
  const clauses = long ? [toks(s)] : splitClauses(toks(s));
  for (const clause of clauses) processClause(clause, u, state, positions);
}

function processClause(raw: Tok[], u: Unit, state: State, positions: number[]): void {
  let ts = raw;
  while (ts.length && !ts[0]!.word) ts = ts.slice(1);
  while (ts.length && /^(?:and|but|so|then|also|because)$/.test(ts[0]!.lower)) ts = ts.slice(1);
  if (ts.length === 0) return;
  const plain = join(ts.map((x, n) => ({ ...x, pre: n === 0 ? "" : x.pre })));
  if (HYPOTHETICAL.test(plain) || SPECULATIVE.test(plain) || REQUEST.test(plain) || FILLER.test(plain) || QUESTION_START.test(plain)) return;

  // "I'm Sarah" / "my name is Sarah Chen": a name statement.
  const named = /^(?:my name|i'm|i am|im|call me|this is)\b/i.test(plain) ? statedName(plain) : undefined;
  if (named) {
    if (u.speaker.isUser) {
      const who = u.speaker.name === named.name ? "The user" : u.speaker.name;
      if (!(u.speaker.name === named.name && u.prose)) {
        emit(state, {
          content: `${who === "The user" ? "The user" : who}'s name is ${named.name}.`,
          isStatic: true,
          eventDates: [],
          isInference: false,
          chunkPositions: positions,
          subject: named.name.toLowerCase(),
        });
      }
    }
    if (named.rest) processClause(toks(`I'm ${named.rest}`), u, state, positions);
    return;
  }

  const first = ts[0]!.lower;
  if (/^(?:this|that|these|those|there|here)$/.test(first) && isVerbAt(ts, 1)) return;
  if (
    /^(?:it|it's)$/.test(first) &&
    /^(?:is|was|'s|has been|seems|looks|sounds|feels)$/.test(first === "it's" ? "is" : (ts[1]?.lower ?? "")) &&
    /\b(?:to|that)\b/.test(plain)
  )
    return;
  // Imperatives ("Click the button", "Note that ...", "Book a table").
  if (lexTags(first).includes("Infinitive") && !isFirstName(first) && !SUBJECT_PRONOUNS.has(first)) return;

  const persons = rewritePersons(ts, u.speaker, u.other);
  if (!persons) return;
  rememberClauseAntecedents(persons, state);
  // A pronoun nobody can be found for: the sentence is kept as written rather than lost (it still holds the fact's words).
  const resolved = resolvePronouns(persons, state) ?? persons;

  let text = join(resolved.map((x, n) => ({ ...x, pre: n === 0 ? "" : x.pre })))
    .replace(/\s+([,.!?;:])/g, "$1")
    .replace(/[,;:\s]+$/, "")
    .trim();
  text = text.replace(/[.!]+$/, "");
  // Reported speech about the speaker's own plans: "Tomasz said he is moving" → "Tomasz is moving".
  text = text.replace(REPORTED_SELF, "$1 ");
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length < 3 || firstVerbIndex(resolved) < 0) {
    rememberEntities(resolved, state, u.prose);
    return;
  }
  if (SMALL_TALK_STATE.test(text) || ASSISTANT_DIRECTED.test(text)) return;
  const verb = resolved[firstVerbIndex(resolved)]!.lower;
  if (ADVICE_MODALS.has(verb)) return;
  text = text.replace(TRAILING_FILLER, "");

  const dates = resolveDates(text, u.ref);
  let content = dates.text;
  content = `${content.charAt(0).toUpperCase()}${content.slice(1)}.`;
  const v = firstVerbIndex(resolved);
  let subjectToks = resolved.slice(0, v);
  while (subjectToks.length > 1 && (isAdverbWord(subjectToks[subjectToks.length - 1]!.lower) || subjectToks[subjectToks.length - 1]!.text === ","))
    subjectToks = subjectToks.slice(0, -1);
  const subject = subjectKey(subjectToks);
  rememberEntities(resolved, state, u.prose);

  const fact: ExtractedFact = {
    content,
    isStatic: !dates.dated && isStaticStatement(content),
    eventDates: dates.dates,
    isInference: false,
    chunkPositions: positions,
  };
  if (subject) fact.subject = subject;
  emit(state, fact);

  const subjectText = join(subjectToks.map((x, n) => ({ ...x, pre: n === 0 ? "" : x.pre })));
  if (subjectText) {
    const predicate = content.slice(content.indexOf(subjectText) + subjectText.length).trim();
    for (const inferred of inferFacts(subjectText.charAt(0).toUpperCase() + subjectText.slice(1), predicate)) {
      const f: ExtractedFact = { content: inferred, isStatic: isStaticStatement(inferred), eventDates: [], isInference: true, chunkPositions: positions };
      if (subject) f.subject = subject;
      emit(state, f);
    }
  }
}

/** Normalised subject: lower case, with "X's sister Amy" keyed by the name. */
function subjectKey(ts: Tok[]): string | undefined {
  if (ts.length === 0) return undefined;
  const text = join(ts.map((x, n) => ({ ...x, pre: n === 0 ? "" : x.pre })))
    .replace(/[,.;:]+$/, "")
    .trim();
  if (!text || /^(?:it|this|that|there|they|he|she)$/i.test(text)) return undefined;
  const rel = ts.findIndex((x) => RELATIONS[x.lower] !== undefined);
  if (rel >= 0 && rel < ts.length - 1) {
    const name = nameRun(
      ts.slice(rel + 1).map((x) => x.text),
      false,
    );
    if (name) return name.toLowerCase();
  }
  return text.toLowerCase().replace(/^(?:the|a|an)\s+(?!user\b)/, "");
}

export function emit(state: State, fact: ExtractedFact): void {
  const key = fact.content
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  const prev = state.facts.get(key);
  if (prev) {
    prev.chunkPositions = [...new Set([...prev.chunkPositions, ...fact.chunkPositions])].sort((a, b) => a - b);
    return;
  }
  state.facts.set(key, fact);
  state.added.push(key);
}
