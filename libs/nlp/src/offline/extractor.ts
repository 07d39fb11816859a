/**
 * The offline fact extractor: reads a document as a chat (turns by speaker) or
 * as prose, gives each sentence to the clause rules (facts.ts) and, in a
 * chat, keeps each turn whole as a memory (chat-turns.ts) in place of its
 * passing clause facts.
 */
import type { ExtractedFact, ExtractionInput, FactExtractor } from "../ports";
import { documentDates, type ReferenceAt } from "./anchors";
import { turnMemory } from "./chat-turns";
import { OfflineBucketClassifier } from "./classifier";
import { parseReference } from "./dates";
import { assemble, proseBlocks, splitLines } from "./document";
import { emit, processUnit, type State, type Unit } from "./facts";
import { nameFromContext, nameFromTurns } from "./names";
import type { Speaker } from "./persons";
import { seedFromTitle } from "./pronouns";
import { sentences } from "./tokens";
import { parseTranscript, type Turn } from "./transcript";

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
  const received = parseReference(input.now, "now");
  const given = input.referenceDate ? parseReference(input.referenceDate) : undefined;
  const doc = assemble(input.chunks);
  if (!doc.text.trim()) return [];
  const state: State = { entities: [], speakers: new Set(), facts: new Map(), added: [], doc };
  const contextName = nameFromContext(input.supportingContext);

  const turns = parseTranscript(doc.text);
  // Relative dates resolve against the caller's date, else the document's own (its title, Date: header, dated headings), else stay as written.
  const refAt: ReferenceAt = given ? () => given : documentDates(doc.text, { received, title: input.title, turns });
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
            ref: refAt(line.start + s.start),
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
      for (const s of sentences(block.text)) {
        const start = block.start + s.start;
        units.push({ text: s.text, start, end: block.start + s.end, speaker: user, prose: true, ref: refAt(start) });
      }
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
