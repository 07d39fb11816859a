import type { ExtractedFact, MemoryRelator, RelationCandidate, RelationDecision, RelationKind } from "../ports";
import { analyzeStatement, sameSubject, type Statement } from "./statement";

/** Slots that hold one value at a time: a different value replaces the old one. */
const SINGLE_VALUED = new Set([
  "live|in",
  "live|at",
  "reside|in",
  "be|based",
  "work|at",
  "work|for",
  "work|as",
  "be|married",
  "be|engaged",
  "drive|",
  "prefer|",
  "name|",
  "be|a",
  "use|",
]);
/** Slots where a different value may equally be a second value (several allergies, languages, pets): a change cue is needed to call it an update. */
const MULTI_VALUED_PREFIX = /^(?:be\|allergic|speak\||like\||love\||enjoy\||have\||own\||play\||hate\||dislike\|)/;

const PRIORITY: Record<RelationKind, number> = { duplicate: 4, updates: 3, extends: 2, derives: 1, unrelated: 0 };

const overlap = (a: Set<string>, b: Set<string>) => {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
};
const subset = (a: Set<string>, b: Set<string>) => a.size > 0 && overlap(a, b) === a.size;
const normText = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * Offline relation of a new fact to existing memories (dreaming=dynamic), by
 * subject / verb / attribute-slot analysis and content-stem overlap:
 *
 * - duplicate: same text, or the same subject and no content word the
 *   candidate lacks (same negation);
 * - updates: same subject, and the same single-valued slot with a new value
 *   ("lives in Seattle" → "lives in Portland"), the same statement negated,
 *   or a change cue (now, no longer, moved, switched, instead...) on the same
 *   slot or verb;
 * - extends: same subject, most of the candidate's content words plus new
 *   ones, or the same slot and value with a qualifier added;
 * - derives: the fact is an inference sharing content words with the
 *   candidate;
 * - unrelated otherwise.
 *
 * Among candidates the strongest relation wins (duplicate > updates > extends
 * > derives), ties going to the more similar candidate.
 */
export class OfflineMemoryRelator implements MemoryRelator {
  readonly id = "offline-v1";

  async relate(fact: ExtractedFact, candidates: RelationCandidate[]): Promise<RelationDecision> {
    return this.relateSync(fact, candidates);
  }

  relateSync(fact: ExtractedFact, candidates: RelationCandidate[]): RelationDecision {
    const f = analyzeStatement(fact.content, fact.subject);
    let best: RelationDecision = { kind: "unrelated" };
    let bestSim = -Infinity;
    for (const c of candidates) {
      const kind = decide(fact, f, c);
      if (kind === "unrelated") continue;
      if (PRIORITY[kind] > PRIORITY[best.kind] || (PRIORITY[kind] === PRIORITY[best.kind] && c.similarity > bestSim)) {
        best = { kind, targetId: c.id };
        bestSim = c.similarity;
      }
    }
    return best;
  }
}

function decide(fact: ExtractedFact, f: Statement, c: RelationCandidate): RelationKind {
  if (normText(fact.content) === normText(c.content)) return "duplicate";
  const k = analyzeStatement(c.content, c.subject);
  const subj = sameSubject(f.subject, k.subject);
  const shared = overlap(f.stems, k.stems);
  if (shared === 0) return "unrelated";

  if (subj) {
    const fNew = [...f.predicateStems].filter((s) => !k.stems.has(s)).length;
    const kMissing = [...k.predicateStems].filter((s) => !f.stems.has(s)).length;
    const sameNegation = f.negated === k.negated;

    if (sameNegation && fNew === 0 && f.predicateStems.size > 0 && !(f.change && kMissing > 0)) return "duplicate";
    if (!sameNegation && k.predicateStems.size > 0 && overlap(f.predicateStems, k.predicateStems) >= Math.ceil(k.predicateStems.size * 0.6)) return "updates";

    const sameSlot = f.slot === k.slot && f.slot !== "|";
    const sameVerb = f.verb !== "" && f.verb === k.verb;
    const valueChanged =
      f.objectStems.size > 0 && k.objectStems.size > 0 && overlap(f.objectStems, k.objectStems) < Math.min(f.objectStems.size, k.objectStems.size);
    if (sameSlot && valueChanged) {
      if ((SINGLE_VALUED.has(f.slot) || f.slot.startsWith("favourite|")) && !MULTI_VALUED_PREFIX.test(f.slot)) {
        // "prefers tea" vs "prefers dark mode": different topics, unless a change is announced.
        if (f.slot !== "prefer|" || f.change || overlap(f.objectStems, k.objectStems) > 0) return "updates";
      } else if (f.change) return "updates";
      else if (!SINGLE_VALUED.has(f.slot) && !f.slot.startsWith("favourite|")) return "extends";
    }
    if (f.change && (sameSlot || sameVerb) && kMissing > 0) return "updates";

    if (fact.isInference && overlap(f.predicateStems, k.stems) > 0) return "derives";
    if (fNew > 0 && k.predicateStems.size > 0 && overlap(k.predicateStems, f.stems) >= Math.ceil(k.predicateStems.size * 0.6)) return "extends";
    if (sameSlot && !valueChanged && fNew > 0) return "extends";
    if (subset(k.objectStems, f.objectStems) && fNew > 0 && (sameSlot || sameVerb)) return "extends";
    return "unrelated";
  }
  if (fact.isInference && overlap(f.predicateStems, k.stems) >= Math.max(1, Math.ceil(f.predicateStems.size * 0.5))) return "derives";
  return "unrelated";
}
