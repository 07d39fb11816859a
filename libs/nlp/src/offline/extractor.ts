import type { ExtractedFact, ExtractionInput, FactExtractor } from "../ports";
import { OfflineBucketClassifier } from "./classifier";
import { type DateReference, parseReference, resolveDates } from "./dates";
import { inferFacts } from "./inference";
import {
  ADVERBS,
  AUX,
  isAdverbWord,
  isFemaleName,
  isFirstName,
  isGerund,
  isLastName,
  isMaleName,
  isPastTense,
  isVerbForm,
  lexTags,
  thirdPerson,
} from "./lexicon";
import { isStaticStatement } from "./static";
import { firstVerbIndex, isParticiple, isVerbAt } from "./syntax";
import { type Tok, join, sentences, tok, toks } from "./tokens";
import { parseTranscript, type Turn } from "./transcript";

/* ------------------------------------------------------------------ */
/* Document assembly: chunks overlap; rebuild one text with positions. */
/* ------------------------------------------------------------------ */

interface Assembled {
  text: string;
  spans: { start: number; end: number; position: number }[];
}

/** Joins chunks in position order, dropping the overlap a chunk repeats from the previous one, and remembers which range each chunk covers. */
export function assemble(chunks: ExtractionInput["chunks"]): Assembled {
  const sorted = [...chunks].filter((c) => c.content.trim()).sort((a, b) => a.position - b.position);
  let text = "";
  const spans: Assembled["spans"] = [];
  for (const c of sorted) {
    const content = c.content.replace(/\r\n?/g, "\n");
    let overlap = 0;
    if (text) {
      const tail = text.slice(-Math.min(text.length, content.length + 16));
      const probe = content.slice(0, Math.min(16, content.length));
      for (let at = tail.indexOf(probe); at >= 0; at = tail.indexOf(probe, at + 1)) {
        const repeated = tail.slice(at).trimEnd();
        if (repeated.length >= 16 && content.startsWith(repeated)) {
          overlap = repeated.length;
          break;
        }
      }
    }
    if (overlap > 0) {
      const start = text.trimEnd().length - overlap;
      text = text.trimEnd() + content.slice(overlap);
      spans.push({ start, end: text.length, position: c.position });
    } else {
      if (text) text += "\n\n";
      spans.push({ start: text.length, end: text.length + content.length, position: c.position });
      text += content;
    }
  }
  return { text, spans };
}

