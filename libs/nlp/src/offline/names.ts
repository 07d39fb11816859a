/**
 * People's names: name runs in text (capitalised words, or words the lexicon
 * knows as names), the user's name from supporting context, from "I'm X" /
 * "my name is X" or from the assistant's greeting, and the gender a first
 * name suggests (for he/she).
 */
import { stripInterjections } from "./filters";
import { isFemaleName, isFirstName, isLastName, isMaleName, lexTags } from "./lexicon";
import { sentences } from "./tokens";
import type { Turn } from "./transcript";

export const NAME_WORD = /^\p{Lu}[\p{L}'-]*$/u;

/** Words never taken for a person's name even when capitalised. */
const NOT_NAMES = new Set(
  "i the a an and but or so my your his her our their this that it we you he she they user assistant happy fine good sorry not here just really very new".split(
    " ",
  ),
);

const titleCase = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** A name run (1–3 words) at the start of `words`: capitalised words, or lower-case words the lexicon knows as names. */
export function nameRun(words: string[], strict: boolean): string | undefined {
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
export function statedName(sentence: string): { name: string; rest?: string } | undefined {
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

/** The user's name stated in the conversation ("I'm Sarah", "my name is Sarah"), or greeted by the assistant ("Nice to meet you, Sarah"). */
export function nameFromTurns(turns: Turn[]): string | undefined {
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

export type Gender = "f" | "m" | "u";

/** "f" / "m" when the lexicon knows the first name as only female / only male, else "u". */
export function genderOfName(name: string): Gender {
  const first = name.split(" ")[0]!.toLowerCase();
  return isFemaleName(first) && !isMaleName(first) ? "f" : isMaleName(first) && !isFemaleName(first) ? "m" : "u";
}
