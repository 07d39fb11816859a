/**
 * Chat turns kept whole as memories (turnMemory): what a turn's speaker said,
 * persons and pronouns resolved and dates made absolute, without its
 * questions, greetings and filler, followed by who said it and when.
 */
import type { ExtractedFact } from "../ports";
import { dayOf, resolveDates } from "./dates";
import { positionsOf } from "./document";
import type { State, Unit } from "./facts";
import { ADVICE_MODALS, FILLER, HEDGE, HYPOTHETICAL, REQUEST, SPECULATIVE, THANKS, TRAILING_FILLER, clean, stripInterjections } from "./filters";
import { rewritePersons } from "./persons";
import { resolvePronouns } from "./pronouns";
import { firstVerbIndex } from "./syntax";
import { join, toks } from "./tokens";
import type { Turn } from "./transcript";

const TAG_QUESTION = /,\s*(?:right|isn't (?:it|that)|aren't (?:they|we)|don't (?:you think|they)|wasn't it|didn't (?:i|we|they|he|she)|no|huh|eh)\?["')\]]*$/i;
const GREETING =
  /^(?:(?:so |really )?(?:good|nice|great|lovely) to (?:see|hear from|meet|talk to|chat with) \S+|long time no see|how (?:are|have) you(?: been)?)[!.\s]*$/i;

const escapeRegExp = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * "I am Sarah and I was promoted", rewritten in the third person, reads "Sarah is Sarah and Sarah was
 * promoted": the introduction says nothing (the name is its own fact), so it goes, with the sentence
 * when that was all of it.
 */
function dropSelfIntroduction(text: string, name: string): string {
  const intro = new RegExp(`^(?:${escapeRegExp(name)})\\s+(?:is|am)\\s+(?:${escapeRegExp(name)})\\b\\s*(?:,\\s*)?(?:(?:and|but|so)\\s+)?`, "i");
  const m = intro.exec(text);
  if (!m) return text;
  const rest = text.slice(m[0].length).trim();
  return rest ? `${rest.charAt(0).toUpperCase()}${rest.slice(1)}` : "";
}

/** A sentence that only addresses someone ("Mel!", "Caroline."). */
function isVocative(x: string): boolean {
  const words = x.replace(/[!.,\s]+$/, "").split(/\s+/);
  return words.length <= 2 && words.every((w) => /^\p{Lu}[\p{L}'-]*$/u.test(w));
}

/**
 * A chat turn kept whole, so that formation never loses what the clause rules
 * cannot restructure (issue #15): the speaker's sentences with first and
 * second person replaced by names and pronouns resolved where an antecedent
 * is known, relative dates made absolute, questions that ask (not tag
 * questions such as "…, right?") and pure filler left out, followed by who
 * said it and when: "Caroline went to a LGBTQ support group on 2023-05-07 and
 * it was so powerful. (Caroline, 8 May 2023)" (only who, when the
 * conversation's date is not known). An answer often spans the
 * sentences of one turn (the flowers, and that they were part of the
 * wedding); clause facts alone split it. A turn with fewer than four words
 * left
 * adds nothing; so do sentences whose clause facts are all lasting ones
 * (they stand as those facts).
 */
export function turnMemory(turn: Turn, tu: readonly Unit[], state: State): ExtractedFact | undefined {
  if (tu.length === 0) return undefined;
  const kept: string[] = [];
  for (const u of tu) {
    let x = clean(u.text);
    if (!x) continue;
    // A question asks rather than tells, unless it is a tag question on a statement ("Sunflowers mean warmth, right?").
    if (/\?["')\]]*$/.test(x) && !TAG_QUESTION.test(x)) continue;
    x = stripInterjections(x);
    // What the clause rules leave out as not a fact stays out: filler, requests, hypotheticals, speculation, advice.
    if (!x || FILLER.test(x) || THANKS.test(x) || GREETING.test(x) || isVocative(x)) continue;
    if (REQUEST.test(x) || HYPOTHETICAL.test(x) || SPECULATIVE.test(x)) continue;
    x = x.replace(HEDGE, "");
    const ts = toks(x);
    const persons = rewritePersons(ts, u.speaker, u.other) ?? ts;
    const resolved = resolvePronouns(persons, state) ?? persons;
    const verb = firstVerbIndex(resolved);
    if (verb >= 0 && ADVICE_MODALS.has(resolved[verb]!.lower)) continue;
    let text = join(resolved.map((t, n) => ({ ...t, pre: n === 0 ? "" : t.pre })))
      .replace(/\s+([,.!?;:])/g, "$1")
      .trim()
      .replace(/!+(["')\]]*)$/, ".$1");
    text = dropSelfIntroduction(text.replace(/[.]+$/, "").replace(TRAILING_FILLER, ""), u.speaker.name);
    if (!text) continue;
    if (!/[.!?]["')\]]*$/.test(text)) text += ".";
    kept.push(`${text.charAt(0).toUpperCase()}${text.slice(1)}`);
  }
  const body = kept.join(" ");
  if (body.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length < 4) return undefined;
  const { speaker, ref } = tu[0]!;
  const dates = resolveDates(body, ref);
  return {
    // Who said it and when, when the conversation's date is known.
    content: `${dates.text} (${speaker.name}${ref ? `, ${dayOf(ref)}` : ""})`,
    isStatic: false,
    eventDates: dates.dates,
    isInference: false,
    chunkPositions: positionsOf(state.doc, turn.start, turn.end),
    subject: speaker.name.toLowerCase(),
  };
}
