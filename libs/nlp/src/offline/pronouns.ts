/**
 * Third person: the people ("Sarah's sister Amy", "my parents", "Tomasz
 * Weber") and things ("the new car") a text mentions, remembered in order, and
 * he/she/they/it replaced by the latest one that agrees in number and gender.
 */
import { ADVERBS, AUX, isFirstName, lexTags } from "./lexicon";
import { type Gender, genderOfName, NAME_WORD, nameRun } from "./names";
import { firstVerbIndex } from "./syntax";
import { type Tok, join, tok } from "./tokens";

export interface Entity {
  /** Text that replaces a pronoun referring to it ("Amy", "Sarah's sister", "the new car"). */
  label: string;
  gender: Gender;
  plural: boolean;
  person: boolean;
}

export const RELATIONS: Record<string, Gender> = {
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

/** What he/she/they/it can refer to, remembered as the document is read. */
export interface Referents {
  entities: Entity[];
  thing?: Entity;
  /** Lower-cased names of speakers: never antecedents of he/she. */
  speakers: Set<string>;
}

const THIRD = new Set(["he", "she", "him", "his", "her", "hers", "they", "them", "their", "theirs", "he's", "she's", "they're", "it", "its", "it's"]);

/** Resolves he/she/they/it against the entities seen so far. Undefined when a pronoun has no antecedent. */
export function resolvePronouns(ts: Tok[], state: Referents): Tok[] | undefined {
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

function findEntity(state: Referents, plural: boolean, gender: Gender): Entity | undefined {
  for (let i = state.entities.length - 1; i >= 0; i--) {
    const e = state.entities[i]!;
    if (!e.person || e.plural !== plural) continue;
    if (gender === "u" || e.gender === "u" || e.gender === gender) return e;
  }
  return undefined;
}

export function rememberEntities(ts: Tok[], state: Referents, prose: boolean): void {
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

/**
 * People named in a clause before its first he/she/they ("Tomasz Weber said he
 * is moving …"): the pronoun refers back to them. A capitalised run of two or
 * three words (a full name the lexicon may not know) counts as a person there.
 */
export function rememberClauseAntecedents(ts: Tok[], state: Referents): void {
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

/** A name opening the title ("Sarah Chen: notes"): the first antecedent of he/she in the document. */
export function seedFromTitle(title: string, state: Referents): void {
  const words = title
    .replace(/[:|–—-].*$/, "")
    .trim()
    .split(/\s+/);
  const name = nameRun(words, true);
  if (name) state.entities.push({ label: name, gender: genderOfName(name), plural: false, person: true });
}