function positionsOf(doc: Assembled, start: number, end: number): number[] {
  const out = doc.spans.filter((s) => s.start < Math.max(end, start + 1) && s.end > start).map((s) => s.position);
  if (out.length === 0 && doc.spans.length) {
    // Offsets of JSON transcripts are approximate: fall back to the chunk containing the start.
    const s = doc.spans.find((x) => x.start <= start && x.end >= start) ?? doc.spans[doc.spans.length - 1]!;
    out.push(s.position);
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

const NAME_WORD = /^\p{Lu}[\p{L}'-]*$/u;

/** Words never taken for a person's name even when capitalised. */
const NOT_NAMES = new Set(
  "i the a an and but or so my your his her our their this that it we you he she they user assistant happy fine good sorry not here just really very new".split(
    " ",
  ),
);

const titleCase = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** A name run (1–3 words) at the start of `words`: capitalised words, or lower-case words the lexicon knows as names. */
function nameRun(words: string[], strict: boolean): string | undefined {
  const out: string[] = [];
  for (const w of words.slice(0, 3)) {
    const clean = w.replace(/[.,!?;:)]+$/, "");
    const lower = clean.toLowerCase();
    if (!clean || NOT_NAMES.has(lower)) break;
    const tags = lexTags(lower);
    const capital = NAME_WORD.test(clean);
    const known = isFirstName(lower) || (out.length > 0 && isLastName(lower));
    if (out.length === 0) {
      if (strict && !known) break;
      if (!capital && !known) break;
      if (!known && tags.some((t) => t !== "ProperNoun" && t !== "Person" && t !== "LastName")) break;
    } else if (
      !capital ||
      tags.some((t) => ["Verb", "Infinitive", "PastTense", "Preposition", "Conjunction", "Determiner", "Adjective", "Demonym"].includes(t))
    )
      break;
    out.push(titleCase(clean));
    if (clean !== w) break; // punctuation ends the name
  }
  return out.length ? out.join(" ") : undefined;
}

const CONTEXT_NAME =
  /\b(?:the user|user|the speaker|speaker|i am|i'm|my name is|name is|this is|called|named)\s+(?:is\s+)?(?:called\s+|named\s+)?([\p{L}'-]+(?:\s+[\p{L}'-]+){0,2})/iu;

/** The user's name from supportingContext: "The user is Sarah Chen, a PM", "Sarah Chen, product manager", "my name is Sarah". */
export function nameFromContext(context: string | undefined): string | undefined {
  if (!context) return undefined;
  const m = CONTEXT_NAME.exec(context);
  if (m) {
    const n = nameRun(m[1]!.split(/\s+/), false);
    if (n) return n;
  }
  return nameRun(context.trim().split(/\s+/), true);
}

/** "my name is X" (any capitalised name), "I'm X" / "call me X" (a known first name, or two capitalised words). */
function statedName(sentence: string): { name: string; rest?: string } | undefined {
  const explicit = /^(?:hi|hello|hey)?[,!.\s]*(?:my name is|my name's|name's|call me|you can call me|people call me)\s+(.+)$/i.exec(sentence);
  const soft = /^(?:hi|hello|hey)?[,!.\s]*(?:i'm|i am|im|this is|it's)\s+(.+)$/i.exec(sentence);
  const m = explicit ?? soft;
  if (!m) return undefined;
  const words = m[1]!.split(/\s+/);
  let name = nameRun(words, false);
  if (!name) return undefined;
  const afterName = m[1]!.slice(m[1]!.indexOf(name.split(" ").pop()!) + name.split(" ").pop()!.length).trim();
  if (!explicit) {
    const first = name.split(" ")[0]!.toLowerCase();
    // An unknown capitalised word is a name only when the sentence ends there ("Hi, I'm Priya.").
    if (!isFirstName(first) && name.split(" ").length < 2 && !/^(?:[.!,]|$)/.test(afterName)) return undefined;
    if (lexTags(first).some((t) => t === "Demonym" || t === "Adjective" || t === "Country" || t === "City")) return undefined;
  }
  const after = m[1]!.slice(m[1]!.indexOf(words[name.split(" ").length - 1]!) + words[name.split(" ").length - 1]!.length).trim();
  name = name.replace(/[.,!?]+$/, "");
  const rest = /^[,;-]\s*(.+)$/.exec(after)?.[1];
  return { name, rest };
}

/* ------------------------------------------------------------------ */
/* Sentence filters                                                    */
/* ------------------------------------------------------------------ */

const INTERJECTION =
  /^(?:(?:oh|ah|well|so|yeah|yes|yep|yup|no|nope|ok|okay|hey|hi|hello|um|uh|hmm|honestly|actually|anyway|anyways|btw|by the way|also|and|but|haha|lol|wow|right|sure|great|cool|nice|alright|all right|oh well|fun fact|big news|good news|bad news|guess what|news|update)\b[,!.:]*\s+)+/i;
const FILLER =
  /^(?:hi|hello|hey|good (?:morning|afternoon|evening|night)|thanks?(?: you)?(?: so much| a lot)?|thx|ty|ok|okay|sure|yes|no|yeah|yep|nope|cool|great|awesome|perfect|nice|wow|lol|haha|bye|goodbye|see you|sounds good|got it|no problem|you're welcome|of course|i see|makes sense|that's (?:great|cool|nice|awesome|helpful|interesting|it|all|fine|right|true)|that helps|good to know|i agree|agreed|exactly|right|same|me too|not really|i don't know|i'm not sure|never mind|nevermind|cheers|welcome back)[!.\s]*$/i;
const THANKS = /^(?:thanks|thank you|thx|ty|many thanks|much appreciated|appreciate it)\b/i;
const REQUEST =
  /^(?:please|pls|can you|could you|would you|will you|can u|could u|help me|tell me|show me|give me|let me know|let's|lets|remind me|write|explain|suggest|recommend|find|make|create|list|summarize|summarise|translate|describe|generate|draft|plan|book|check|compare|calculate|send|add|set|schedule|do you|did you|are you|have you|what|who|where|when|why|how|which|is there|are there|should i|could i|can i|may i|shall i|do i|am i|would it|is it)\b/i;
const HYPOTHETICAL =
  /^(?:if|suppose|supposing|imagine|what if|let's say|lets say|assuming|hypothetically|in case|unless|say we|say i|maybe|perhaps|i wish|i wonder|wondering|i was wondering)\b/i;
const SPECULATIVE = /^(?:i|we)\s+(?:might|may|could|would)\b(?!\s+(?:like|love|prefer)\b)/i;
const HEDGE =
  /^(?:i (?:think|guess|believe|suppose|feel like|mean|reckon|know)|i'd say|to be honest|tbh|honestly|basically|apparently|as i said|as i mentioned|like i said)(?:\s+that)?[,\s]+/i;
const QUESTION_START =
  /^(?:what|who|whom|whose|where|when|why|how|which|do|does|did|is|are|was|were|can|could|would|will|should|shall|may|might|have|has|had|am)\s+(?:i|you|we|he|she|they|it|there|my|your|the|this|that|a|an)\b/i;
const ASSISTANT_DIRECTED =
  /\b(?:a question|quick question|help with|help me|want(?:s)? to know|wants? to ask|need(?:s)? (?:some )?(?:help|advice|ideas|suggestions|tips)|looking for (?:advice|ideas|suggestions|tips|recommendations))\b/i;
const SMALL_TALK_STATE =
  /^\S+(?:\s\S+)?\s(?:is|was)\s(?:(?:so|very|really|pretty|a bit|kind of)\s)?(?:fine|good|ok|okay|great|well|tired|sorry|glad|happy|here|back|ready|sure|not sure|excited|bored|busy|curious|confused|doing well|doing good|doing great|thankful|grateful)[.!]*$/i;
const BOILERPLATE =
  /(?:all rights reserved|copyright|©|cookies?\b|privacy policy|terms of (?:service|use)|subscribe|sign up|log ?in\b|click here|read more|share this|follow us|newsletter|advertisement|table of contents|skip to (?:main )?content|powered by|back to top|previous post|next post|related posts|leave a (?:comment|reply)|posted (?:on|by)|^\s*(?:tags|categories|filed under)\s*:)/i;
/** "<Name> said (that) he/she/they …": the report verb goes, the pronoun was the reporter. */
const REPORTED_SELF =
  /^((?:\p{Lu}[\p{L}'-]*)(?: \p{Lu}[\p{L}'-]*){0,2}) (?:said|says|mentioned|explained|noted|added|told (?:me|us|him|her|them)|announced|confirmed)(?: that)? (?:he|she|they) /u;

/** Advice and speculation, not facts: "Sarah should see a doctor", "John might move". */
const ADVICE_MODALS = new Set(["should", "shouldn't", "could", "might", "may", "must", "ought"]);
const TRAILING_FILLER = /(?:,?\s+(?:by the way|btw|too|as well|lol|haha|though|actually|honestly|anyway|i guess|i think|you know|i mean|right|ok|okay))+$/i;
const CODE_LIKE = /[{}<>]|=>|\(\)|;\s*$|^\s*(?:import|export|const|let|var|function|def|class|return|public|private)\b|\w+\.\w+\(|[=!]==?/;

/* ------------------------------------------------------------------ */
/* Pronouns, entities                                                  */
/* ------------------------------------------------------------------ */

type Gender = "f" | "m" | "u";

interface Entity {
  /** Text that replaces a pronoun referring to it ("Amy", "Sarah's sister", "the new car"). */
  label: string;
  gender: Gender;
  plural: boolean;
  person: boolean;
}

const RELATIONS: Record<string, Gender> = {
  sister: "f",
  mother: "f",
  mom: "f",
  mum: "f",
  wife: "f",
  girlfriend: "f",
  daughter: "f",
  aunt: "f",
  grandma: "f",
  grandmother: "f",
  niece: "f",
  fiancee: "f",
  stepmother: "f",
  brother: "m",
  father: "m",
  dad: "m",
  husband: "m",
  boyfriend: "m",
  son: "m",
  uncle: "m",
  grandpa: "m",
  grandfather: "m",
  nephew: "m",
  fiance: "m",
  stepfather: "m",
  partner: "u",
  friend: "u",
  boss: "u",
  manager: "u",
  colleague: "u",
  coworker: "u",
  roommate: "u",
  neighbor: "u",
  neighbour: "u",
  cousin: "u",
  therapist: "u",
  doctor: "u",
  teacher: "u",
  kid: "u",
  child: "u",
  baby: "u",
  mentor: "u",
  dog: "u",
  cat: "u",
  puppy: "u",
  kitten: "u",
};
const PLURAL_RELATIONS = new Set(
  "parents kids children sisters brothers siblings friends colleagues coworkers grandparents twins dogs cats sons daughters cousins roommates neighbors neighbours".split(
    " ",
  ),
);

const SUBJECT_PRONOUNS = new Set([
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

interface PersonForms {
  subj: Set<string>;
  obj: Set<string>;
  poss: Set<string>;
  refl: Set<string>;
}

const FIRST: PersonForms = {
  subj: new Set(["i", "i'm", "im", "i've", "ive", "i'd", "i'll", "we", "we're", "we've", "we'd", "we'll"]),
  obj: new Set(["me", "us"]),
  poss: new Set(["my", "mine", "our", "ours"]),
  refl: new Set(["myself", "ourselves"]),
};
const SECOND: PersonForms = {
  subj: new Set(["you", "you're", "you've", "you'd", "you'll", "u"]),
  obj: new Set(["you", "u"]),
  poss: new Set(["your", "yours"]),
  refl: new Set(["yourself"]),
};

const CONTRACTION_VERB: Record<string, string> = {
  "i'm": "is",
  im: "is",
  "we're": "is",
  "you're": "is",
  "i've": "has",
  ive: "has",
  "we've": "has",
  "you've": "has",
  "i'll": "will",
  "we'll": "will",
  "you'll": "will",
};

const SKIPPABLE_BEFORE_VERB = new Set([...ADVERBS, "not", "no", "longer", "kind", "sort", "of", "n't"]);

/* ------------------------------------------------------------------ */
/* The extractor                                                       */
/* ------------------------------------------------------------------ */

interface Speaker {
  /** Display name used in facts ("Sarah Chen", "The user"). */
  name: string;
  /** Whether this speaker is the user (as opposed to another named participant). */
  isUser: boolean;
}

interface Unit {
  text: string;
  start: number;
  end: number;
  speaker: Speaker;
  /** The other participant in a two-person chat ("you" resolves to them). */
  other?: Speaker;
  prose: boolean;
}

interface State {
  ref: DateReference;
  entities: Entity[];
  thing?: Entity;
  /** Lower-cased names of speakers: never antecedents of he/she. */
  speakers: Set<string>;
  facts: Map<string, ExtractedFact>;
  /** Keys of the facts emitted, in order (new keys only). */
  added: string[];
  doc: Assembled;
}

export interface OfflineFactExtractorOptions {
  /** Files facts into the input's buckets; defaults to an OfflineBucketClassifier. */
  classifier?: OfflineBucketClassifier;
}

/**
 * Offline fact extraction: deterministic, no network, no model. Rule-based
 * analysis over compromise's lexicon and conjugator and chrono's date parser
 * (see README for the rules and their limits).
 */
export class OfflineFactExtractor implements FactExtractor {
  readonly id = "offline-v1";
  private readonly classifier: OfflineBucketClassifier;

  constructor(options: OfflineFactExtractorOptions = {}) {
    this.classifier = options.classifier ?? new OfflineBucketClassifier();
  }

  async extract(input: ExtractionInput): Promise<ExtractedFact[]> {
    const facts = extractFacts(input);
    if (input.buckets?.length && facts.length) {
      const keys = await this.classifier.classify(
        facts.map((f) => f.content),
        input.buckets,
      );
      facts.forEach((f, i) => (f.bucketKeys = keys[i] ?? []));
    }
    return facts;
  }
}

/** The synchronous core of OfflineFactExtractor (without bucket classification). */
export function extractFacts(input: ExtractionInput): ExtractedFact[] {
  const ref = parseReference(input.referenceDate);
  const doc = assemble(input.chunks);
  if (!doc.text.trim()) return [];
  const state: State = { ref, entities: [], speakers: new Set(), facts: new Map(), added: [], doc };
  const contextName = nameFromContext(input.supportingContext);

  const turns = parseTranscript(doc.text);
  const units: Unit[] = [];
  const turnsOfUnits: { turn: Turn; units: Unit[] }[] = [];
  if (turns) {
    const userName = contextName ?? nameFromTurns(turns);
    const user: Speaker = { name: userName ?? "The user", isUser: true };
    const humans = [...new Set(turns.filter((t) => t.role === "human" && t.name).map((t) => t.name!))];
    for (const h of humans) state.speakers.add(h.toLowerCase());
    if (userName) state.speakers.add(userName.toLowerCase());
    for (const t of turns) {
      if (t.role !== "human") continue;
      const speaker: Speaker = t.name ? { name: t.name, isUser: false } : user;
      const other = t.name && humans.length === 2 ? humans.find((h) => h !== t.name) : undefined;
      const turnUnits: Unit[] = [];
      for (const line of splitLines(t.text, t.start)) {
        for (const s of sentences(line.text)) {
          turnUnits.push({
            text: s.text,
            start: line.start + s.start,
            end: line.start + s.end,
            speaker,
            other: other ? { name: other, isUser: false } : undefined,
            prose: false,
          });
        }
      }
      units.push(...turnUnits);
      turnsOfUnits.push({ turn: t, units: turnUnits });
    }
  } else {
    const user: Speaker = { name: contextName ?? "The user", isUser: true };
    if (contextName) state.speakers.add(contextName.toLowerCase());
    if (input.title) seedFromTitle(input.title, state);
    for (const block of proseBlocks(doc.text)) {
      for (const s of sentences(block.text)) units.push({ text: s.text, start: block.start + s.start, end: block.start + s.end, speaker: user, prose: true });
    }
  }

  if (turnsOfUnits.length) {
    // A chat: each turn kept whole (turnMemory), after its clauses gave their antecedents. A sentence whose
    // clause facts are all lasting ones (traits, names, states inferred from events) is represented by them and left out of the turn;
    // the turn's passing clause facts give way to it (it holds their words, and the words around them).
    for (const { turn, units: tu } of turnsOfUnits) {
      const represented = new Set<Unit>();
      const passing: string[] = [];
      for (const u of tu) {
        const mark = state.added.length;
        processUnit(u, state);
        const added = state.added.slice(mark);
        const lasting = (k: string) => state.facts.get(k)!.isStatic || state.facts.get(k)!.isInference;
        if (added.length && added.every(lasting)) represented.add(u);
        for (const k of added) if (!lasting(k)) passing.push(k);
      }
      const whole = turnMemory(
        turn,
        tu.filter((u) => !represented.has(u)),
        state,
      );
      if (!whole) continue;
      for (const k of passing) state.facts.delete(k);
      emit(state, whole);
    }
  } else for (const u of units) processUnit(u, state);
  return [...state.facts.values()];
}

const TAG_QUESTION = /,\s*(?:right|isn't (?:it|that)|aren't (?:they|we)|don't (?:you think|they)|wasn't it|didn't (?:i|we|they|he|she)|no|huh|eh)\?["')\]]*$/i;
const GREETING =
  /^(?:(?:so |really )?(?:good|nice|great|lovely) to (?:see|hear from|meet|talk to|chat with) \S+|long time no see|how (?:are|have) you(?: been)?)[!.\s]*$/i;

/** A sentence that only addresses someone ("Mel!", "Caroline."). */
function isVocative(x: string): boolean {
  const words = x.replace(/[!.,\s]+$/, "").split(/\s+/);
  return words.length <= 2 && words.every((w) => /^\p{Lu}[\p{L}'-]*$/u.test(w));
}

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "8 May 2023": the reference's calendar day in its own offset. */
function dayOf(ref: DateReference): string {
  const local = new Date(ref.instant.getTime() + ref.offsetMinutes * 60_000);
  return `${local.getUTCDate()} ${MONTH_NAMES[local.getUTCMonth()]} ${local.getUTCFullYear()}`;
}

/**
 * A chat turn kept whole, so that formation never loses what the clause rules
 * cannot restructure (issue #15): the speaker's sentences with first and
 * second person replaced by names and pronouns resolved where an antecedent
 * is known, relative dates made absolute, questions that ask (not tag
 * questions such as "…, right?") and pure filler left out, followed by who
 * said it and when: "Caroline went to a LGBTQ support group on 2023-05-07 and
 * it was so powerful. (Caroline, 8 May 2023)". An answer often spans the
 * sentences of one turn (the flowers, and that they were part of the
 * wedding); clause facts alone split it. A turn with fewer than four words
 * left
 * adds nothing; so do sentences whose clause facts are all lasting ones
 * (they stand as those facts).
 */
function turnMemory(turn: Turn, tu: readonly Unit[], state: State): ExtractedFact | undefined {
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
    text = text.replace(/[.]+$/, "").replace(TRAILING_FILLER, "");
    if (!text) continue;
    if (!/[.!?]["')\]]*$/.test(text)) text += ".";
    kept.push(`${text.charAt(0).toUpperCase()}${text.slice(1)}`);
  }
  const body = kept.join(" ");
  if (body.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length < 4) return undefined;
  const dates = resolveDates(body, state.ref);
  const speaker = tu[0]!.speaker;
  return {
    content: `${dates.text} (${speaker.name}, ${dayOf(state.ref)})`,
    isStatic: false,
    eventDates: dates.dates,
    isInference: false,
    chunkPositions: positionsOf(state.doc, turn.start, turn.end),
    subject: speaker.name.toLowerCase(),
  };
}

/** The user's name stated in the conversation ("I'm Sarah", "my name is Sarah"), or greeted by the assistant ("Nice to meet you, Sarah"). */
function nameFromTurns(turns: Turn[]): string | undefined {
  for (const t of turns) {
    if (t.role !== "human" || t.name) continue;
    for (const s of sentences(t.text.replace(/\n/g, " "))) {
      const n = statedName(stripInterjections(s.text));
      if (n) return n.name;
    }
  }
  for (const t of turns) {
    if (t.role !== "assistant") continue;
    const m = /\b(?:nice to meet you|hi|hello|hey|welcome|thanks|thank you|great to meet you),?\s+(\p{Lu}[\p{L}'-]+)\b/u.exec(t.text);
    if (m && isFirstName(m[1]!.toLowerCase())) return m[1]!;
  }
  return undefined;
}

function splitLines(text: string, base: number): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  let offset = 0;
  for (const line of text.split("\n")) {
    if (line.trim()) out.push({ text: line, start: base + offset });
    offset += line.length + 1;
  }
  return out;
}

/** Paragraph text of a prose document, without headings, code, tables, boilerplate and link-only lines; list items become their own blocks. */
function proseBlocks(text: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  const lines = text.split("\n");
  let offset = 0;
  let fence = false;
  let para: { text: string; start: number } | undefined;
  const flush = () => {
    if (para && para.text.trim()) out.push(para);
    para = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const start = offset;
    offset += line.length + 1;
    const trimmed = line.trim();
    if (/^(?:```|~~~)/.test(trimmed)) {
      fence = !fence;
      flush();
      continue;
    }
    if (fence) continue;
    const next = lines[i + 1]?.trim() ?? "";
    const skip =
      !trimmed ||
      /^#{1,6}\s/.test(trimmed) ||
      /^[=\-*_]{3,}$/.test(trimmed) ||
      (/^[=-]{3,}$/.test(next) && trimmed.length < 80) ||
      /^(?: {4}|\t)/.test(line) ||
      (trimmed.match(/\|/g)?.length ?? 0) >= 2 ||
      (trimmed.split(/\s+/).length <= 12 && BOILERPLATE.test(trimmed)) ||
      letterShare(trimmed) < 0.5 ||
      isHeadingLike(trimmed);
    if (skip) {
      flush();
      continue;
    }
    const item = /^(?:[-*+•]|\d{1,3}[.)])\s+(.*)$/.exec(trimmed);
    if (item) {
      flush();
      out.push({ text: item[1]!, start: start + line.indexOf(item[1]!) });
      continue;
    }
    if (para) para.text += ` ${line}`;
    else para = { text: line, start };
  }
  flush();
  return out;
}

function letterShare(s: string): number {
  const letters = s.match(/[\p{L}\s]/gu)?.length ?? 0;
  return letters / Math.max(1, s.length);
}

function isHeadingLike(line: string): boolean {
  if (/[.!?:;]["')]*$/.test(line) && !/:$/.test(line)) return false;
  if (/:$/.test(line)) return true;
  const words = line.split(/\s+/);
  if (words.length > 8) return false;
  const capitalised = words.filter((w) => /^[\p{Lu}\d]/u.test(w)).length;
  return capitalised / words.length >= 0.6 || line === line.toUpperCase();
}

function seedFromTitle(title: string, state: State): void {
  const words = title
    .replace(/[:|–—-].*$/, "")
    .trim()
    .split(/\s+/);
  const name = nameRun(words, true);
  if (name) state.entities.push({ label: name, gender: genderOfName(name), plural: false, person: true });
}

function genderOfName(name: string): Gender {
  const first = name.split(" ")[0]!.toLowerCase();
  return isFemaleName(first) && !isMaleName(first) ? "f" : isMaleName(first) && !isFemaleName(first) ? "m" : "u";
}

function stripInterjections(s: string): string {
  let out = s.replace(INTERJECTION, "");
  // "Oh, and I ..." leaves "and": strip again.
  out = out.replace(INTERJECTION, "");
  return out.trim();
}

function clean(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__|`/g, "")
    .replace(/\p{Extended_Pictographic}/gu, "")
    .replace(/https?:\/\/\S+/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s+([,.!?;:])/g, "$1")
    .trim();
}

/** "Update, 2 September 2025: <sentence>": a dated label before the statement. */
const DATED_LABEL = /^([^:.!?]{3,48}):\s+(\S.*)$/;
const LABEL_DATE =
  /\b(?:19|20)\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b|\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b/i;

function processUnit(u: Unit, state: State): void {
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

/** Splits a sentence into clauses at "and"/"but"/";"/", so" when a new subject (or, after and/but, a finite verb reusing the subject) follows. */
function splitClauses(ts: Tok[]): Tok[][] {
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

function nameFor(speaker: Speaker, atStart: boolean): string {
  return !atStart && speaker.name.startsWith("The ") ? `the ${speaker.name.slice(4)}` : speaker.name;
}

/** Replaces first person (and "you" when it names the other participant) with names, making the verb agree. Undefined when "you" cannot be resolved. */
function rewritePersons(ts: Tok[], speaker: Speaker, other: Speaker | undefined): Tok[] | undefined {
  const out: Tok[] = [];
  const named = new Set<Speaker>();
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    const w = t.lower;
    const isYou = SECOND.subj.has(w) || SECOND.obj.has(w) || SECOND.poss.has(w) || SECOND.refl.has(w);
    if (isYou && w === "u" && t.text !== "u") {
      out.push(t);
      continue;
    }
    const isMe = FIRST.subj.has(w) || FIRST.obj.has(w) || FIRST.poss.has(w) || FIRST.refl.has(w);
    if (!isYou && !isMe) {
      out.push(t);
      continue;
    }
    if (isYou && !other) return undefined;
    const forms = isYou ? SECOND : FIRST;
    const who = isYou ? other! : speaker;
    const atStart = out.length === 0;
    const subjPosition =
      forms.subj.has(w) &&
      (w !== "you" || atStart || /^[,;:]$/.test(ts[i - 1]?.text ?? "") || ["and", "but", "that", "because", "so"].includes(ts[i - 1]?.lower ?? ""));
    if (subjPosition) {
      const nameTok = tok(nameFor(who, atStart), t.pre);
      named.add(who);
      const compound = (ts[i - 1]?.lower === "and" && firstVerbIndex(out) < 0) || ts[i + 1]?.lower === "and";
      out.push(nameTok);
      if (compound) continue;
      const contracted = CONTRACTION_VERB[w];
      if (contracted) {
        out.push(tok(contracted));
        continue;
      }
      if (w === "i'd" || w === "we'd" || w === "you'd") {
        out.push(tok(ts[i + 1] && isParticiple(ts[i + 1]!.lower) ? "had" : "would"));
        continue;
      }
      let j = i + 1;
      while (ts[j] && SKIPPABLE_BEFORE_VERB.has(ts[j]!.lower)) out.push(ts[j++]!);
      const v = ts[j];
      if (v?.word) {
        out.push({ ...tok(thirdPerson(v.text), v.pre) });
        i = j;
      } else i = j - 1;
      continue;
    }
    // Once named in the clause, later mentions are pronouns ("Sarah quit her job"), as a person would write it.
    const again = named.has(who);
    const p = pronounsOf(who);
    const text =
      forms.obj.has(w) || forms.subj.has(w)
        ? again
          ? p.obj
          : nameFor(who, false)
        : forms.poss.has(w)
          ? again
            ? p.poss
            : `${nameFor(who, atStart)}'s`
          : again
            ? p.refl
            : nameFor(who, false);
    out.push({ ...tok(text, t.pre), fixed: true });
    named.add(who);
  }
  return out;
}

function pronounsOf(s: Speaker): { obj: string; poss: string; refl: string } {
  const g = s.name.startsWith("The ") ? "u" : genderOfName(s.name);
  return g === "f"
    ? { obj: "her", poss: "her", refl: "herself" }
    : g === "m"
      ? { obj: "him", poss: "his", refl: "himself" }
      : { obj: "them", poss: "their", refl: "themself" };
}

const THIRD = new Set(["he", "she", "him", "his", "her", "hers", "they", "them", "their", "theirs", "he's", "she's", "they're", "it", "its", "it's"]);

/** Resolves he/she/they/it against the entities seen so far. Undefined when a pronoun has no antecedent. */
function resolvePronouns(ts: Tok[], state: State): Tok[] | undefined {
  const out: Tok[] = [];
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    const w = t.lower;
    if (!THIRD.has(w) || t.fixed) {
      out.push(t);
      continue;
    }
    const atStart = out.length === 0;
    const isIt = w === "it" || w === "its" || w === "it's";
    const plural = w.startsWith("the");
    const gender: Gender = w.startsWith("s") || w === "her" || w === "hers" ? "f" : w.startsWith("h") ? "m" : "u";
    const e = isIt ? state.thing : findEntity(state, plural, gender);
    if (!e) {
      // A subject pronoun must resolve; a later one may refer back inside a long sentence ("the families who lost their homes").
      if (out.filter((x) => x.word).length >= 8) {
        out.push(t);
        continue;
      }
      return undefined;
    }
    // Already named earlier in this clause: the pronoun refers back inside the sentence.
    const sofar = ` ${out.map((x) => x.text).join(" ")} `;
    if (sofar.includes(` ${e.label} `) || sofar.includes(` ${e.label}'s `)) {
      out.push(t);
      continue;
    }
    const label = atStart ? e.label.charAt(0).toUpperCase() + e.label.slice(1) : e.label.replace(/^The /, "the ");
    const next = ts[i + 1];
    if (w === "his" || w === "its" || w === "their" || w === "theirs" || w === "hers" || (w === "her" && next?.word && !isFunctionWord(next.lower))) {
      out.push(tok(`${label}'s`, t.pre));
    } else if (w.endsWith("'s") || w.endsWith("'re")) {
      out.push(tok(label, t.pre), tok("is"));
    } else {
      out.push(tok(label, t.pre));
      if ((w === "they" || w === "he" || w === "she" || w === "it") && next?.word && atStart && plural === false) {
        // "she live" cannot happen; "they live" → "Sarah's parents live": plural labels keep the verb.
      }
    }
  }
  return out;
}

function isFunctionWord(w: string): boolean {
  return lexTags(w).some((t) => t === "Preposition" || t === "Conjunction" || t === "Determiner" || t === "Adverb") || ADVERBS.has(w) || AUX.has(w);
}

function findEntity(state: State, plural: boolean, gender: Gender): Entity | undefined {
  for (let i = state.entities.length - 1; i >= 0; i--) {
    const e = state.entities[i]!;
    if (!e.person || e.plural !== plural) continue;
    if (gender === "u" || e.gender === "u" || e.gender === gender) return e;
  }
  return undefined;
}

function rememberEntities(ts: Tok[], state: State, prose: boolean): void {
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    // "<Owner>'s sister (Amy)" / "<Owner>'s parents"
    if (t.lower.endsWith("'s") && ts[i + 1]) {
      let k = i + 1;
      while (ts[k] && ts[k]!.word && lexTags(ts[k]!.lower).includes("Adjective") && k < i + 3) k++;
      const rel = ts[k]?.lower ?? "";
      const named = ts[k + 1] && nameRun([ts[k + 1]!.text], true);
      if (RELATIONS[rel] !== undefined) {
        const label = named ? named : join(ts.slice(i, k + 1).map((x, n) => ({ ...x, pre: n === 0 ? "" : x.pre })));
        const gender = RELATIONS[rel]!;
        state.entities.push({ label, gender: named && gender === "u" ? genderOfName(named) : gender, plural: false, person: true });
        i = named ? k + 1 : k;
        continue;
      }
      if (PLURAL_RELATIONS.has(rel)) {
        state.entities.push({ label: join(ts.slice(i, k + 1).map((x, n) => ({ ...x, pre: n === 0 ? "" : x.pre }))), gender: "u", plural: true, person: true });
        i = k;
        continue;
      }
    }
    if (t.word && /^\p{Lu}/u.test(t.text) && isFirstName(t.lower) && !state.speakers.has(t.lower)) {
      const words = ts.slice(i, i + 3).map((x) => x.text);
      const name = nameRun(words, true);
      if (name && !state.speakers.has(name.toLowerCase())) {
        state.entities.push({ label: name, gender: genderOfName(name), plural: false, person: true });
        i += name.split(" ").length - 1;
      }
    }
  }
  // Things "it" can refer to: the subject of a prose sentence ("The Eiffel Tower was built..."), or the object of an acquisition.
  const v = firstVerbIndex(ts);
  if (prose && v > 0 && v <= 6 && /^(?:the|a|an)$/i.test(ts[0]!.lower) && !ts.slice(0, v).some((x) => RELATIONS[x.lower] !== undefined)) {
    state.thing = {
      label: join(ts.slice(0, v).map((x, n) => ({ ...x, pre: n === 0 ? "" : x.pre }))).replace(/^(?:A|An)\b/, "The"),
      gender: "u",
      plural: false,
      person: false,
    };
  }
  if (prose && v > 0 && v <= 4) {
    const name = nameRun(
      ts.slice(0, v).map((x) => x.text),
      false,
    );
    if (name && name.split(" ").length === v && !state.speakers.has(name.toLowerCase())) {
      const person = isFirstName(name.split(" ")[0]!.toLowerCase());
      if (person) state.entities.push({ label: name, gender: genderOfName(name), plural: false, person: true });
      else state.thing = { label: name, gender: "u", plural: false, person: false };
    }
  }
  for (let i = 0; i < ts.length; i++) {
    if (!/^(?:bought|got|adopted|purchased|built|started|launched|found|made|wrote|ordered|received|rented|leased)$/.test(ts[i]!.lower)) continue;
    const det = ts[i + 1];
    if (!det || !/^(?:a|an|the|\S+'s)$/.test(det.lower)) continue;
    let k = i + 2;
    while (ts[k] && ts[k]!.word && k < i + 5 && !isFunctionWord(ts[k]!.lower)) k++;
    if (k > i + 2) {
      const np = join(ts.slice(i + 1, k).map((x, n) => ({ ...x, pre: n === 0 ? "" : x.pre })));
      state.thing = { label: np.replace(/^(?:a|an)\b/i, "the"), gender: "u", plural: false, person: false };
    }
  }
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

  const dates = resolveDates(text, state.ref);
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

/**
 * People named in a clause before its first he/she/they ("Tomasz Weber said he
 * is moving …"): the pronoun refers back to them. A capitalised run of two or
 * three words (a full name the lexicon may not know) counts as a person there.
 */
function rememberClauseAntecedents(ts: Tok[], state: State): void {
  const at = ts.findIndex((t, i) => i > 0 && !t.fixed && /^(?:he|she|they|him|her|his|them|their|he's|she's|they're)$/.test(t.lower));
  if (at < 0) return;
  const prefix = ts.slice(0, at);
  const before = state.entities.length;
  rememberEntities(prefix, state, false);
  if (state.entities.length > before) return;
  for (let i = 0; i < prefix.length; i++) {
    if (!prefix[i]!.word || !NAME_WORD.test(prefix[i]!.text)) continue;
    const name = nameRun(
      prefix.slice(i, i + 3).map((x) => x.text),
      false,
    );
    if (name && name.includes(" ") && !state.speakers.has(name.toLowerCase())) {
      state.entities.push({ label: name, gender: genderOfName(name), plural: false, person: true });
      return;
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

function emit(state: State, fact: ExtractedFact): void {
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
