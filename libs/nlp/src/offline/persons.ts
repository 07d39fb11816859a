/**
 * First and second person written as the people they are: "I" becomes the
 * speaker's name and "you" the other participant's, with the verb made to
 * agree ("I'm" → "Sarah is"), so that a fact reads the same out of its chat.
 */
import { ADVERBS, thirdPerson } from "./lexicon";
import { genderOfName } from "./names";
import { firstVerbIndex, isParticiple } from "./syntax";
import { type Tok, tok } from "./tokens";

export interface Speaker {
  /** Display name used in facts ("Sarah Chen", "The user"). */
  name: string;
  /** Whether this speaker is the user (as opposed to another named participant). */
  isUser: boolean;
}

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

export const CONTRACTION_VERB: Record<string, string> = {
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

function nameFor(speaker: Speaker, atStart: boolean): string {
  return !atStart && speaker.name.startsWith("The ") ? `the ${speaker.name.slice(4)}` : speaker.name;
}

/** Replaces first person (and "you" when it names the other participant) with names, making the verb agree. Undefined when "you" cannot be resolved. */
export function rewritePersons(ts: Tok[], speaker: Speaker, other: Speaker | undefined): Tok[] | undefined {
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
