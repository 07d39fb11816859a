import nlp from "compromise/two";

/**
 * Word classes and verb forms from compromise's lexicon and conjugator.
 * compromise's full tagger costs about 12 µs per character here (12 ms for a
 * 1 KB conversation), over the extraction budget, so the offline components
 * do their own light, positional analysis and only look words up here.
 */

interface World {
  model: { one: { lexicon: Record<string, string | string[]> } };
  methods: {
    two: {
      transform: {
        verb: {
          conjugate(infinitive: string, model: unknown): Record<string, string | undefined>;
          toInfinitive(verb: string, model: unknown, tense?: string): string;
        };
      };
    };
  };
}

const world = (nlp as unknown as { world(): World }).world();
const lexicon = world.model.one.lexicon;

function tagsOf(word: string): readonly string[] {
  const t = lexicon[word];
  return t === undefined ? [] : Array.isArray(t) ? t : [t];
}

/** Tags of a lower-cased word in compromise's lexicon (empty when unknown). */
export function lexTags(word: string): readonly string[] {
  return tagsOf(word);
}

const has = (word: string, ...tags: string[]) => {
  const t = tagsOf(word);
  return tags.some((x) => t.includes(x));
};

/** A given name (first name) in the lexicon. */
export const isFirstName = (w: string) => has(w, "FemaleName", "MaleName", "FirstName");
export const isFemaleName = (w: string) => has(w, "FemaleName");
export const isMaleName = (w: string) => has(w, "MaleName");
export const isLastName = (w: string) => has(w, "LastName");
export const isPlaceName = (w: string) => has(w, "City", "Country", "Region", "Place");
export const isOrganization = (w: string) => has(w, "Organization", "SportsTeam");

const VERB_TAGS = ["Infinitive", "PresentTense", "PastTense", "Verb", "Copula", "Modal", "Participle", "PhrasalVerb"];

/** Known as a (finite or base) verb form, excluding gerunds. */
export const isVerbForm = (w: string) => has(w, ...VERB_TAGS) || AUX.has(w);
export const isPastTense = (w: string) => has(w, "PastTense") || (/^[a-z]{3,}ed$/.test(w) && !has(w, "Adjective", "Singular"));
export const isAdverbWord = (w: string) => has(w, "Adverb") || ADVERBS.has(w) || (/^[a-z]{4,}ly$/.test(w) && !LY_VERBS.has(w) && !has(w, "Adjective"));
export const isAdjective = (w: string) => has(w, "Adjective", "Comparative", "Superlative");
export const isGerund = (w: string) => has(w, "Gerund") || /^[a-z]{3,}ing$/.test(w);

/** Auxiliaries and modals (lower case, contractions included). */
export const AUX = new Set(
  "am is are was were be been being have has had do does did can could will would shall should may might must don't doesn't didn't can't couldn't won't wouldn't shouldn't isn't aren't wasn't weren't haven't hasn't hadn't".split(
    " ",
  ),
);
export const MODALS = new Set("can could will would shall should may might must can't couldn't won't wouldn't shouldn't cannot".split(" "));

/** Present-tense verbs that end in "ed". */
const ED_PRESENT = new Set("need feed seed speed bleed breed heed proceed succeed exceed embed shed shred wed".split(" "));

const LY_VERBS = new Set("apply reply rely supply comply multiply fly ally bully tally rally sully imply".split(" "));

/** Adverbs commonly placed between a subject and its verb ("I really like", "she also works"). */
export const ADVERBS = new Set(
  "also still just never always often usually sometimes now actually really recently already even only mostly generally currently finally totally definitely absolutely probably rarely seldom frequently occasionally typically normally honestly literally basically truly certainly kinda sorta ever once again soon later then".split(
    " ",
  ),
);

const presentCache = new Map<string, string>();

/**
 * Third-person singular present of a verb as written after "I"/"we"/"you"
 * ("live" → "lives", "have" → "has", "go" → "goes"); past forms, modals and
 * words that are not verbs come back unchanged.
 */
export function thirdPerson(word: string): string {
  const lower = word.toLowerCase();
  const fixed = IRREGULAR_3RD[lower];
  if (fixed !== undefined) return matchCase(fixed, word);
  if (MODALS.has(lower) || isPastTense(lower) || isGerund(lower) || !/^[a-z]+$/.test(lower)) return word;
  if (/^[a-z]{3,}ed$/.test(lower) && !ED_PRESENT.has(lower)) return word;
  // Already third person ("is", "lives", "has").
  const tags = tagsOf(lower);
  if (tags.includes("Copula") || tags.includes("PresentTense") || lower === "has" || lower === "does") return word;
  let out = presentCache.get(lower);
  if (out === undefined) {
    out = conjugatePresent(lower);
    if (presentCache.size > 20_000) presentCache.clear();
    presentCache.set(lower, out);
  }
  return matchCase(out, word);
}

function conjugatePresent(w: string): string {
  try {
    const forms = world.methods.two.transform.verb.conjugate(w, world.model);
    const p = forms.PresentTense;
    if (p && /^[a-z]+$/.test(p)) return p;
  } catch {
    // fall back to spelling rules
  }
  if (/(s|sh|ch|x|z|o)$/.test(w)) return `${w}es`;
  if (/[^aeiou]y$/.test(w)) return `${w.slice(0, -1)}ies`;
  return `${w}s`;
}

const IRREGULAR_3RD: Record<string, string> = {
  am: "is",
  are: "is",
  "'m": "is",
  "'re": "is",
  were: "was",
  have: "has",
  "'ve": "has",
  do: "does",
  "don't": "doesn't",
  dont: "doesn't",
  "aren't": "isn't",
  "weren't": "wasn't",
  "haven't": "hasn't",
  be: "is",
};

const infinitiveCache = new Map<string, string>();

/** Base form of a verb form ("lives" → "live", "moved" → "move", "went" → "go"); unknown words unchanged. */
export function infinitive(word: string): string {
  const w = word.toLowerCase();
  let out = infinitiveCache.get(w);
  if (out === undefined) {
    out = w;
    const tags = tagsOf(w);
    if (tags.includes("Infinitive")) out = w;
    else if (w === "is" || w === "am" || w === "are" || w === "was" || w === "were" || w === "been") out = "be";
    else if (w === "has" || w === "had") out = "have";
    else if (tags.includes("PastTense") || tags.includes("PresentTense") || tags.includes("Participle") || /(ed|es|s)$/.test(w)) {
      const tense = tags.includes("PastTense") || w.endsWith("ed") ? "PastTense" : "PresentTense";
      try {
        const inf = world.methods.two.transform.verb.toInfinitive(w, world.model, tense);
        if (inf && /^[a-z]+$/.test(inf)) out = inf;
      } catch {
        // keep the word
      }
    }
    if (infinitiveCache.size > 20_000) infinitiveCache.clear();
    infinitiveCache.set(w, out);
  }
  return out;
}

/** Applies the capitalisation of `model` (first letter) to `word`. */
export function matchCase(word: string, model: string): string {
  return /^[A-Z]/.test(model) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}
